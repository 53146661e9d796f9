import Arboreal
import Dispatch
import Observation
@_exported import TestSupport
import Testing

/// Counts how many times the effects of a test actually ran to completion.
final class RunLog: @unchecked Sendable {
    private let lock = NSLockish()
    private var entries: [String] = []
    func record(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// What a test's effects wait for instead of a time: they go on when the test opens it,
/// so a machine too busy to send the next action within a sleep cannot make an effect run
/// before the test cancelled it. Cancelling a waiting task ends its wait at once.
final class Gate: @unchecked Sendable {
    private let lock = NSLockish()
    private var isOpen = false
    private var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    private var nextID = 0

    /// Lets every wait, and every wait to come, go on.
    func open() {
        let waiting = lock.withLock {
            isOpen = true
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once the gate is open; throws `CancellationError` when the task is cancelled first.
    func wait() async throws {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Cancelled before it ever ran (a busy machine starts tasks late), it does not
                // go through a gate opened meanwhile.
                let now: Result<Void, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if isOpen { return .success(()) }
                    waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}

/// A tiny lock so the test target needs no Foundation.
final class NSLockish: @unchecked Sendable {
    private var flag = DispatchSemaphore(value: 1)
    func withLock<T>(_ body: () -> T) -> T {
        flag.wait()
        defer { flag.signal() }
        return body()
    }
}

@Observable
@MainActor
final class CounterModel: ArborealModel {
    var count = 0
    var child = ChildModel()

    enum Action: Equatable, Sendable {
        case increment
        case setCount(Int)
        case incrementLater(milliseconds: Int)
        case incrementLaterCancellable(id: String, cancelInFlight: Bool)
        case cancel(id: String)
        case child(ChildModel.Action)
    }

    struct Environment: Sendable {
        var log = RunLog()
        /// When set, cancellable effects wait for it rather than 50 ms.
        var gate: Gate?
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
        switch action {
        case .increment:
            count += 1
            return .none
        case .setCount(let value):
            count = value
            return .none
        case .incrementLater(let milliseconds):
            let log = environment.log
            return Fx {
                try? await Task.sleep(for: .milliseconds(milliseconds))
                log.record("ran")
                return .increment
            }
        case .incrementLaterCancellable(let id, let cancelInFlight):
            let (log, gate) = (environment.log, environment.gate)
            return Fx {
                do {
                    if let gate { try await gate.wait() } else { try await Task.sleep(for: .milliseconds(50)) }
                    log.record("ran \(id)")
                } catch {
                    log.record("cancelled \(id)")
                }
                return .increment
            }
            .cancellable(id: id, cancelInFlight: cancelInFlight)
        case .cancel(let id):
            return .cancel(id: id)
        case .child(let action):
            return child.update(action: action, environment: ()).tag(Action.child)
        }
    }
}

@Observable
@MainActor
final class ChildModel: ArborealModel {
    var text = ""

    enum Action: Equatable, Sendable {
        case setText(String)
        case echoLater(String)
    }

    func update(action: Action, environment: Void) -> Fx<Action> {
        switch action {
        case .setText(let text):
            self.text = text
            return .none
        case .echoLater(let text):
            return Fx { .setText(text) }
        }
    }
}
