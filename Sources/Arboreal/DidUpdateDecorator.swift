public import Observation
#if canImport(Combine)
public import Combine
#else
public import OpenCombine
#endif

/// Wraps a model so others can hear about its updates: `didUpdate` publishes each action
/// after the wrapped model has applied it, effect results included. Reads of the wrapped
/// model's properties pass straight through (`decorated.count`).
@Observable
@MainActor
@dynamicMemberLookup
public final class DidUpdateDecorator<Wrapped: ArborealModel>: ArborealModel {
    public typealias Action = Wrapped.Action
    public typealias Environment = Wrapped.Environment

    /// The decorated model.
    public let wrapped: Wrapped
    @ObservationIgnored private let subject = PassthroughSubject<Action, Never>()

    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    /// Each action, published after the wrapped model's update has run.
    public var didUpdate: AnyPublisher<Action, Never> {
        subject.eraseToAnyPublisher()
    }

    public func update(action: Action, environment: Environment) -> Fx<Action> {
        let fx = wrapped.update(action: action, environment: environment)
        subject.send(action)
        return fx
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Wrapped, Value>) -> Value {
        wrapped[keyPath: keyPath]
    }
}
