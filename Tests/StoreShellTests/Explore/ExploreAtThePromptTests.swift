import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// `:explore` at the prompt takes its options quoted as the command line needs them, and a
/// session whose state already breaks an invariant is told so once (issue 51: the quoted
/// invariant was refused with the caret on the closing quote; a broken start listed every
/// action as never accepted).
@MainActor
@Suite(":explore's arguments at the prompt")
struct ExploreAtThePromptTests {
    func searched(_ output: [String]) -> Bool {
        output.contains { $0.hasPrefix("no failure in ") }
    }

    @Test(arguments: [
        #":explore --invariant "count > -100" --actions increment,decrement --runs 2 --steps 3 --seed 1"#,
        #":explore --invariant 'count > -100' --actions increment,decrement --runs 2 --steps 3 --seed 1"#,
        ":explore --invariant count > -100 --actions increment,decrement --runs 2 --steps 3 --seed 1",
        #":explore --invariant "count > -100" --after "increment" "count == old(count) + 1" --actions "increment,decrement" --runs 2 --steps 3 --seed 1"#,
    ])
    func aQuotedInvariantIsTakenAsTheCommandLineTakesIt(line: String) async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        let output = await shell.run(line)
        #expect(searched(output), "\(output)")
    }

    /// The issue's own line: a keyed, dotted path in a quoted invariant, on Cart.
    @Test func aKeyedPathInAQuotedInvariantIsTakenToo() async throws {
        let shell = try ShellHarness(plugins: ["Cart"])
        _ = await shell.run(#"add sku: "apple", quantity: 2"#)
        let output = await shell.run(#":explore --invariant "lines.apple.quantity >= 0" --runs 3 --steps 4 --seed 1"#)
        #expect(searched(output), "\(output)")
        let broken = await shell.run(#":explore --invariant "lines.apple.quantity > 2" --runs 3 --steps 4 --seed 1"#)
        #expect(broken.contains { $0.contains("already") }, "the current state breaks it: said once, \(broken)")
    }

    @Test func anOptionInsideQuotesIsPartOfTheExpression() async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        // The " --runs" inside the quotes is not an option: the expression has a
        // mistake there, and the caret points into the quotes, at it.
        let line = #":explore --invariant "count > --runs 2" --seed 1"#
        let output = await shell.run(line)
        let first = try #require(output.first)
        #expect(first.contains("error:"), "\(output)")
        let column = try #require(Int(first.split(separator: ":")[2]))
        let quote = try #require(line.firstIndex(of: "\""))
        #expect(column > line.distance(from: line.startIndex, to: quote) + 1, "\(first)")
        #expect(column < line.count - 8, "\(first)")
    }

    @Test func aMistakeInAQuotedInvariantIsShownWhereItIs() async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        let line = #":explore --invariant "count >= " --seed 1"#
        let output = await shell.run(line)
        let first = try #require(output.first)
        // Column of the closing quote, 1-based, counted in the command's line.
        let closing = line.distance(from: line.startIndex, to: line.lastIndex(of: "\"")!) + 1
        let column = try #require(Int(first.split(separator: ":")[2]))
        #expect(column == closing, "\(first): the end of the expression, inside the quotes")
        #expect(!first.contains("unexpected '\"'"), "\(first)")
    }

    @Test func aCurrentStateThatBreaksTheInvariantIsSaidOnce() async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        _ = await shell.run("setCount -5")
        let output = await shell.run(#":explore --invariant "count >= 0" --runs 5 --steps 5 --seed 1"#)
        #expect(
            output == [
                "t.storesh:1: error: explore: the current state already breaks the invariant count >= 0 (count is -5, expected >= 0), so every run would fail before its first step; :undo or :goto to a state where it holds"
            ])
        _ = await shell.run(":undo")
        #expect(
            searched(
                await shell.run(#":explore --invariant "count >= 0" --actions increment --runs 2 --steps 3 --seed 1"#)))
    }

    /// `--against` and `--compare` at the prompt as on the command line (issue 47: only
    /// `storesh explore` took them): the registry sent step for step to its fixed build.
    @Test func aReferenceModelIsTakenAtThePrompt() async throws {
        let shell = try ShellHarness(plugins: ["Classics"])
        let folder = try Fixtures.directory().path
        shell.core.baseDirectory = folder
        try shell.core.use("classics.registry")
        let output = await shell.run(
            ":explore --against Classics:classics.registryFixed --seed 1 --runs 3000 --out registry.transcript")
        #expect(output.contains { $0.contains("failure: differs from classics.registryFixed: alive") }, "\(output)")
        let text = try String(contentsOfFile: folder + "/registry.transcript", encoding: .utf8)
        #expect(text.contains("> :compare classics.registryFixed\n"), "\(text)")
        let counted = await shell.run(
            #":explore --against "Classics:classics.registryFixed" --compare "count(alive)" --seed 1 --runs 3000 --out c.transcript"#
        )
        #expect(counted.contains { $0.contains(": count(alive) is ") }, "\(counted)")
    }

    @Test func aComparisonWithoutAReferenceOrAMissingReferenceIsRefused() async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        let unpaired = await shell.run(":explore --compare count --seed 1")
        #expect(unpaired.first?.contains("--compare compares with the reference model: it needs --against") == true)
        let missing = await shell.run(":explore --against NoSuchPlugin --runs 1 --seed 1")
        let first = try #require(missing.first)
        #expect(first.contains("explore: --against: no plugin named 'NoSuchPlugin'"), "\(missing)")
        // The caret is at the plugin's name: column 20 of ":explore --against NoSuchPlugin".
        #expect(first.hasPrefix("t.storesh:1:20: error:"), "\(first)")
        #expect(await shell.run(":state count") == ["0"], "the session is untouched")
    }

    /// `--exhaustive` at the prompt, from where the session is: the registry's shortest
    /// failure after the session's two spawns, and its bounds refused without it.
    @Test func anExhaustiveSearchRunsFromTheSessionsState() async throws {
        let shell = try ShellHarness(plugins: ["Classics"])
        let folder = try Fixtures.directory().path
        shell.core.baseDirectory = folder
        try shell.core.use("classics.registry")
        _ = await shell.run("spawn", "spawn")
        let before = await shell.run(":state")
        let output = await shell.run(":explore --exhaustive --depth 4 --seed 1 --out registry.transcript")
        #expect(
            output.contains {
                $0.contains(
                    "explore classics.registry: seed 1, every sequence up to depth 4, each run after the session's 2 actions"
                )
            }, "\(output)")
        #expect(output.contains { $0.contains("the shortest run, 4 steps") }, "\(output)")
        let unpaired = await shell.run(":explore --depth 3")
        #expect(
            unpaired.first?.contains("--depth and --state-limit bound an exhaustive search: they need --exhaustive")
                == true, "\(unpaired)")
        #expect(await shell.run(":state") == before, "the session is untouched")
        #expect(before.contains { $0.contains("2") }, "\(before)")
    }
}
