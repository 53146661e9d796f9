import Dispatch
import Foundation
import HostTestSupport
import StoreHost
import Testing

@testable import StoreShell

/// Settling a virtual clock gives effects a limit of real time. A main queue held
/// elsewhere — another session, or another test, in the same process — is time the
/// effects could not use: it must not count, or an effect due to finish on the next turn
/// is reported as never finishing (`:advance 1ms` printed nothing, under load, in CI).
@MainActor
@Suite("Settling effects while the main queue is held elsewhere")
struct SettleUnderLoadTests {
    /// `depth`: how many main-queue turns after the timer fires the hold starts, so that
    /// it falls at each point of the effect's and the settling's turns in turn.
    @Test(arguments: 0..<6)
    func anEffectDueNowFinishesAlthoughTheMainQueueIsHeldWhileSettling(depth: Int) async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        shell.core.showDiff = false
        shell.core.settleLimit = 0.1
        _ = await shell.run(#"authenticate user: "bo", password: "open sesame""#, ":advance 499ms")
        // When the timer fires, something else takes the main queue for one and a half times the
        // limit, `depth` turns later.
        shell.clock.onMove = { _ in holdTheMainQueue(afterTurns: depth, microseconds: 150_000) }
        let lines = await shell.run(":advance 1ms")
        shell.clock.onMove = nil
        #expect(
            lines == [
                #"fx #1 authenticate emitted succeed user: "bo" (+500ms)"#, "fx #1 authenticate finished (+500ms)",
            ])
        #expect(await shell.run(":state phase") == [#""signedIn""#])
    }

    @Test func aStalledTurnCostsLittleAndAQuickOneCostsWhatItTook() {
        let start: UInt64 = 1_000_000_000
        var budget = EffectTimeBudget(seconds: 0.1, now: start)
        // Twenty quick turns of 4 ms: 80 ms of the 100 spent.
        var now = start
        for _ in 0..<20 {
            now += 4_000_000
            let left = budget.remains(now: now)
            #expect(left)
        }
        // A stall of half a second costs one stalled turn (5 ms), not 500: 85 ms.
        now += 500_000_000
        let leftAfterTheStall = budget.remains(now: now)
        #expect(leftAfterTheStall)
        // Three more quick turns leave 3 ms; a fourth spends the rest.
        for turn in 1...4 {
            now += 4_000_000
            let left = budget.remains(now: now)
            #expect(left == (turn < 4), "turn \(turn)")
        }
    }

    @Test func stallsCannotStretchItPastTenTimesTheLimitOrAMinute() {
        var budget = EffectTimeBudget(seconds: 10, now: 0)
        // Stalls of 20 s each cost 5 ms, but after five of them 100 s have passed.
        var left: [Bool] = []
        for turn in 1...5 { left.append(budget.remains(now: UInt64(turn) * 20_000_000_000)) }
        #expect(left == [true, true, true, true, false])
        // A short limit still gets a minute: a loaded test run stalls that long.
        var short = EffectTimeBudget(seconds: 0.1, now: 0)
        let afterTenSeconds = short.remains(now: 10_000_000_000)
        let afterAMinute = short.remains(now: 61_000_000_000)
        #expect(afterTenSeconds && !afterAMinute)
    }

    @Test func aLimitTooLongToCountOrNotANumberIsNoLimit() {
        for seconds in [Double.infinity, .nan, 1e300] {
            var budget = EffectTimeBudget(seconds: seconds, now: 5)
            let left = budget.remains(now: UInt64.max / 2)
            #expect(left, "\(seconds)")
        }
        var none = EffectTimeBudget(seconds: 0, now: 5)
        let left = none.remains(now: 5)
        #expect(!left)
    }
}

/// Holds the main queue for `microseconds`, `turns` turns of it from now.
private func holdTheMainQueue(afterTurns turns: Int, microseconds: UInt32) {
    DispatchQueue.main.async {
        if turns == 0 {
            usleep(microseconds)
        } else {
            holdTheMainQueue(afterTurns: turns - 1, microseconds: microseconds)
        }
    }
}
