import StoreShell
import Testing

@Suite("A line's first byte that is not a space or a tab says what it is")
struct LineKindTests {
    @Test func kinds() {
        #expect(LineKind.of("") == .blank)
        #expect(LineKind.of(" \t ") == .blank)
        #expect(LineKind.of("# a note") == .comment)
        #expect(LineKind.of("  #increment") == .comment)
        #expect(LineKind.of(":state") == .command)
        #expect(LineKind.of("\t:log") == .command)
        #expect(LineKind.of("increment") == .action)
        #expect(LineKind.of(" setCount 5") == .action)
        // Only spaces and tabs are skipped: a line break is the first byte of an action.
        #expect(LineKind.of("\n:state") == .action)
        #expect(LineKind.of("café"[...]) == .action)
    }

    @Test func aCommandsTextStartsAtItsColon() {
        let line = "  :state count"
        let (kind, start) = LineKind.classify(line)
        #expect(kind == .command)
        #expect(line[start...] == ":state count")
        #expect(LineKind.classify("   ").textStart == "   ".endIndex)
    }

    /// A line cut from a script (a `Substring`) gives an index into the script itself.
    @Test func aLineCutFromAScriptGivesAnIndexIntoTheScript() {
        let script = "increment\n \t:log 3\n"
        let lines = script.split(separator: "\n")
        let (kind, start) = LineKind.classify(lines[1])
        #expect(kind == .command)
        #expect(script[start...] == ":log 3\n")
        #expect(LineKind.classify(script[script.endIndex...]) == (.blank, script.endIndex))
    }
}
