import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

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

    /// The inspector's slider shows states rebuilt by replaying, which have nothing of
    /// such an action: it showed them without a word (count 2 after action 2, where the
    /// session had 102). A past state says what it lacks; one before the effect, and the
    /// session's own, lack nothing.
    @Test func aPastStateRebuiltWithoutItSaysWhatItLacks() async throws {
        let model = pokedCounter()
        let shell = try shell(model)
        _ = await shell.run("increment")
        try #require(model.latest).applyFromEffect("poke(")
        _ = await shell.run("increment", "increment")
        let second = try shell.core.pastState(of: "mem.counter", after: 2)
        #expect(second.state == .record(["count": .int(2)]))
        #expect(second.lacking.map(\.position) == [1])
        #expect(second.lacking.first?.note.contains("an effect applied 'poke('") == true, "\(second.lacking)")
        #expect(try shell.core.pastState(of: "mem.counter", after: 1).lacking.isEmpty, "before the effect")
        let live = try shell.core.pastState(of: "mem.counter", after: 3)
        #expect(live.state == .record(["count": .int(103)]) && live.lacking.isEmpty, "the session's own")
        _ = await shell.run(":undo")
        let undone = try shell.core.pastState(of: "mem.counter", after: 3)
        #expect(undone.state == .record(["count": .int(3)]) && undone.lacking.map(\.position) == [1])
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

    /// increment, then the effect's `poke(` (count 101), then increment (102): at 2, with
    /// the note after action 1.
    func pokedBetweenTwoIncrements() async throws -> (ShellHarness, ScriptedModel) {
        let model = pokedCounter()
        let shell = try shell(model)
        _ = await shell.run("increment")
        try #require(model.latest).applyFromEffect("poke(")
        _ = await shell.run("increment")
        return (shell, model)
    }

    /// `:bisect` and `:why` compared replayed states that lack what the effect did (the
    /// count went from 1 to 102 "at action 2") and said nothing of it.
    @Test func bisectAndWhySayTheyWorkWithoutIt() async throws {
        let (shell, _) = try await pokedBetweenTwoIncrements()
        let bisect = await shell.run(":bisect count >= 100").joined(separator: "\n")
        #expect(bisect.contains("count >= 100 first holds after #2"), "\(bisect)")
        #expect(
            bisect.contains(
                "mem.counter: after action 1 an effect applied 'poke(', which mem.counter cannot read back (")
                && bisect.contains(":bisect compared states replayed without it"), "\(bisect)")
        let why = await shell.run(":why count").joined(separator: "\n")
        #expect(
            why.contains("mem.counter: after action 1 an effect applied 'poke('")
                && why.contains(":why cannot list what it changed"), "\(why)")
        // Before the effect, nothing of the kind is said.
        _ = await shell.run(":goto 1")
        let earlier = await shell.run(":bisect count >= 1").joined(separator: "\n")
        #expect(earlier.contains("count >= 1 first holds after #1") && !earlier.contains("poke("), "\(earlier)")
    }

    /// `:export` and `:save-test` wrote a log and a transcript that replay to another state.
    @Test func exportAndSaveTestRefuseNamingTheStep() async throws {
        let directory = try Fixtures.directory().path
        let (shell, _) = try await pokedBetweenTwoIncrements()
        let export = await shell.run(":export \(directory)/log").joined(separator: "\n")
        #expect(
            export.contains(
                "cannot export mem.counter: after action 1 an effect applied 'poke(', which mem.counter cannot read back"
            ),
            "\(export)")
        #expect(export.contains("\(directory)/log was not written"), "\(export)")
        let save = await shell.run(":save-test \(directory)/t.transcript").joined(separator: "\n")
        #expect(
            save.contains(
                "cannot save mem.counter's actions as a test: after action 1 an effect applied 'poke(', which mem.counter cannot read back"
            ), "\(save)")
        #expect(save.contains("':save-test \(directory)/t.transcript 1-1' saves the actions before it"), "\(save)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/log"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/t.transcript"))
        // Without such an effect, the same actions export.
        let plain = try self.shell(pokedCounter())
        let exported = await plain.run("increment", "increment", ":export \(directory)/plain").joined(separator: "\n")
        #expect(exported.contains("exported 2 actions of mem.counter"), "\(exported)")
    }

    /// A timeline set aside and brought back with `:branch` lost its notes: `:log` and
    /// `:replay-check` no longer named the effect.
    @Test func aBranchBroughtBackKeepsItsNotes() async throws {
        let (shell, _) = try await pokedBetweenTwoIncrements()
        _ = await shell.run("increment")  // at 3, the note after action 1
        _ = await shell.run(":goto 0")  // the new timeline leaves this one before the effect
        let branched = await shell.run("increment").joined(separator: "\n")
        #expect(branched.contains("branch 1"), "\(branched)")
        let back = await shell.run(":branch 1").joined(separator: "\n")
        #expect(back.contains("at 3 of 3"), "\(back)")
        let log = await shell.run(":log")
        #expect(log.contains { $0.contains("!       an effect applied 'poke('") }, "\(log)")
        let check = await shell.run(":replay-check").joined(separator: "\n")
        #expect(check.contains("cannot check the timeline: after action 1 an effect applied 'poke('"), "\(check)")
    }
}
