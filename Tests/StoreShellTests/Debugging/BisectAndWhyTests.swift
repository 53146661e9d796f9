import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// A Counter session with `count` actions: increments, with `setCount 5000` at #5000 (so
/// `count >= 5000` first holds there), run as a script runs them.
@MainActor
private func longCounterSession(_ isolation: PluginHost.Isolation, actions count: Int = 10_000, showDiff: Bool = true)
    throws -> ShellHarness
{
    let shell = try ShellHarness(isolation: isolation)
    shell.core.showDiff = showDiff
    let lines = (1...count).map {
        ($0 == 5000 ? "setCount 5000" : "increment", LineOrigin(file: "long.storesh", line: $0))
    }
    let result = shell.core.executeActions(lines.map { (text: $0.0, origin: $0.1) }, stopAtFailure: true)
    #expect(result.failures == 0)
    return shell
}

/// The JSON record of the last report of `kind`.
@MainActor
private func record(_ kind: String, in shell: ShellHarness) throws -> [String: Any] {
    let json = OutputFormatter(format: .json)
    let line = try #require(
        shell.outputs.reversed().flatMap(json.lines(for:)).first { $0.contains("\"kind\":\"\(kind)\"") })
    return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}

@MainActor
@Suite("Debugging: :bisect and :why", .serialized)
struct BisectAndWhyTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func bisectFindsTheActionInATenThousandActionHistory(isolation: PluginHost.Isolation) async throws {
        let shell = try longCounterSession(isolation)
        let lines = await shell.run(":bisect count >= 5000")
        #expect(lines.first == "count >= 5000 first holds after #5000 setCount 5000 (script)", "\(lines)")
        #expect(lines.contains("  ~ count: 4999 → 5000"), "the diff it made: \(lines)")
        let found = try record("bisect", in: shell)
        #expect(found["action"] as? Int == 5000)
        let replays = try #require(found["replays"] as? Int)
        #expect(replays <= 15, "at most ⌈log2 10000⌉ + 1 replays, not \(replays)")
        #expect(
            await shell.run(":log 1") == [
                "… 9999 earlier actions (:log 1-20 shows the first 20)", "10000  script  increment",
                "at 10000 of 10000",
            ], "the session is where it was")
        #expect(await shell.run(":state count") == ["10000"])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func bisectNotFindsWhereAConditionStopsHolding(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(isolation: isolation)
        _ = await shell.run("increment", "increment", "setCount 10", "decrement", "increment")
        #expect(
            await shell.run(":bisect count < 5 --not").prefix(2) == [
                "count < 5 first stops holding after #3 setCount 10 (script)", "  ~ count: 2 → 10",
            ])
        #expect(
            await shell.run(":bisect count >= 100") == [
                "t.storesh:1: error: count >= 100 does not hold in the current state (count is 10, expected >= 100); :bisect looks for the action after which it holds, so it must hold where you are (at 5)"
            ])
        #expect(await shell.run(":bisect count >= 0") == ["count >= 0 holds from the start, before any action"])
        let missing = await shell.run(":bisect count >= ")
        #expect(
            missing == [
                "t.storesh:1:18: error: expected a value after '>='", "  :bisect count >= ", "                   ^",
            ], "\(missing)")
    }

    @Test func bisectErrorFindsTheActionFromWhichAnActionIsRefused() async throws {
        for roundTrips in [false, true] {
            // `check` is refused once the count is over 3.
            let model = ScriptedModel(
                plugin: "mem", name: "counter", actions: [("increment", []), ("check", [])],
                callsAreRoundTrips: roundTrips, initial: .record(["count": .int(0)])
            ) { state, action, _ throws(SessionError) in
                guard case .int(let count)? = state["count"] else { throw SessionError(message: "no count") }
                if action == "check" {
                    if count > 3 { throw SessionError(message: "check: the count is over 3") }
                    return false
                }
                state = .record(["count": .int(count + 1)])
                return true
            }
            let shell = try ShellHarness(plugins: [])
            try shell.core.host.addScripted(plugin: "mem", models: [model])
            try shell.core.use("mem.counter")
            #expect(
                await shell.run(":bisect --error") == [
                    "t.storesh:1: error: no action of mem.counter was refused in this session; :bisect --error looks for the action that led to the last one that did"
                ])
            _ = await shell.run("increment", "increment", "increment", "increment", "increment", "increment", "check")
            let found = await shell.run(":bisect --error")
            #expect(found.first == "'check' is refused from the state after #4 increment (script)", "\(found)")
            #expect(found.contains("  ~ count: 3 → 4"))
            #expect(await shell.run(":bisect --crash").first?.contains("no action of mem.counter crashed") == true)
        }
    }

    @Test func bisectCrashReplaysTheCrashInAWorkerOfItsOwn() async throws {
        let shell = try ShellHarness(plugins: ["Faulty"], isolation: .workers)
        _ = await shell.run("increment", "increment", "add 9223372036854775000", "increment", "increment")
        let crash = await shell.run("add 1000")
        #expect(crash.contains { $0.contains("crashed while handling 'add 1000'") }, "\(crash)")
        let found = await shell.run(":bisect --crash")
        #expect(
            found.first == "'add 1000' crashes from the state after #3 add 9223372036854775000 (script)", "\(found)")
        #expect(await shell.run(":state count") == ["9223372036854775004"], "the session's own worker was left alone")
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func whyListsTheActionsThatChangedAPathNewestFirst(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run(
            "add \"milk\", 1", "add \"eggs\", 2", "todos[\"t1\"].rename \"oat milk\"", "todos[\"t2\"].toggle",
            "todos[\"t1\"].toggle")
        let why = await shell.run(":why todos[0]")
        #expect(why.first == "#5 todos[\"t1\"].toggle (script)")
        #expect(
            why.filter { $0.hasPrefix("#") } == [
                "#5 todos[\"t1\"].toggle (script)", "#3 todos[\"t1\"].rename \"oat milk\" (script)",
                "#1 add title: \"milk\", priority: 1 (script)",
            ], "index 0 is t1, named by its id as the diff names it")
        #expect(
            await shell.run(":why todos[\"t2\"].title").first == "#2 add title: \"eggs\", priority: 2 (script)",
            "a change above the path (the element added) counts")
        #expect(await shell.run(":why nothing.here") == ["no action changed nothing.here (in 5 actions)"])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func whyOnATenThousandActionHistoryWithAndWithoutRecordedDiffs(isolation: PluginHost.Isolation) async throws {
        for showDiff in [true, false] {
            let shell = try longCounterSession(isolation, showDiff: showDiff)
            let why = await shell.run(":why count")
            #expect(why.first == "#10000 increment (script)", "\(why.prefix(3))")
            #expect(why.last == "… 9980 older actions (:why count all shows them)")
            let all = try record("why", in: shell)
            #expect(all["count"] as? Int == 10_000)
            _ = await shell.run(":why count all")
            let listed = try record("why", in: shell)
            let actions = try #require(listed["actions"] as? [[String: Any]])
            #expect(actions.count == 10_000)
            let setCount = try #require(actions.first { $0["action"] as? Int == 5000 })
            #expect(setCount["text"] as? String == "setCount 5000")
            let diff = try #require((setCount["diff"] as? [[String: Any]])?.first)
            #expect(
                diff["old"] as? Int == 4999 && diff["new"] as? Int == 5000,
                "worked out by replay when no diff was kept: \(diff)")
        }
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func findGivesPathsThatPasteIntoState(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Todos"], isolation: isolation)
        _ = await shell.run("add \"Buy milk\", 1", "add \"eggs\", 2")
        let found = await shell.run(":find MILK")
        #expect(found == ["todos[\"t1\"].title: \"Buy milk\""], "\(found)")
        for line in found {
            let path = String(line[..<line.range(of: ": ")!.lowerBound])
            #expect(await shell.run(":state \(path)") == ["\"Buy milk\""])
        }
        #expect(await shell.run(":find priority").count == 2, "keys match too")
        #expect(await shell.run(":find zebra") == ["nothing in the state has 'zebra' in a key or a value"])
    }
}
