import Dispatch
import HostTestSupport
import StoreHost
import Testing

/// `clock_wake` takes any 64-bit deadline a plugin passes (a C plugin computes its own):
/// the host's clocks must not trap on one far in the past or the future.
@Suite("Clock deadlines at the ends of time")
@MainActor
struct ClockDeadlineTests {
    /// Fires after `wake` returns (never inside it), and as due now: before a timer due in
    /// 10 s that was set first. (How soon is the machine's business: a loaded CI machine
    /// took 11 s; the time limit ends the test if it never fires.)
    @Test(.timeLimit(.minutes(1))) func aRealClockFiresADeadlineLongPastOnItsNextTurn() async throws {
        let clock = RealClock()
        var fired: [String] = []
        let later = clock.wake(at: clock.now + 10_000_000_000) { fired.append("in 10 s") }
        _ = clock.wake(at: .min) { fired.append("long past") }
        #expect(fired.isEmpty, "not inside wake(at:)")
        while fired.isEmpty {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(fired.first == "long past")
        clock.cancel(later)
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
