import ObservableStore
@_exported import TestSupport
import Testing

/// A publisher of one action that arrives after `milliseconds`, from another thread.
func delayed<Action: Sendable>(_ action: Action, milliseconds: Int = 20) -> Fx<Action> {
    Future {
        try? await Task.sleep(for: .milliseconds(milliseconds))
        return action
    }
    .eraseToAnyPublisher()
}

/// A publisher of one action, delivered synchronously on subscription.
func immediate<Action>(_ action: Action) -> Fx<Action> {
    Just(action).eraseToAnyPublisher()
}

/// A counter with effects of every kind, used across the tests.
struct Counter: ModelProtocol {
    var count = 0

    enum Action: Equatable, Sendable {
        case increment
        case decrement
        case setCount(Int)
        case noop
        case incrementLater
        case incrementLaterCancellable(id: String, cancelInFlight: Bool)
        case cancel(id: String)
        case incrementTwiceNow
        case animatedSet(Int)
    }

    static func update(state: Counter, action: Action, environment: Void) -> Update<Counter> {
        var next = state
        switch action {
        case .increment:
            next.count += 1
            return Update(state: next)
        case .decrement:
            next.count -= 1
            return Update(state: next)
        case .setCount(let value):
            next.count = value
            return Update(state: next)
        case .noop:
            return Update(state: state)
        case .incrementLater:
            return Update(state: state, fx: delayed(.increment))
        case .incrementLaterCancellable(let id, let cancelInFlight):
            return Update(state: state, fx: delayed(.increment, milliseconds: 50))
                .cancellable(id: id, cancelInFlight: cancelInFlight)
        case .cancel(let id):
            return Update(state: state).cancelFx(id: id)
        case .incrementTwiceNow:
            return Update(state: state, fx: immediate(.increment)).mergeFx(immediate(.increment))
        case .animatedSet(let value):
            next.count = value
            return Update(state: next, animation: .easeOut())
        }
    }
}
