import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("The shell core: actions, commands, errors")
struct ShellCoreTests {
    @Test func actionsReportResultAndDiff() async throws {
        let shell = try ShellHarness()
        #expect(await shell.run("increment") == ["increment: state changed", "  ~ count: 0 → 1"])
        #expect(await shell.run("setCount 1") == ["setCount 1: no change"])
        #expect(await shell.run(":diff off", "setCount(3)") == ["setCount(3): state changed"])
        #expect(await shell.run(":diff") == ["diff is off"])
    }

    @Test func mistakesShowTheLineAndACaretAndChangeNothing() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("setCount 4")
        #expect(
            await shell.run(#"setCount "four""#) == [
                #"t.storesh:1:10: error: setCount: this argument should be int, not string "four""#,
                #"  setCount "four""#,
                "           ^",
            ])
        #expect(
            await shell.run("decremnt") == [
                "t.storesh:1:1: error: unknown action 'decremnt'; did you mean 'decrement'?",
                "  decremnt",
                "  ^",
            ])
        #expect(await shell.run(":state count") == ["4"])
    }

    @Test func commandsListAndSwitchModels() async throws {
        let shell = try ShellHarness(plugins: ["Counter", "Todos"])
        #expect(
            await shell.run(":models") == [
                "* counter.counter  A counter: the smallest model there is.",
                #"  todos.todos  A todo list; edit one todo with todos["t1"].toggle."#,
            ])
        _ = await shell.run("increment", ":use todos", #"add title: "milk", priority: 2"#)
        #expect(await shell.run(":state todos[0].title") == [#""milk""#])
        #expect(await shell.run(":use counter", ":state") == ["count: 1"], "each model keeps its own state")
        #expect(
            await shell.run(":actions") == [
                "increment()    Adds one.", "decrement()    Subtracts one.", "setCount(int)  Sets the count.",
                "reset()        Sets the count to zero.",
            ])
        #expect(await shell.run(":reset", ":state") == ["count: 0"])
        #expect(
            await shell.run(":staet") == [
                "t.storesh:1:2: error: unknown command ':staet'; did you mean ':state'?", "  :staet", "   ^",
            ])
        #expect(
            await shell.run(":help use") == [
                ":use MODEL", "  switch to another model (its state is kept)",
                "  MODEL is a model name, plugin.model when two plugins share a name, or a plugin name.",
            ])
    }

    @Test func loadErrorsAreReportedAndTheSessionSurvives() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("increment")
        let lines = await shell.run(":load NoSuchPlugin")
        #expect(lines.first?.hasPrefix("t.storesh:1: error: no plugin named 'NoSuchPlugin' in the search path") == true)
        #expect(await shell.run(":state count") == ["1"])
        #expect(await shell.run(":load Todos") == ["loaded todos 1.0.0: todos.todos"])
        #expect(shell.core.current?.model.name == "todos")
    }

    /// The typed entry points take what their words' reader takes and no more: a span the
    /// clock's nanoseconds cannot hold is refused, not a trap.
    @Test func aDurationGivenAsAValueIsHeldToTheWordsBounds() async throws {
        let shell = try ShellHarness()
        #expect(!(await shell.core.advance(milliseconds: .max, origin: .prompt)))
        #expect(!(await shell.core.advance(milliseconds: -1, origin: .prompt)))
        #expect(!(await shell.core.wait(timeoutMilliseconds: .max, origin: .prompt)))
        let before = shell.clock.now
        #expect(await shell.core.advance(milliseconds: 5, origin: .prompt))
        #expect(shell.clock.now == before + 5_000_000)
    }

    @Test func effectsOnTheVirtualClock() async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        shell.core.showDiff = false
        #expect(
            await shell.run(#"authenticate user: "bo", password: "open sesame""#) == [
                #"authenticate user: "bo", password: "open sesame": state changed, 1 effect started"#,
                "fx #1 authenticate started",
            ])
        #expect(await shell.run(":fx") == ["fx #1 authenticate running for 0ms"])
        #expect(await shell.run(":advance 499ms") == [])
        #expect(
            await shell.run(":advance 1ms") == [
                #"fx #1 authenticate emitted succeed user: "bo" (+500ms)"#, "fx #1 authenticate finished (+500ms)",
            ])
        _ = await shell.run(#"authenticate user: "x", password: "y""#, ":wait")
        #expect(await shell.run(":state phase") == [#""failed""#])
    }

    @Test func jsonLines() async throws {
        let shell = try ShellHarness()
        shell.formatter = OutputFormatter(format: .json)
        #expect(
            await shell.run("increment") == [
                #"{"kind":"action","action":"increment","name":"increment","changed":true,"effects":0,"diff":[{"op":"changed","path":"count","old":0,"new":1}]}"#
            ])
        #expect(await shell.run(":state") == [#"{"kind":"state","value":{"count":1}}"#])
        #expect(
            await shell.run("nope") == [
                #"{"kind":"error","message":"unknown action 'nope'","file":"t.storesh","line":1,"column":1}"#
            ])
    }

    @Test func completion() async throws {
        let shell = try ShellHarness(plugins: ["Auth"])
        #expect(shell.core.completions(line: ":st", cursor: 3) == (0, [":state", ":stub", ":stubs"]))
        #expect(shell.core.completions(line: ":sta", cursor: 4) == (0, [":state"]))
        #expect(shell.core.completions(line: "si", cursor: 2) == (0, ["signOut"]))
        #expect(shell.core.completions(line: "authenticate ", cursor: 13) == (13, ["password: ", "user: "]))
        #expect(shell.core.completions(line: #"authenticate user: "a", "#, cursor: 24) == (24, ["password: "]))
        #expect(shell.core.completions(line: ":state ph", cursor: 9) == (7, ["phase"]))
        #expect(shell.core.completions(line: ":use a", cursor: 6).candidates.contains("auth"))
    }

    @Test func statementsSpanLinesUntilBracketsAndQuotesClose() {
        #expect(LineAssembler.isComplete("increment"))
        #expect(!LineAssembler.isComplete("setTags [\"a\","))
        #expect(LineAssembler.isComplete("setTags [\"a\",\n \"b\"]"))
        #expect(!LineAssembler.isComplete("say \"open"))
        #expect(LineAssembler.isComplete("say \"[\""))
    }
}
