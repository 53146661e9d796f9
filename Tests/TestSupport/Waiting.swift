import Dispatch
import Foundation
// Helpers every test target shares: waiting for the main queue (where store effects
// deliver), and collecting values from other threads.
public import Testing

/// Returns after every main-queue block queued before the call has run — in particular
/// after a store's effect mailbox has delivered what was posted so far.
@MainActor
public func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Lets the main queue run until `condition` holds, or records a test failure after
/// `timeout` seconds of wall time. The limit is only there to end a hang: the end-to-end
/// suites run storesh processes and wait for them on the test runner's few threads, and
/// every `@MainActor` suite shares the main queue with the effects a condition waits
/// for, so on a 2-core machine a condition that holds in milliseconds can wait for all of
/// them. (A clean-clone CI run under load had the store-library effect tests wait 30 s
/// behind ~27 s of other suites' main-actor work, and fail; alone they pass in 0.15 s.)
@MainActor
public func eventually(
    timeout: Double = 120,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            Issue.record("condition not met within \(timeout)s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// A value shared with code that runs on other threads (publishers, tasks).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func update(_ body: (inout Value) -> Void) {
        lock.lock()
        body(&value)
        lock.unlock()
    }

    public var current: Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
