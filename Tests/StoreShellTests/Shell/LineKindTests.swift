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

    /// 20,000 seeded random lines, whole and cut at random character boundaries, decided
    /// as a plain reading of the rule decides them: the first byte that is not a space or
    /// a tab, and its index.
    @Test func randomLinesAreDecidedAsTheRuleSays() {
        var seed: UInt64 = 0x5EED_11E5
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces = [" ", "\t", "#", ":", "a", "é", "😀", "\n", "\r", "\u{0}", "  ", "x:y", "\u{301}"]
        func expected(_ utf8: Substring.UTF8View) -> (LineKind, String.Index) {
            guard let first = utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
                return (.blank, utf8.endIndex)
            }
            switch utf8[first] {
            case UInt8(ascii: "#"): return (.comment, first)
            case UInt8(ascii: ":"): return (.command, first)
            default: return (.action, first)
            }
        }
        for _ in 0..<20_000 {
            let line = (0..<next(8)).map { _ in pieces[next(pieces.count)] }.joined()
            let whole = LineKind.classify(line)
            let reference = expected(line[...].utf8)
            #expect(whole.kind == reference.0 && whole.textStart == reference.1, "\(line.debugDescription)")
            #expect(LineKind.of(line) == reference.0)
            let characters = Array(line.indices) + [line.endIndex]
            let lower = characters[next(characters.count)]
            let cut = line[lower...]
            let part = LineKind.classify(cut)
            let partReference = expected(cut.utf8)
            #expect(part.kind == partReference.0 && part.textStart == partReference.1, "\(cut.debugDescription)")
            #expect(LineKind.of(cut) == partReference.0)
        }
    }
}
