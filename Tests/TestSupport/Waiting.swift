import Dispatch
public import Foundation
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

/// Lets the main queue run until `condition` holds, or records a test failure once the
/// main queue has been free to work on it for `timeout` seconds. The limit is only there
/// to end a hang: the end-to-end suites run storesh processes and wait for them on the
/// test runner's few threads, and every `@MainActor` suite shares the main queue with
/// the effects a condition waits for, so on a 2-core machine a condition that holds in
/// milliseconds can wait behind all of them. Time the main queue spent on other work does
/// not count (a gap between two checks counts as at most `longestCountedGap`): after a
/// suite held it for 19 s, a wall-clock limit ran out on the first check, before the
/// effects queued behind that work had their turns, and failed a test that was right.
@MainActor
public func eventually(
    timeout: Double = 120,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @MainActor () -> Bool
) async {
    let limit = UInt64(timeout * 1e9)
    var counted: UInt64 = 0
    var lastCheck = DispatchTime.now().uptimeNanoseconds
    while !condition() {
        let now = DispatchTime.now().uptimeNanoseconds
        counted += min(now - lastCheck, longestCountedGap)
        lastCheck = now
        if counted > limit {
            Issue.record("condition not met within \(timeout)s", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

/// The most of one gap between two checks `eventually` counts against its limit, in
/// nanoseconds: its 1 ms sleep, with room for a loaded machine, and no more.
let longestCountedGap: UInt64 = 50_000_000

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

/// Runs `process` to its end and returns its exit status, waiting without holding a
/// thread: a `waitUntilExit()` from a `@MainActor` test holds the main queue (a swiftc
/// run in one suite held every other suite's effects for 19 s), and one from any other
/// test holds one of the runner's few pool threads.
@discardableResult
public func runToExit(_ process: Process) async throws -> Int32 {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
}
