import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// A counter whose effect applies `poke(`: an action its update takes, written as a text
/// its own parser cannot read back (a plugin whose action text and parser disagree).
@MainActor
private func pokedCounter() -> ScriptedModel {
    ScriptedModel(
        plugin: "mem", name: "counter", actions: [("increment", [])], initial: .record(["count": .int(0)])
    ) { state, action, _ throws(SessionError) in
        guard case .int(let count)? = state["count"] else { throw SessionError(message: "no count") }
        switch action {
        case "increment": state = .record(["count": .int(count + 1)])
        case "poke(": state = .record(["count": .int(count + 100)])
        default: throw SessionError(message: "\(action): refused by the model")
        }
        return true
    }
}

@MainActor
@Suite("An effect's action the model cannot read back")
struct UnreplayableEffectActionTests {
    func shell(_ model: ScriptedModel) throws -> ShellHarness {
        let shell = try ShellHarness(plugins: [])
        try shell.core.host.addScripted(plugin: "mem", models: [model])
        try shell.core.use("mem.counter")
        return shell
    }

    /// It was recorded (and journaled) as an action no replay could send, so the next
    /// rebuild through it — a recovery after a crash, a redo, a resumed journal — stopped
    /// there and left the state wherever the replay had got to.
    @Test func itIsReportedKeptOutOfTheHistoryAndARebuildSaysWhatItLacks() async throws {
        let model = pokedCounter()
        let shell = try shell(model)
        _ = await shell.run("increment")
        shell.outputs.removeAll()
        try #require(model.latest).applyFromEffect("poke(")
        let said = shell.outputs.flatMap(shell.formatter.lines(for:)).joined(separator: "\n")
        #expect(
            said.contains("an effect applied 'poke(' to mem.counter, which its own actions cannot read back"), "\(said)"
        )
        #expect(said.contains("kept in neither the history nor the journal"), "\(said)")
        #expect(await shell.run(":state count") == ["101"], "the model's state is what it is")
        let log = await shell.run(":log")
        #expect(!log.contains { $0.contains("poke(") && !$0.contains("!") }, "not an action of the history: \(log)")
        #expect(log.contains { $0.contains("an effect applied 'poke('") }, ":log shows where it happened: \(log)")
        _ = await shell.run(":undo")
        #expect(await shell.run(":state count") == ["0"])
        let redo = await shell.run(":redo").joined(separator: "\n")
        #expect(
            redo.contains("the state rebuilt at action 1 lacks what an effect did after action 1"),
            "a rebuild says what it cannot give back: \(redo)")
        #expect(!redo.contains("cannot be replayed"), "\(redo)")
        #expect(await shell.run(":state count") == ["1"])
    }

    /// With a journal, it is not written either: a resume would stop at it, or replay it
    /// into another state.
    @Test func itIsNotJournaled() async throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        let model = pokedCounter()
        let shell = try shell(model)
        try shell.core.startJournal(at: path)
        _ = await shell.run("increment")
        try #require(model.latest).applyFromEffect("poke(")
        _ = await shell.run("increment")
        let journal = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!journal.contains("poke("), "\(journal)")
        #expect(journal.components(separatedBy: "increment").count - 1 >= 2, "the actions around it are: \(journal)")
    }

    /// `:replay-check` said "not deterministic" of a deterministic model: the replay lacks
    /// what the effect did. It says why it cannot check instead.
    @Test func replayCheckBlamesTheEffectNotTheModel() async throws {
        let model = pokedCounter()
        let shell = try shell(model)
        _ = await shell.run("increment")
        let live = try #require(model.latest)  // before the check makes a store of its own
        #expect(await shell.run(":replay-check") == [], "passes before the effect")
        try live.applyFromEffect("poke(")
        _ = await shell.run("increment")
        let said = await shell.run(":replay-check").joined(separator: "\n")
        #expect(!said.contains("not deterministic"), "\(said)")
        #expect(
            said.contains(
                "cannot check the timeline: after action 1 an effect applied 'poke(', which mem.counter cannot read back"
            ),
            "\(said)")
    }
}
