public import Observation

#if canImport(Darwin)
    public import Combine
#else
    public import CombineOnLinux  // OpenCombine, where the system has no Combine
#endif

/// Wraps a model so others can hear about its updates: `didUpdate` publishes each action
/// after the wrapped model has applied it, effect results included. Reads of the wrapped
/// model's properties pass straight through (`decorated.count`).
@Observable
@MainActor
@dynamicMemberLookup
public final class DidUpdateDecorator<Wrapped: ArborealModel>: ArborealModel {
    /// The wrapped model's actions.
    public typealias Action = Wrapped.Action
    /// The wrapped model's environment.
    public typealias Environment = Wrapped.Environment

    /// The decorated model (upstream Arboreal calls it `state`).
    public let wrapped: Wrapped

    /// The decorated model, by upstream Arboreal's name.
    public var state: Wrapped { wrapped }
    @ObservationIgnored private let subject = PassthroughSubject<Action, Never>()

    /// Wraps `wrapped`; its updates are published from now on.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    /// Each action, published after the wrapped model's update has run.
    public var didUpdate: AnyPublisher<Action, Never> {
        subject.eraseToAnyPublisher()
    }

    /// Runs the wrapped model's update, then publishes `action` on `didUpdate`.
    public func update(action: Action, environment: Environment) -> Fx<Action> {
        let fx = wrapped.update(action: action, environment: environment)
        subject.send(action)
        return fx
    }

    /// Reads a property of the wrapped model.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Wrapped, Value>) -> Value {
        wrapped[keyPath: keyPath]
    }
}

/// A model that publishes each action after applying it (`DidUpdateDecorator`).
@MainActor
public protocol DidUpdatePublishing {
    /// The actions published.
    associatedtype Action
    /// Each action, after the model applied it.
    var didUpdate: AnyPublisher<Action, Never> { get }
}

extension DidUpdateDecorator: DidUpdatePublishing {}

extension ArborealStore where Model: DidUpdatePublishing {
    /// Each action, published after the store's model has applied it (effect results
    /// included): `store.didUpdate`, as upstream Arboreal offers it.
    public var didUpdate: AnyPublisher<Model.Action, Never> {
        state.didUpdate
    }
}
