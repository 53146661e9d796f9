import CStorePlugin
import Dispatch
import Foundation
import Testing

@testable import StorePlugin

/// What the fake host was asked: timers scheduled and cancelled.
private enum FakeHost {
    nonisolated(unsafe) static var wakes = 0
    nonisolated(unsafe) static var cancels = 0

    nonisolated(unsafe) static let table: UnsafeMutablePointer<storeplugin_host> = {
        let table = UnsafeMutablePointer<storeplugin_host>.allocate(capacity: 1)
        table.initialize(to: storeplugin_host())
        table.pointee.clock_now = { _ in 0 }
        table.pointee.clock_wake = { _, _, _, _ in
            FakeHost.wakes += 1
            return UInt64(FakeHost.wakes)
        }
        table.pointee.clock_cancel = { _, _ in FakeHost.cancels += 1 }
        return table
    }()
}

/// Host timers the SDK schedules for effects that sleep on the host clock.
@Suite("Host timers")
struct HostTimerTests {
    /// A sleep cancelled after it began scheduling its timer, but before its turn on the
    /// main thread, used to leave a timer with the host that nothing would cancel: the
    /// shell then counted it as an effect waiting on the clock and stopped settling early
    /// (an effect's events came after the next line, now and then, in a worker).
    @MainActor
    @Test func aTimerCancelledBeforeItsTurnOnTheMainThreadIsNeverScheduled() async {
        let before = FakeHost.wakes
        let pending = HostTimers.Pending(HostServices(table: FakeHost.table))
        let cancelled = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pending.start(deadline: 10, fire: {}, onCancel: { cancelled.signal() })
            started.signal()
        }
        // Keep the main thread busy until the other thread waits for its turn on it
        // (best effort: if it has not got there, the test checks the easier order).
        usleep(200_000)
        pending.cancel()
        #expect(cancelled.wait(timeout: .now() + 5) == .success, "the sleep ends as cancelled")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = started.wait(timeout: .now() + 5)
                continuation.resume()
            }
        }
        #expect(FakeHost.wakes == before, "no timer was left with the host")
    }
}
