import Dispatch
import HostTestSupport
import StoreHost
import Testing

/// `clock_wake` takes any 64-bit deadline a plugin passes (a C plugin computes its own):
/// the host's clocks must not trap on one far in the past or the future.
@Suite("Clock deadlines at the ends of time")
@MainActor
struct ClockDeadlineTests {
    @Test func aRealClockFiresADeadlineLongPastOnItsNextTurn() async {
        let clock = RealClock()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = clock.wake(at: .min) { continuation.resume() }
        }
    }

    @Test func aRealClockNeverFiresADeadlineAtTheEndOfTime() async throws {
        let clock = RealClock()
        var fired = false
        let timer = clock.wake(at: .max) { fired = true }
        let soon = clock.wake(at: clock.now + 1_000_000) {}
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!fired)
        clock.cancel(timer)
        clock.cancel(soon)
    }

    @Test func aVirtualClockAdvancedPastTheEndOfTimeStopsThere() {
        let clock = VirtualClock()
        clock.advance(by: 10)
        var fired: [Int64] = []
        _ = clock.wake(at: .max) { fired.append(clock.now) }
        _ = clock.wake(at: .min) { fired.append(clock.now) }
        clock.advance(by: .max)
        #expect(clock.now == .max)
        #expect(fired == [10, .max], "the timer long past fires first, at the time it was")
    }
}
