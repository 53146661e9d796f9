import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("Long sessions: the history keeps at most --history-limit actions")
struct HistoryLimitTests {
    private func counter(limit: Int, isolation: PluginHost.Isolation = .inProcess) async throws -> ShellHarness {
        let shell = try ShellHarness(historyLimit: limit, isolation: isolation)
        shell.core.showDiff = false
        shell.core.reportActions = false
        for _ in 0..<300 { await shell.core.execute("increment") }
        return shell
    }

    @Test func oldActionsAreDroppedInChunksAndNumbersStay() async throws {
        let shell = try await counter(limit: 100)
        let history = try #require(shell.core.recorder.histories["counter.counter"])
        // Dropped to the latest snapshot (every 64) that leaves at least 100.
        #expect(history.dropped == 192 && history.entries.count == 108)
        #expect(
            await shell.run(":log 2") == [
                "… 192 earlier actions were dropped (--history-limit 100)",
                "… 106 earlier actions (:log 193-212 shows the first 20)",
                "299  typed   increment", "300  typed   increment", "at 300 of 300",
            ])
        #expect(
            await shell.run(":log 193-193").prefix(2) == [
                "… 192 earlier actions were dropped (--history-limit 100)", "193  typed   increment",
            ])
        #expect(await shell.run(":goto 250", ":state count") == ["at 250 of 300", "250"])
        #expect(
            await shell.run(":goto 192", ":state count") == ["at 192 of 300", "192"], "the start kept is a place to go")
        #expect(
            await shell.run(":goto 191") == [
                "t.storesh:1: error: action 191 was dropped to keep the history within --history-limit 100; the history has 192 to 300"
            ])
        #expect(
            await shell.run(":undo") == [
                "t.storesh:1: error: nothing to undo: the actions before #193 were dropped (--history-limit)"
            ])
        // The lowest number there is: an error, not an overflow (it trapped, less the 192
        // dropped), wherever a number of the history is read.
        #expect(
            await shell.run(":goto -9223372036854775808") == [
                "t.storesh:1: error: there is no action -9223372036854775808; the history has 192 to 300"
            ])
        #expect(await shell.run(":skip -9223372036854775808").first?.contains("with N from 193 to 300") == true)
        #expect(try shell.core.pastState(of: "counter.counter", after: Int.min).position == 192, "the oldest kept")
        #expect(await shell.run(":goto 300", ":skip 200", ":state count") == ["at 300 of 300", "at 300 of 300", "299"])
        #expect(await shell.run(":skip 5").first?.contains("with N from 193 to 300") == true)
        #expect(
            await shell.run(":export /tmp/never.storesh-log").first?.contains("the first 192 actions were dropped")
                == true)
    }

    @Test func aWorkerCrashRebuildsFromTheOldestSnapshotKept() async throws {
        let shell = try ShellHarness(plugins: ["Faulty"], historyLimit: 100, isolation: .workers)
        shell.core.showDiff = false
        shell.core.reportActions = false
        for _ in 0..<300 { await shell.core.execute("add 1") }
        #expect(shell.core.recorder.histories.values.first?.dropped == 192)
        let output = await shell.run("overflow", ":state count", ":log 1")
        #expect(output.contains { $0.contains("crashed while handling 'overflow'") }, "\(output)")
        #expect(output.contains("300"), "rebuilt from the oldest snapshot kept and the actions after it: \(output)")
        #expect(output.contains("300  typed   add 1"), "\(output)")
    }

    @Test func aModelThatCannotRestoreKeepsItsWholeHistory() async throws {
        let shell = try ShellHarness(plugins: ["ArborealCounter"], historyLimit: 10)
        shell.core.reportActions = false
        shell.core.showDiff = false
        var notes: [String] = []
        for _ in 0..<100 { notes += await shell.run("increment") }
        #expect(
            notes.count == 1 && notes[0].contains("cannot restore a snapshot, so its history is kept whole"), "\(notes)"
        )
        #expect(shell.core.recorder.histories.values.first?.dropped == 0)
        #expect(shell.core.recorder.histories.values.first?.entries.count == 100)
    }

    @Test func snapshotsAreThinnedToABound() {
        let history = History(initial: .int(0), interval: 1)
        for index in 1...5_000 { history.remember(.int(Int64(index)), at: index) }
        for index in [1, 999, 2_000, 5_000] {
            let found = history.snapshot(atOrBefore: index)
            #expect(found.index <= index && found.state == Value.int(Int64(found.index)))
        }
        #expect(history.snapshot(atOrBefore: 5_000).index == 5_000, "the newest stay")
        let spacing =
            (1...4_900).map { history.snapshot(atOrBefore: $0).index }.enumerated().map { $0.offset + 1 - $0.element }
            .max() ?? 0
        #expect(spacing < 8, "evenly thinned: a jump replays at most 7 here (spacing 8), found \(spacing)")
        #expect(history.snapshots.count <= History.maximumSnapshots)
    }
}
