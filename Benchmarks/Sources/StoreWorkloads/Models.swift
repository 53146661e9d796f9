public import Arboreal
public import ObservableStore
public import Observation

/// The smallest useful value model: one counter, and a ping whose effect answers pong.
public struct TrivialCounter: ModelProtocol {
    public var count = 0

    public init() {}

    public enum Action: Sendable {
        case increment
        /// Starts one immediate effect that sends `.pong` back.
        case ping
        case pong
    }

    @inlinable
    public static func update(state: TrivialCounter, action: Action, environment: Void) -> Update<TrivialCounter> {
        switch action {
        case .increment, .pong:
            var next = state
            next.count &+= 1
            return Update(state: next)
        case .ping:
            return Update(state: state, fx: Just(Action.pong).eraseToAnyPublisher())
        }
    }
}

/// The Arboreal twin of `TrivialCounter`.
@Observable
@MainActor
public final class TrivialArborealCounter: ArborealModel {
    public var count = 0

    public init() {}

    public enum Action: Sendable {
        case increment
        case ping
        case pong
    }

    public func update(action: Action, environment: Void) -> Arboreal.Fx<Action> {
        switch action {
        case .increment, .pong:
            count &+= 1
            return .none
        case .ping:
            return Arboreal.Fx { .pong }
        }
    }
}

/// A parent holding a `TrivialCounter` child, wired the usual way: its child actions go
/// through `update(get:set:tag:)`. For the child-send and view-store workloads.
public struct CounterParent: ModelProtocol {
    public var child = TrivialCounter()

    public init() {}

    public enum Action: Sendable {
        case child(TrivialCounter.Action)
    }

    public static func update(state: CounterParent, action: Action, environment: Void) -> Update<CounterParent> {
        switch action {
        case .child(let action):
            return update(
                get: { $0.child },
                set: { parent, child in
                    var next = parent
                    next.child = child
                    return next
                },
                tag: Action.child,
                state: state,
                action: action,
                environment: ()
            )
        }
    }
}

/// A model the size of a small screen's state: a count and 100 strings. Its sends copy
/// and compare a value with a heap buffer, as real models do (issue 37's workload).
public struct ListCounter: ModelProtocol {
    public var count = 0
    public var items: [String] = (0..<100).map { "item \($0)" }

    public init() {}

    public enum Action: Sendable {
        case increment
    }

    @inlinable
    public static func update(state: ListCounter, action: Action, environment: Void) -> Update<ListCounter> {
        switch action {
        case .increment:
            var next = state
            next.count &+= 1
            return Update(state: next)
        }
    }
}

/// A parent holding a `ListCounter`, its child actions sent through `update(get:set:tag:)`.
public struct ListParent: ModelProtocol {
    public var child = ListCounter()

    public init() {}

    public enum Action: Sendable {
        case child(ListCounter.Action)
    }

    public static func update(state: ListParent, action: Action, environment: Void) -> Update<ListParent> {
        switch action {
        case .child(let action):
            return update(
                get: { $0.child },
                set: { parent, child in
                    var next = parent
                    next.child = child
                    return next
                },
                tag: Action.child,
                state: state,
                action: action,
                environment: ()
            )
        }
    }
}
