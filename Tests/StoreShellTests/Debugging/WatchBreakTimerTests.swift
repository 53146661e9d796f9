import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

@MainActor
@Suite("Debugging: :watch, :break, :timer, :timeit")
struct WatchBreakTimerTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aWatchFiresForTypedActionsJumpsAndAnEffectsAction(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run("add \"milk\", 1")
        #expect(await shell.run(":watch todos[\"t1\"].done") == ["watching todos[\"t1\"].done (now false)"])
        let typed = await shell.run("todos[\"t1\"].toggle")
        #expect(
            typed.last == "watch todos[\"t1\"].done: false → true  after #2 todos[\"t1\"].toggle (script)", "\(typed)")
        #expect(
            await shell.run("todos[\"t1\"].rename \"oat\"").allSatisfy { !$0.hasPrefix("watch") },
            "no line when the path did not change")
        let jump = await shell.run(":goto 1")
        #expect(jump.last == "watch todos[\"t1\"].done: true → false  after the jump to 1", "\(jump)")
        _ = await shell.run("toggleLater id: \"t1\", milliseconds: 100")
        let fired = await shell.run(":advance 1s")
        #expect(
            fired.contains("watch todos[\"t1\"].done: false → true  after #3 todos[\"t1\"].toggle (effect)"), "\(fired)"
        )
        #expect(await shell.run(":watch") == ["todos.todos: todos[\"t1\"].done = true"])
        #expect(await shell.run(":unwatch").isEmpty)
        #expect(await shell.run("todos[\"t1\"].toggle").allSatisfy { !$0.hasPrefix("watch") })
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aBreakpointStopsAScriptAndAnAdvanceAtTheActionThatMakesItTrue(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run("add \"a\", 1", "add \"b\", 1")
        #expect(await shell.run(":break todos[1].done == true") == ["breakpoint 1: todos[1].done == true"])
        _ = await shell.run("toggleLater id: \"t2\", milliseconds: 100", "toggleLater id: \"t1\", milliseconds: 500")
        let advanced = await shell.run(":advance 2s")
        #expect(
            advanced.last
                == "t.storesh:1: error: break: todos[1].done == true became true after #5 todos[\"t2\"].toggle (effect); stopped here (:unbreak removes the breakpoint)",
            "\(advanced)")
        #expect(shell.core.takeBreakpointStop(), "a script stops after the line")
        #expect(await shell.run(":state todos[0].done") == ["false"], "the clock stopped before the later effect")
        #expect(await shell.run(":break") == ["1: todos.todos: todos[1].done == true  (holds now)"])
        #expect(await shell.run(":unbreak 1").isEmpty)
        _ = await shell.run(":advance 1s")
        #expect(await shell.run(":state todos[0].done") == ["true"])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aBreakpointStopsAReplayAtTheActionThatMakesItTrue(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(isolation: isolation)
        _ = await shell.run(":goto 0")
        for _ in 0..<10 { _ = await shell.run("increment") }
        _ = await shell.run(":goto 0", ":break count >= 4")
        let replay = await shell.run(":goto 10")
        #expect(
            replay == [
                "at 4 of 10",
                "t.storesh:1: error: break: count >= 4 became true after #4 increment; the replay to 10 stopped there",
            ], "\(replay)")
        #expect(await shell.run(":state count") == ["4"])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func theTimerShowsWhereAnActionsTimeWent(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(isolation: isolation)
        _ = await shell.run(":timer on")
        let timed = await shell.run("increment")
        #expect(timed.count == 3, "\(timed)")
        let expected =
            isolation == .workers
            ? #"time: [0-9.]+ [nµm]?s \(worker round trip [^,]+, apply and diff [^,]+, shell [^,]+\)"#
            : #"time: [0-9.]+ [nµm]?s \(update [^,]+, state read [^,]+, apply and diff [^,]+, shell [^,]+\)"#
        #expect(Transcript.matches(timed[2], expected + " (re)"), "\(timed[2])")
        let last = try #require(shell.outputs.last)
        let json = try #require(OutputFormatter(format: .json).lines(for: last).first)
        #expect(json.contains(#""kind":"timer""#) && json.contains(#""total_ns":"#))
        _ = await shell.run(":timer off")
        #expect(await shell.run("increment").count == 2)
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func timeitTimesAnActionAndLeavesTheSessionAsItWas(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(isolation: isolation)
        _ = await shell.run("increment", "increment")
        let timed = await shell.run(":timeit increment -n 20 -r 3")
        #expect(timed.count == 1)
        #expect(
            Transcript.matches(
                timed[0],
                #"increment: best [0-9.]+ [nµm]s, median [0-9.]+ [nµm]s, worst [0-9.]+ [nµm]s per action \(3 runs of 20; .*\) (re)"#
            ), "\(timed)")
        let last = try #require(shell.outputs.last)
        let json = try #require(OutputFormatter(format: .json).lines(for: last).first)
        let record = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(record["kind"] as? String == "timeit" && record["runs"] as? Int == 3 && record["number"] as? Int == 20)
        let best = try #require(record["best_ns"] as? Double)
        let median = try #require(record["median_ns"] as? Double)
        let worst = try #require(record["worst_ns"] as? Double)
        #expect(best > 0 && best <= median && median <= worst)
        #expect(
            await shell.run(":log") == ["1  script  increment", "2  script  increment", "at 2 of 2"],
            "the history is unchanged")
        #expect(await shell.run(":state count") == ["2"])
        #expect(await shell.run(":timeit nope").first?.contains("error: unknown action 'nope'") == true)
    }

    @Test func everyDebuggingCommandHasHelpAndCompletion() async throws {
        let shell = try ShellHarness()
        for name in ["bisect", "why", "find", "watch", "unwatch", "break", "unbreak", "timer", "timeit", "save-test"] {
            let help = await shell.run(":help \(name)")
            #expect(help.first?.hasPrefix(":\(name)") == true, "\(name): \(help)")
            #expect(shell.core.completions(line: ":\(name.prefix(3))", cursor: 4).candidates.contains(":\(name)"))
        }
        #expect(shell.core.completions(line: ":timer o", cursor: 8).candidates == ["off", "on"])
        #expect(shell.core.completions(line: ":watch c", cursor: 8).candidates == ["count"])
        #expect(shell.core.completions(line: ":timeit inc", cursor: 11).candidates == ["increment"])
    }
}
