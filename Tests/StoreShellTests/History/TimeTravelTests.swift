import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("Time travel: log, goto, undo, skip, export and import")
struct TimeTravelTests {
    @Test func logGotoUndoRedo() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("increment", "setCount 5", "setCount 5", "increment")
        #expect(
            await shell.run(":log") == [
                "1  script  increment", "2  script  setCount 5", "3  script  setCount 5  (no change)",
                "4  script  increment", "at 4 of 4",
            ])
        #expect(await shell.run(":goto 2") == ["at 2 of 4", "  ~ count: 6 → 5"])
        #expect(await shell.run(":undo") == ["at 1 of 4", "  ~ count: 5 → 1"])
        #expect(
            await shell.run(":redo", ":redo", ":redo") == [
                "at 2 of 4", "  ~ count: 1 → 5", "at 3 of 4", "at 4 of 4", "  ~ count: 5 → 6",
            ])
        #expect(await shell.run(":goto 0", ":state count") == ["at 0 of 4", "  ~ count: 6 → 0", "0"])
        #expect(await shell.run(":goto 9") == ["t.storesh:1: error: there is no action 9; the history has 0 to 4"])
    }

    @Test func aNewActionAfterAJumpSetsTheUndoneOnesAsideAsABranch() async throws {
        let shell = try ShellHarness()
        shell.core.showDiff = false
        _ = await shell.run("increment", "increment", "setCount 7", ":goto 1")
        #expect(
            await shell.run("decrement") == [
                "decrement: state changed",
                "note: the 2 undone actions after #1 were set aside as branch 1; :branch 1 brings them back",
            ])
        #expect(await shell.run(":log") == ["1  script  increment", "2  script  decrement", "at 2 of 2"])
        #expect(await shell.run(":redo") == ["t.storesh:1: error: nothing to redo: at the last action (2 of 2)"])
        #expect(await shell.run(":branches") == ["branch 1: 2 actions after #1: increment, setCount 7"])
        #expect(await shell.run(":branch 1", ":state count") == ["at 3 of 3", "7"])
        #expect(
            await shell.run(":branches") == ["branch 1: 1 action after #1: decrement"],
            "the timeline it replaced is kept in its place")
        #expect(
            await shell.run(":branch 1", ":state count", ":log") == [
                "at 2 of 2", "0", "1  script  increment", "2  script  decrement", "at 2 of 2",
            ])
        #expect(
            await shell.run(":branch 2") == [
                "t.storesh:1: error: usage: :branch N, with N from 1 to 1 (:branches lists them)"
            ])
    }

    @Test func branchesSurviveAResume() async throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        do {
            let shell = try ShellHarness()
            try shell.core.startJournal(at: path)
            _ = await shell.run("setCount 5", "increment", ":undo", "decrement", ":branch 1")
        }
        let resumed = try ShellHarness(plugins: [])
        _ = try await resumed.core.resumeJournal(from: path)
        #expect(await resumed.run(":state count", ":branches") == ["6", "branch 1: 1 action after #1: decrement"])
    }

    @Test func skipRecomputesWithoutTheAction() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("setCount 10", "increment", "increment")
        #expect(await shell.run(":skip 1") == ["at 3 of 3", "  ~ count: 12 → 2"])
        #expect(
            await shell.run(":log 2") == [
                "… 1 earlier action (:log 1-1 shows them)", "2  script  increment", "3  script  increment", "at 3 of 3",
            ])
        #expect(await shell.run(":log 1-1") == ["1  script  setCount 10  (skipped)", "… 2 later actions", "at 3 of 3"])
        #expect(
            await shell.run(":log 2-9") == [
                "… 1 earlier action (:log 1-1 shows them)", "2  script  increment", "3  script  increment", "at 3 of 3",
            ])
        #expect(await shell.run(":log all").count == 4)
        for bad in [":log 0", ":log 3-2", ":log x-1", ":log 1-", ":log 1 2"] {
            #expect(await shell.run(bad).first?.contains("usage: :log [N | FROM-TO | all]") == true, "\(bad)")
        }
        #expect(await shell.run(":unskip 1") == ["at 3 of 3", "  ~ count: 2 → 12"])
    }

    @Test func replaysDoNotRunEffectsAgain() async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        shell.core.showDiff = false
        _ = await shell.run(#"authenticate user: "bo", password: "open sesame""#, ":wait")
        #expect(
            await shell.run(":log") == [
                #"1  script  authenticate user: "bo", password: "open sesame""#, #"2  effect  succeed user: "bo""#,
                "at 2 of 2",
            ])
        #expect(
            await shell.run(":goto 1", ":fx", ":state phase") == [
                "at 1 of 2", "no effects in flight", #""authenticating""#,
            ])
        shell.clock.advance(by: 5_000_000_000)
        await shell.core.settle()
        #expect(
            await shell.run(":goto 2", ":state phase") == ["at 2 of 2", #""signedIn""#],
            "the effect's own action is replayed instead")
    }

    @Test func manyActionsUseSnapshots() async throws {
        let shell = try ShellHarness()
        shell.core.reportActions = false
        for _ in 0..<1000 { await shell.core.execute("increment") }
        #expect(await shell.run(":goto 777", ":state count") == ["at 777 of 1000", "  ~ count: 1000 → 777", "777"])
        #expect(await shell.run(":goto 1000", ":state count") == ["at 1000 of 1000", "  ~ count: 777 → 1000", "1000"])
    }

    @Test func arborealModelsReplayFromANewStore() async throws {
        let shell = try ShellHarness(plugins: ["ArborealCounter"])
        shell.core.showDiff = false
        _ = await shell.run("increment", "increment", "setCount 10")
        #expect(await shell.run(":goto 2", ":state count") == ["at 2 of 3", "2"])
    }

    @Test func exportAndImportRoundTrip() async throws {
        let directory = try Fixtures.directory()
        let file = directory.appendingPathComponent("log.storesh-export").path
        let shell = try ShellHarness()
        _ = await shell.run("increment", "setCount 40", "increment", "increment", ":skip 3")
        #expect(await shell.run(":export \(file)") == ["exported 4 actions of counter.counter to \(file)"])
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported.contains("# model: counter.counter\n# abi: 1\n# schema: "))
        #expect(exported.hasSuffix("# action: reset()\nscript increment\nscript setCount 40\nscript increment\n"))
        let other = try ShellHarness()
        #expect(
            await other.run(":import \(file)", ":state count") == ["imported 3 actions into counter.counter", "41"])
        #expect(await other.run(":log").last == "at 3 of 3")
    }

    @Test func importRefusesALogFromAChangedSchemaAndExplains() async throws {
        let directory = try Fixtures.directory()
        let file = directory.appendingPathComponent("old.storesh-export").path
        try """
        # storesh export 1
        # plugin: counter 0.9.0
        # model: counter.counter
        # abi: 1
        # schema: 00000000
        # action: increment()
        # action: add(amount: int)
        typed increment
        typed add amount: 2

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let shell = try ShellHarness()
        let refused = await shell.run(":import \(file)")
        #expect(
            refused.first?.contains(
                "was recorded with a different schema: actions the log knows that the model no longer has: add(amount: int); actions the model has that the log does not know: decrement(), setCount(int), reset(). Use :import"
            ) == true, "\(refused)")
        #expect(
            await shell.run(":import \(file) --force", ":state count") == [
                "imported 1 action into counter.counter; 1 did not fit and was left out", "1",
            ])
    }

    /// An export whose schema matches the Counter's, holding `entries`.
    private func counterExport(_ entries: [String]) async throws -> String {
        let file = try Fixtures.directory().appendingPathComponent("log.storesh-export").path
        let shell = try ShellHarness()
        _ = await shell.run(":export \(file)")
        try (String(contentsOfFile: file, encoding: .utf8) + entries.map { $0 + "\n" }.joined()).write(
            toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aRefusedImportLeavesStateAndHistoryAsTheyWere() async throws {
        let file = try await counterExport(["typed increment", "typed setCount \"x\"", "typed increment"])
        let shell = try ShellHarness()
        _ = await shell.run("setCount 40", "increment")
        let refused = await shell.run(":import \(file)")
        #expect(
            refused.first?.contains(": entry 2 (setCount \"x\") does not fit counter.counter; nothing was imported")
                == true, "\(refused)")
        #expect(
            await shell.run(":state count", ":log") == [
                "41", "1  script  setCount 40", "2  script  increment", "at 2 of 2",
            ])
    }

    @Test func aForcedImportThatFitsNothingFails() async throws {
        let file = try await counterExport(["typed nope", "typed setCount \"x\""])
        let shell = try ShellHarness()
        _ = await shell.run("setCount 40")
        #expect(
            await shell.run(":import \(file) --force") == [
                "t.storesh:1: error: \(file): none of its 2 actions fit counter.counter; nothing was imported"
            ])
        #expect(shell.outputs.contains { if case .error = $0 { true } else { false } })
        #expect(await shell.run(":state count") == ["40"])
    }
}

@MainActor
@Suite("Time travel with effects")
struct TimeTravelWithEffectsTests {
    @Test func withEffectsSendsTypedActionsAgainAndTheirEffectsRun() async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        shell.core.showDiff = false
        _ = await shell.run(#"authenticate user: "bo", password: "open sesame""#, ":wait", "signOut")
        #expect(
            await shell.run(":goto 2 --with-effects") == [
                "fx #1 authenticate started", "sent 1 action again with their effects; at 1 of 1",
            ])
        #expect(
            await shell.run(":fx") == ["fx #1 authenticate running for 0ms"],
            "the authenticate sent again started its effect again")
        let waited = await shell.run(":wait")
        let seen = await shell.run(":state phase", ":log")
        #expect(
            seen == [
                #""signedIn""#, #"1  script  authenticate user: "bo", password: "open sesame""#,
                #"2  effect  succeed user: "bo""#, "at 2 of 2",
            ], "\(waited) then \(seen)")
    }
}

@MainActor
@Suite("Interrupting time travel")
struct InterruptTests {
    @Test func ctrlCStopsALongReplayWhereItGot() async throws {
        // Arboreal models have no restore: a jump replays from a new store.
        let shell = try ShellHarness(plugins: ["ArborealCounter"])
        shell.core.showDiff = false
        shell.core.reportActions = false
        for _ in 0..<3000 { await shell.core.execute("increment") }
        _ = await shell.run(":goto 0")
        shell.core.takeInterrupt = { true }
        let interrupted = await shell.run(":goto 3000")
        #expect(
            interrupted == [
                "at 64 of 3000", "t.storesh:1: error: interrupted: the replay stopped at action 64 of the 3000 wanted",
            ], "\(interrupted)")
        shell.core.takeInterrupt = { false }
        let after = await shell.run(":state count", ":log 1")
        #expect(
            after == [
                "64", "… 2999 earlier actions (:log 1-20 shows the first 20)", "3000  typed   increment  (undone)",
                "at 64 of 3000",
            ], "\(after)")
    }
}

@MainActor
@Suite("Time travel without restore")
struct NoRestoreTests {
    @Test func aJumpPastTheFirstSnapshotReplaysFromANewStore() async throws {
        // Arboreal models cannot restore a snapshot: the jump must not fail for that.
        let shell = try ShellHarness(plugins: ["ArborealCounter"])
        shell.core.showDiff = false
        for _ in 0..<100 { await shell.core.execute("increment") }
        #expect(await shell.run(":goto 90", ":state count") == ["at 90 of 100", "90"])
    }
}
