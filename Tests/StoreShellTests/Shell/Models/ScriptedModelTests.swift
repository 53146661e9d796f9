import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// A counter scripted in Swift: `increment`, `add N`, and `fail`, which the model refuses.
@MainActor
private func scriptedCounter(timeTravel: Bool = true) -> ScriptedModel {
    ScriptedModel(
        plugin: "mem", name: "counter",
        actions: [("increment", []), ("add", [ParamDescriptor(label: nil, type: .int, doc: nil)]), ("fail", [])],
        timeTravel: timeTravel, initial: .record(["count": .int(0)])
    ) { state, action, arguments throws(SessionError) in
        guard case .int(let count)? = state["count"] else { throw SessionError(message: "no count") }
        switch action {
        case "increment": state = .record(["count": .int(count + 1)])
        case "add":
            guard case .int(let amount)? = arguments.first else { throw SessionError(message: "add: no amount") }
            guard amount != 0 else { return false }
            state = .record(["count": .int(count + amount)])
        default: throw SessionError(message: "\(action): refused by the model")
        }
        return true
    }
}

/// A shell whose only model is scripted in memory: no plugin is loaded, no process started.
@MainActor
private func shell(with model: ScriptedModel) throws -> ShellHarness {
    let shell = try ShellHarness(plugins: [])
    try shell.core.host.addScripted(plugin: "mem", models: [model])
    try shell.core.use("mem.counter")
    return shell
}

@MainActor
@Suite("The shell core on a model scripted in memory")
struct ScriptedModelTests {
    @Test func anActionIsSentOnceAndItsStateReadOnce() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        #expect(
            await shell.run("increment", "add 0") == [
                "increment: state changed", "  ~ count: 0 → 1", "add 0: no change",
            ])
        let connection = try #require(model.latest)
        #expect(
            connection.calls == [
                .create, .send("increment", []), .read(whole: false), .send("add", [.int(0)]), .read(whole: false),
            ])
        #expect(await shell.run(":state count") == ["1"])
    }

    @Test func aRefusalLeavesStateHistoryAndModelAsTheyWere() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        _ = await shell.run("increment")
        let output = await shell.run("fail")
        #expect(output == ["t.storesh:1: error: fail: refused by the model"])
        #expect(await shell.run(":state count") == ["1"])
        #expect(
            await shell.run(":log") == ["1  script  increment", "at 1 of 1"], "the refused action is not in the history"
        )
        #expect(try #require(model.latest).state == .record(["count": .int(1)]))
    }

    @Test func anEffectPlayedByHandIsShownWithItsDiff() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        let connection = try #require(model.latest)
        connection.emitEffect(.started, effect: 7, label: "ticker")
        connection.emitEffect(.emitted, effect: 7, action: "increment")
        try connection.applyFromEffect("increment")
        connection.emitEffect(.finished, effect: 7)
        let shown = shell.outputs.flatMap(shell.formatter.lines(for:))
        #expect(shown.contains { $0.contains("ticker") && $0.contains("started") }, "\(shown)")
        #expect(shown.contains("  ~ count: 0 → 1"), "\(shown)")
        #expect(await shell.run(":state count") == ["1"])
        #expect(shell.core.effectsInFlight == 0)
    }

    @Test func undoReplaysTheHistoryIntoAFreshStoreWithoutItsEffects() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        _ = await shell.run("add 5", "increment", ":undo")
        #expect(await shell.run(":state count") == ["5"])
        #expect(model.connections.count == 2, "undo goes through a fresh store")
        #expect(
            model.latest?.calls == [.create, .replayBatch(["add"]), .read(whole: false)],
            "time travel replays, it does not send")
        _ = await shell.run(":goto 0")
        #expect(await shell.run(":state count") == ["0"])
    }

    @Test func aJournalIsResumedInBatchesThatEndWhereTheHistoryKeepsASnapshot() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        let journal = try Fixtures.directory().appendingPathComponent("j").path
        do {
            let writer = try Journal(path: journal, mode: .create)
            try writer.append(.load(plugin: "mem"))
            try writer.append(.use(model: "mem.counter"))
            for _ in 0..<200 { try writer.append(.action(model: "mem.counter", source: .typed, text: "increment")) }
        }
        let resumed = try await shell.core.resumeJournal(from: journal)
        #expect(resumed?.records == 202)
        #expect(await shell.run(":state count") == ["200"])
        let calls = try #require(model.latest).calls
        let batches = calls.compactMap { if case .replayBatch(let names) = $0 { names.count } else { nil } }
        #expect(batches == [64, 64, 64, 8], "one request per 64 actions, not one per action: \(batches)")
        #expect(
            calls.filter { $0 == .read(whole: false) }.count == 4,
            "a read where each snapshot is kept (64, 128, 192), and one for :state: \(calls.suffix(6))")
        #expect(await shell.run(":goto 100", ":state count").last == "100", "the snapshots are right")
    }

    /// A snapshot taken when the state could not be read was the last state read, behind
    /// the model: a recovery from it lost every action since (seen as a count 64 short
    /// after a worker died between an action and the read of its state).
    @Test func aStateThatCannotBeReadIsNoSnapshot() async throws {
        let model = scriptedCounter()
        let shell = try shell(with: model)
        _ = await shell.run(":diff off")  // unobserved sends: the state is read when asked
        for _ in 0..<63 { _ = await shell.run("increment") }
        let connection = try #require(model.latest)
        connection.failingReads = SessionError(message: "its worker is gone")
        _ = await shell.run("increment")
        let history = try #require(shell.core.recorder.histories["mem.counter"])
        #expect(history.position == 64)
        #expect(
            history.snapshots[64] == nil,
            "no snapshot of a state that could not be read: \(String(describing: history.snapshots[64]))")
        connection.failingReads = nil
        _ = await shell.run(":goto 64")
        #expect(await shell.run(":state count") == ["64"])
    }
}
