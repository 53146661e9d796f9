import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("Big values are readable")
struct BigValueTests {
    @Test func longListsAndStringsAreCutWithACountAndAllShowsEverything() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        shell.core.showDiff = false
        for index in 0..<150 { await shell.core.execute("add title: \"t\(index)\", priority: 1") }
        let shown = await shell.run(":state todos --depth 1")
        #expect(shown.count == 101)
        #expect(shown.last == "… 50 more (:state PATH --all shows everything)")
        #expect(await shell.run(":state todos --depth 1 --all").count == 150)
        shell.core.showDiff = true
        let long = String(repeating: "é", count: 600)
        let diff = await shell.run(#"todos["t1"].rename "\#(long)""#)
        #expect(
            diff.last == #"  ~ todos["t1"].title: "t0" → ""# + String(repeating: "é", count: 500)
                + #""… (100 more characters)"#)
        #expect(await shell.run(#":state todos["t1"].title --all"#) == [Value.quoted(long)])
    }

    @Test func briefCountsWhatItLeavesOut() {
        let list = Value.array((0..<25).map { .int(Int64($0)) })
        #expect(list.brief(items: 3) == "[0, 1, 2, … 22 more]")
        #expect(Value.array((0..<1_234).map { _ in .null }).brief().hasSuffix(", … 1,134 more]"))
        #expect(list.compact.hasSuffix("24]"), "compact stays whole for files and programs")
    }
}
