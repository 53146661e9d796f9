import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// What a newcomer met at the prompt and in JSON in the first hour (issue 32): each of
/// these printed something wrong, or nothing a program could read.
@MainActor
@Suite("the prompt and JSON, as a newcomer meets them")
struct FirstHourShellTests {
    /// `:wait 5` was "not a duration" while `--timeout 5` takes seconds.
    @Test func bareSecondsAreADurationEverywhere() async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        #expect(await shell.run(":advance 2") == [])
        #expect(shell.clock.now == 2_000_000_000, "2 is two seconds")
        #expect(await shell.run(":wait 5") == [])
        #expect(await shell.run(":wait 0.5") == [])
        #expect(
            await shell.run(":wait five") == [
                "t.storesh:1: error: 'five' is not a duration; write seconds (5) or 500ms, 2s, 1m (at most 365 days)"
            ])
        #expect(
            await shell.run(":wait -1") == [
                "t.storesh:1: error: '-1' is not a duration; write seconds (5) or 500ms, 2s, 1m (at most 365 days)"
            ])
        #expect(await shell.run(":advance 31536001").first?.contains("at most 365 days") == true, "past 365 days")
    }

    /// `:export` over an existing file replaced it without a word ("exported 1 actions").
    @Test func anExportDoesNotReplaceAFileUnlessToldTo() async throws {
        let file = try Fixtures.directory().appendingPathComponent("kept.log").path
        try "precious\n".write(toFile: file, atomically: true, encoding: .utf8)
        let shell = try ShellHarness()
        _ = await shell.run("increment")
        #expect(
            await shell.run(":export \(file)") == [
                "t.storesh:1: error: \(file) already exists; ':export \(file) --force' replaces it"
            ])
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious\n")
        #expect(await shell.run(":export \(file) --force") == ["exported 1 action of counter.counter to \(file)"])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("# model: counter.counter"))
    }

    /// `:import` of another model's log answered with two lists of actions and "--force".
    @Test func importingAnotherModelsLogSaysWhichModelAndHowToGetThere() async throws {
        let file = try Fixtures.directory().appendingPathComponent("todos.log").path
        let shell = try ShellHarness(plugins: ["Counter", "Todos"])
        _ = await shell.run(":use todos", #"add title: "milk", priority: 1"#, ":export " + file, ":use counter")
        let refused = await shell.run(":import \(file)")
        #expect(
            refused == [
                "t.storesh:1: error: \(file) is a log of todos.todos, and the current model is counter.counter: ':use todos.todos', then ':import \(file)' (--force replays what fits into counter.counter anyway)"
            ])
        #expect(
            await shell.run(":use todos.todos", ":reset", ":import \(file)") == ["imported 1 action into todos.todos"])
    }

    /// A keyed action's warning named the schema's `todos[].toggle`, not what was typed.
    @Test func aKeyedWarningShowsTheActionAsTyped() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        shell.core.showDiff = false
        let lines = await shell.run(#"todos["t9"].toggle"#)
        #expect(
            lines.contains(
                #"warning: todos: todos["t9"].toggle: no Todo has the key "t9", so the action for it did nothing"#),
            "\(lines)")
    }

    /// "the 1 undone action after #3 were set aside".
    @Test func oneUndoneActionIsSingular() async throws {
        let shell = try ShellHarness()
        shell.core.showDiff = false
        _ = await shell.run("increment", "increment", ":undo")
        #expect(
            await shell.run("decrement") == [
                "decrement: state changed",
                "note: the undone action after #1 was set aside as branch 1; :branch 1 brings it back",
            ])
    }

    /// `:plugins` listed a plugin loaded through a link (`.build/debug`) twice: loaded,
    /// and "not loaded" under its search-path name.
    @Test func aPluginLoadedThroughALinkIsListedOnce() async throws {
        let link = try Fixtures.directory().appendingPathComponent("debug").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: buildDirectory)
        let shell = try ShellHarness()
        _ = await shell.run(":load \(link)/libStoreshExampleTodos.so")
        let listed = await shell.run(":plugins")
        #expect(listed.filter { $0.contains("libStoreshExampleTodos.so") }.count == 1, "\(listed)")
        #expect(
            listed.contains { $0.hasPrefix("todos 1.0.0  \(link)/libStoreshExampleTodos.so  (loaded: todos)") },
            "\(listed)")
    }

    /// `--format json` gave `:actions` and `:plugins` only as text lines.
    @Test func actionsAndPluginsHaveStructuredJSON() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        shell.formatter = OutputFormatter(format: .json)
        let actions = try record(await shell.run(":actions"))
        #expect(actions["kind"] as? String == "actions")
        #expect(actions["model"] as? String == "todos.todos")
        let list = try #require(actions["actions"] as? [[String: Any]])
        let add = try #require(list.first { $0["name"] as? String == "add" })
        #expect(add["signature"] as? String == "add(title: string, priority: int)")
        let params = try #require(add["params"] as? [[String: Any]])
        #expect(params.map { $0["label"] as? String } == ["title", "priority"])
        #expect(params.map { $0["kind"] as? String } == ["string", "int"])
        #expect((add["doc"] as? String)?.isEmpty == false)
        #expect(list.contains { $0["name"] as? String == "todos[].toggle" })
        // The inspector's Send box shows the loaded model's first example (issue 51: it
        // said "(increment, setCount 5)" for every model).
        #expect(add["example"] as? String == #"add title: "title", priority: 0"#)
        #expect(
            list.first { $0["name"] as? String == "todos[].toggle" }?["example"] as? String == #"todos["key"].toggle"#)

        let plugins = try record(await shell.run(":plugins"))
        #expect(plugins["kind"] as? String == "plugins")
        let entries = try #require(plugins["plugins"] as? [[String: Any]])
        let todos = try #require(entries.first { $0["loaded"] as? Bool == true })
        #expect(todos["name"] as? String == "todos")
        #expect(todos["version"] as? String == "1.0.0")
        #expect(todos["models"] as? [String] == ["todos.todos"])
        #expect((todos["path"] as? String)?.hasSuffix("/libStoreshExampleTodos.so") == true)
        #expect(entries.contains { $0["name"] as? String == "Counter" && $0["loaded"] as? Bool == false })
    }

    private func record(_ lines: [String]) throws -> [String: Any] {
        #expect(lines.count == 1, "one JSON line: \(lines)")
        let object = try JSONSerialization.jsonObject(with: Data(try #require(lines.first).utf8))
        return try #require(object as? [String: Any])
    }
}

/// Tab after `book[` completed to `book[].`, which is not input anyone can send; and after
/// a keyed action no labels were offered, as they are after a plain one.
@MainActor
@Suite("completing keyed actions")
struct KeyedCompletionTests {
    /// A library whose books are keyed by id, with a keyed action that takes a label; the
    /// state's list is `books`, the action's name `book[]`, as models often have them.
    private func library() throws -> ShellHarness {
        let key = ParamDescriptor(label: nil, type: .string, doc: nil)
        let model = ScriptedModel(
            plugin: "mem", name: "library",
            actions: [
                ("book[].checkout", [key, ParamDescriptor(label: "member", type: .string, doc: nil)]), ("open", []),
            ],
            timeTravel: true,
            initial: .record(["books": .array([.record(["id": .string("b1")]), .record(["id": .string("b2")])])])
        ) { _, _, _ throws(SessionError) in false }
        let shell = try ShellHarness(plugins: [])
        try shell.core.host.addScripted(plugin: "mem", models: [model])
        try shell.core.use("mem.library")
        return shell
    }

    private func complete(_ shell: ShellHarness, _ line: String) -> [String] {
        shell.core.completions(line: line, cursor: line.utf8.count).candidates
    }

    @Test func afterABracketTheKeysInTheStateAreOffered() throws {
        let shell = try library()
        #expect(complete(shell, "book[") == [#"book["b1"]"#, #"book["b2"]"#])
        #expect(complete(shell, #"book["b"#) == [#"book["b1"]"#, #"book["b2"]"#])
        #expect(complete(shell, #"book["b1"]."#) == [#"book["b1"].checkout"#])
        #expect(complete(shell, "o") == ["open"], "plain actions as before")
    }

    @Test func afterAKeyedActionItsLabelsAreOffered() throws {
        let shell = try library()
        #expect(complete(shell, #"book["b1"].checkout "#) == ["member: "])
        #expect(complete(shell, #"book["b1"].checkout member: "ann", "#) == [], "a label once")
    }

    @Test func aTodosKeyIsOfferedFromItsList() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        _ = await shell.run(#"add title: "milk", priority: 1"#, #"add title: "eggs", priority: 2"#)
        #expect(complete(shell, "todos[") == [#"todos["t1"]"#, #"todos["t2"]"#])
    }
}
