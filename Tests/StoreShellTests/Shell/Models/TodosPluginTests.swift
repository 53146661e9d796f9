import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("The Todos plugin: keyed child actions")
struct TodosPluginTests {
    func todos() throws -> Session {
        let host = makeHost()
        try host.load("Todos")
        return try Session(model: host.model(named: "todos"), host: host)
    }

    func titles(_ session: Session) -> [String] {
        guard case .array(let items)? = session.state["todos"] else { return [] }
        return items.compactMap { if case .string(let title)? = $0["title"] { title } else { nil } }
    }

    @Test func addToggleAndRemoveCompleted() throws {
        let session = try todos()
        _ = try session.send(text: #"add title: "milk", priority: 1"#)
        _ = try session.send(text: #"add title: "eggs", priority: 3"#)
        _ = try session.send(text: #"add title: "bread", priority: 2"#)
        let toggled = try session.send(text: #"todos["t2"].toggle"#)
        #expect(toggled.changes.map(\.description) == [#"~ todos["t2"].done: false → true"#])
        _ = try session.send(text: "removeCompleted")
        #expect(titles(session) == ["milk", "bread"])
    }

    @Test func orderingAndMoving() throws {
        let session = try todos()
        for (title, priority) in [("a", 1), ("b", 3), ("c", 2)] {
            _ = try session.send(text: "add title: \"\(title)\", priority: \(priority)")
        }
        _ = try session.send(text: "orderByPriority")
        #expect(titles(session) == ["b", "c", "a"])
        _ = try session.send(text: "orderByDate")
        #expect(titles(session) == ["a", "b", "c"])
        _ = try session.send(text: "move from: 0, to: 2")
        #expect(titles(session) == ["b", "c", "a"])
        _ = try session.send(text: #"todos["t3"].rename "C""#)
        _ = try session.send(text: #"delete id: "t1""#)
        #expect(titles(session) == ["b", "C"])
    }

    @Test func aMissingKeyChangesNothing() throws {
        let session = try todos()
        _ = try session.send(text: #"add title: "milk", priority: 1"#)
        let result = try session.send(text: #"todos["nope"].toggle"#)
        #expect(!result.stateChanged)
        #expect(result.changes.isEmpty)
    }

    /// A keyed action for a key that is not there was a silent "no change": a transcript
    /// with a typo'd key recorded it and passed. The plugin now says so after the action,
    /// in this process and in a worker alike; a key that is there says nothing.
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aMissingKeyIsAWarningAfterTheAction(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run("seed 1")
        #expect(
            await shell.run(#"todos["t9"].toggle"#) == [
                #"todos["t9"].toggle: no change"#,
                #"warning: todos: todos["t9"].toggle: no Todo has the key "t9", so the action for it did nothing"#,
            ])
        #expect(
            await shell.run(#"todos["t1"].toggle"#) == [
                #"todos["t1"].toggle: state changed"#, #"  ~ todos["t1"].done: false → true"#,
            ])
        // Time travel replays the updates alone: it does not repeat the warning.
        let travelled = await shell.run(":goto 0", ":goto 3")
        #expect(travelled.contains("at 3 of 3") && !travelled.contains { $0.hasPrefix("warning:") }, "\(travelled)")
    }

    /// The same for an action an effect sends: a todo deleted while the effect that will
    /// toggle it waits. The warning follows the effect's action, named by it.
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aMissingKeyInAnEffectsActionIsAWarningAfterIt(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run(
            "seed 2", #"toggleLater id: "t1", milliseconds: 100"#, #"toggleLater id: "t2", milliseconds: 200"#,
            #"delete id: "t1""#)
        let output = await shell.run(":advance 1s")
        let warning =
            #"warning: todos: todos["t1"].toggle (sent by an effect): no Todo has the key "t1", so the action for it did nothing"#
        #expect(output.filter { $0.hasPrefix("warning:") } == [warning], "\(output)")
        let missed = try #require(
            output.firstIndex { $0.contains(#"todos["t1"].toggle"#) && !$0.hasPrefix("warning:") }, "\(output)")
        #expect(output.firstIndex(of: warning) == missed + 1, "the warning follows its action: \(output)")
        #expect(await shell.run(":state todos[0].done") == ["true"], "the effect for t2 toggled it")
    }

    @Test func keyedActionsNeedTheirKey() throws {
        let session = try todos()
        #expect(
            throws: SendError.text(TextError("unknown action 'todos.toggle'; did you mean 'todos[].toggle'?", at: 0))
        ) {
            try session.send(text: "todos.toggle")
        }
    }
}
