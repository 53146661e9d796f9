import Testing

@testable import StorePlugin

/// A model's delays and deadlines come from its own arithmetic, often on an action's
/// argument (`startTimer(seconds: 1e12)`): times past what 64 bits of nanoseconds hold
/// mean "never", and must not trap in the model's process (storesh's own, in process).
@Suite("Time arithmetic saturates")
struct TimeArithmeticTests {
    typealias Stride = HostScheduler.SchedulerTimeType.Stride
    typealias SchedulerTime = HostScheduler.SchedulerTimeType

    @Test func schedulerStridesTooLongToCountAreTheLongestThereIs() {
        #expect(Stride.seconds(1e300).nanoseconds == .max)
        #expect(Stride.seconds(-1e300).nanoseconds == .min)
        #expect(Stride.seconds(Double.infinity).nanoseconds == .max)
        #expect(Stride.seconds(Double.nan).nanoseconds == 0, "not a number waits for nothing")
        #expect(Stride.seconds(Int.max).nanoseconds == .max)
        #expect(Stride.milliseconds(Int.min).nanoseconds == .min)
        #expect(Stride.microseconds(Int.max).nanoseconds == .max)
        #expect(Stride(floatLiteral: 1e30).nanoseconds == .max)
        #expect(Stride(integerLiteral: .max).nanoseconds == .max)
        #expect(Stride(exactly: Int64.max)?.nanoseconds == .max)
    }

    @Test func schedulerStrideArithmeticSaturates() {
        let long = Stride(nanoseconds: .max - 1)
        #expect((long + .seconds(5)).nanoseconds == .max)
        #expect((Stride(nanoseconds: .min) - .seconds(5)).nanoseconds == .min)
        #expect((long * .seconds(2)).nanoseconds == .max)
        #expect((Stride(nanoseconds: .min) * .seconds(2)).nanoseconds == .min)
        #expect((Stride.seconds(3) * .seconds(2)).nanoseconds == 6_000_000_000, "in range it is exact")
        #expect((Stride.seconds(1.5) * 2).nanoseconds == 3_000_000_000)
        var total = long
        total += .seconds(1)
        #expect(total.nanoseconds == .max)
        #expect(Stride(nanoseconds: .min).magnitude == .max)
    }

    @Test func schedulerTimesSaturate() {
        let late = SchedulerTime(nanoseconds: 1_000)
        #expect(late.advanced(by: .seconds(1e300)).nanoseconds == .max)
        #expect(SchedulerTime(nanoseconds: -1_000).advanced(by: .seconds(-1e300)).nanoseconds == .min)
        #expect(SchedulerTime(nanoseconds: .min).distance(to: SchedulerTime(nanoseconds: .max)).nanoseconds == .max)
        #expect(late.advanced(by: .seconds(1)).nanoseconds == 1_000_001_000)
    }

    @Test func clockInstantsSaturate() {
        let now = HostClock.Instant(nanoseconds: 5_000)
        #expect(now.advanced(by: .seconds(Int64.max)).nanoseconds == .max)
        #expect(HostClock.Instant(nanoseconds: -5_000).advanced(by: .seconds(Int64.min)).nanoseconds == .min)
        // Seconds that fit and attoseconds that carry past the end.
        #expect(HostClock.Instant(nanoseconds: 0).advanced(by: .seconds(9_223_372_036.9)).nanoseconds == .max)
        #expect(now.advanced(by: .milliseconds(2)).nanoseconds == 2_005_000)
        #expect(
            HostClock.Instant(nanoseconds: .min).duration(to: HostClock.Instant(nanoseconds: .max))
                > .seconds(9_000_000_000))
    }
}
