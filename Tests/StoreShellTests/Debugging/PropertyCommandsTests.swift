import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// `:expect`, `:check`, `:check-after` and `:watch` read the property language; `:expect`
/// fails where a path names nothing, `:check` skips, as explore does.
@MainActor
@Suite("Debugging: the property language at the prompt")
struct PropertyCommandsTests {
    @Test func expectFailsOnAMissingPathWhereCheckSkips() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        _ = await shell.run("add \"milk\", 1")
        #expect(
            await shell.run(":expect todos[5].done == true") == [
                "t.storesh:1: error: expectation failed: index 5 is out of range: todos has 1 items"
            ])
        #expect(await shell.run(":check todos[5].done == true").isEmpty)
        #expect(await shell.run(":expect count(todos) == 1 && all(todos[*].done == false)").isEmpty)
        #expect(
            await shell.run(":check count(todos) == 0") == [
                "t.storesh:1: error: check failed: count(todos) == 0 is false: count(todos) is 1, expected 0"
            ])
        #expect(
            await shell.run(":check count(todos) >").first
                == "t.storesh:1:22: error: expected a value after '>'")
    }

    @Test func checkAfterReadsTheLastActionLine() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        #expect(
            await shell.run(":check-after add count(todos) == 1").first
                == "t.storesh:1: error: no action line of todos.todos was run yet: :check-after checks the last one")
        _ = await shell.run("add \"milk\", 1")
        #expect(await shell.run(":check-after add accepted && count(todos) == old(count(todos)) + 1").isEmpty)
        #expect(
            await shell.run(":check-after add count(todos) == old(count(todos))") == [
                "t.storesh:1: error: check failed: count(todos) == old(count(todos)) is false: count(todos) is 1 and old(count(todos)) is 0"
            ])
        #expect(
            await shell.run(":check-after toggle count(todos) == 1").first
                == "t.storesh:1: error: the last action line was add, not toggle")
        _ = await shell.run("todos[\"t1\"].toggle")
        #expect(await shell.run(":check-after todos[].toggle accepted && todos[0].done != old(todos[0].done)").isEmpty)
    }

    /// A script's action lines run as a group; only the group's last keeps the state
    /// before it, which is all `:check-after` can read (kept for every line, it made
    /// applying each action copy the lists it touched).
    @Test func checkAfterReadsTheLastLineOfAScriptsGroup() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        func group(_ lines: String...) {
            let origin = LineOrigin(file: "t.storesh", line: 1)
            _ = shell.core.executeActions(lines.map { ($0, origin) }, stopAtFailure: false)
        }
        group("add \"milk\", 1", "add \"eggs\", 2", "add \"tea\", 3")
        #expect(await shell.run(":check-after add count(todos) == old(count(todos)) + 1").isEmpty)
        group("add \"jam\", 1", "add(")
        #expect(
            await shell.run(":check-after add count(todos) == old(count(todos)) + 1").first
                == "t.storesh:1: error: old(…) cannot be read here: the state before the last action was not kept (a script's action lines, but the last of a group in process); run it at the prompt or in a transcript"
        )
    }

    /// In a worker a script's action lines go in batches; the last one answered is the
    /// last attempted, as a line sent alone is (before, `:check-after` said no action line
    /// had run, or checked an older one).
    @Test func checkAfterReadsTheLastBatchedLineInAWorker() async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: .workers)
        let origin = LineOrigin(file: "t.storesh", line: 1)
        for quiet in [false, true] {
            shell.core.reportActions = !quiet
            let lines = ["add \"milk\", 1", "add \"eggs\", 2"].map { ($0, origin) }
            #expect(shell.core.executeActions(lines, stopAtFailure: false).failures == 0)
            #expect(await shell.run(":check-after add accepted && args[0] == \"eggs\"").isEmpty)
            #expect(
                await shell.run(":check-after add old(count(todos)) + 1 == count(todos)").first?.contains(
                    "old(…) cannot be read here") == true)
        }
    }

    @Test func aWatchTakesAnExpression() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        #expect(await shell.run(":watch count(todos)") == ["watching count(todos) (now 0)"])
        let added = await shell.run("add \"milk\", 1")
        #expect(
            added.last == "watch count(todos): 0 → 1  after #1 add title: \"milk\", priority: 1 (script)", "\(added)")
        #expect(await shell.run(":watch all(todos[*].done)") == ["watching all(todos[*].done) (now false)"])
        let toggled = await shell.run("todos[\"t1\"].toggle")
        #expect(toggled.contains { $0.hasPrefix("watch all(todos[*].done): false → true") }, "\(toggled)")
        #expect(await shell.run(":unwatch all(todos[*].done)").isEmpty)
        #expect(
            await shell.run(":watch count(todos) +").first
                == "t.storesh:1:22: error: expected a value, a path or '(' at the end")
    }
}
