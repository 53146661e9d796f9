import StoreHost
import Testing

@testable import StoreShell

/// The diffs a history keeps: the newest actions' as they are recorded, older ones worked
/// out later, none of a forgotten action; checked against a plain table over random runs.
@Suite struct RecordedDiffsTests {
    static func change(_ number: Int) -> [StateChange] {
        [StateChange(kind: .changed, path: "count", old: .int(Int64(number)), new: .int(Int64(number + 1)))]
    }

    @Test func theNewestWindowKeepsItsDiffsAndOlderOnesAreForgotten() {
        var diffs = RecordedDiffs(window: 300)
        for number in 0..<1_000 {
            diffs.recorded(number)
            diffs[number] = Self.change(number)
        }
        for number in 700..<1_000 { #expect(diffs[number] == Self.change(number), "action \(number) is in the window") }
        // The ring holds a power of two slots, so a few just past the window may remain.
        #expect((0..<488).allSatisfy { diffs[$0] == nil }, "actions long past the window keep nothing")
    }

    @Test func aDiffWorkedOutForAnOlderActionIsKept() {
        var diffs = RecordedDiffs(window: 10)
        for number in 0..<500 { diffs.recorded(number) }
        diffs[3] = Self.change(3)
        diffs[499] = Self.change(499)
        for number in 500..<2_000 { diffs.recorded(number) }
        #expect(diffs[3] == Self.change(3))
        diffs.forget(before: 4)
        #expect(diffs[3] == nil, "dropped from the history")
    }

    @Test func aForgottenActionsNumberRecordedAgainStartsWithoutADiff() {
        var diffs = RecordedDiffs(window: 100)
        for number in 0..<50 {
            diffs.recorded(number)
            diffs[number] = Self.change(number)
        }
        diffs.forget(from: 20, newestNow: 19)
        #expect(diffs[19] == Self.change(19) && diffs[20] == nil && diffs[49] == nil)
        diffs.recorded(20)
        #expect(diffs[20] == nil)
        diffs[30] = Self.change(30)
        #expect(diffs[30] == nil, "action 30 is not in the history: nothing is kept for it")
        diffs.forget(from: 21, newestNow: 40)  // another timeline, sharing 0...20, brought back
        diffs[30] = Self.change(30)
        #expect(diffs[30] == Self.change(30))
    }

    /// Random runs of every operation, against a table that keeps everything: they agree,
    /// except that a diff set inside the window may be gone once its action has left the
    /// window (never replaced by another one).
    @Test(arguments: [1, 7, 64, 100, 333])
    func randomRunsAgreeWithAPlainTable(window: Int) {
        var random = SeededRandom(seed: UInt64(window))
        var diffs = RecordedDiffs(window: window)
        var table: [Int: [StateChange]] = [:]
        var mayBeGone: Set<Int> = []
        var newest = -1
        var lowest = 0
        for step in 0..<20_000 {
            switch random.next() % 10 {
            case 0..<5:
                newest += 1
                diffs.recorded(newest)
                table[newest] = nil
                mayBeGone.remove(newest)
                mayBeGone.insert(newest - window)
            case 5..<8 where newest >= lowest:
                let number = lowest + Int(random.next() % UInt64(newest - lowest + 1))
                diffs[number] = Self.change(step)
                table[number] = Self.change(step)
                mayBeGone.remove(number)
            case 8 where newest >= lowest:
                let from = lowest + Int(random.next() % UInt64(newest - lowest + 2))
                table = table.filter { $0.key < from }
                newest = from - 1
                if random.next() % 2 == 0 {
                    let extended = newest + Int(random.next() % 50)
                    if extended > newest { mayBeGone.formUnion((newest - window)...(extended - window)) }
                    newest = max(newest, extended)
                }
                diffs.forget(from: from, newestNow: newest)
            case 9 where newest > lowest && random.next() % 20 == 0:
                lowest += Int(random.next() % UInt64(newest - lowest))
                diffs.forget(before: lowest)
                table = table.filter { $0.key >= lowest }
            default:
                break
            }
            guard step % 97 == 0, newest >= lowest else { continue }
            for number in lowest...newest {
                let kept = diffs[number]
                if !mayBeGone.contains(number) {
                    #expect(kept == table[number], "window \(window), step \(step): action \(number)")
                } else {
                    #expect(
                        kept == nil || kept == table[number],
                        "window \(window), step \(step): action \(number) has another's diff")
                }
            }
        }
    }
}

/// SplitMix64: the same numbers on every run.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
