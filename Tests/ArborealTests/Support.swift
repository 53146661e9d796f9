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
            let log = environment.log
            return Fx {
                do {
                    try await Task.sleep(for: .milliseconds(50))
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
