import Dispatch
import Foundation
import ObservableStore
import Testing

/// Returns after every main-queue block queued before the call has run — in particular
/// after the store's effect mailbox has delivered what was posted so far.
@MainActor
func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Waits (on the main actor, letting the main queue run) until `condition` holds, or
/// records a test failure after `timeout` seconds.
@MainActor
func eventually(
    timeout: Double = 5,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            Issue.record("condition not met within \(timeout)s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(2))
    }
}

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

/// A value shared with publishers that emit on other threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func update(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&value)
        lock.unlock()
    }

    var current: Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
