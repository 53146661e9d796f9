import StoreShell
import Testing

@Suite("Command words: one lexer that remembers columns, one way to quote a word")
struct CommandWordsTests {
    @Test func unquotedWordsDropTheirQuotesAndRememberWhereTheyStart() {
        let words = CommandWords.unquoted(#"save  "my file.txt" --force"#)
        #expect(words.map(\.text) == ["save", "my file.txt", "--force"])
        #expect(words.map(\.offset) == [0, 6, 20])
    }

    @Test func wordsAsTypedKeepTheirQuotesAndRunOnInsideBrackets() {
        let words = CommandWords.asTyped(#"todos["a b"] --depth 2 [1, 2]"#)
        #expect(words.map(\.text) == [#"todos["a b"]"#, "--depth", "2", "[1, 2]"])
        #expect(words.map(\.offset) == [0, 13, 21, 23])
    }

    @Test func anEmptyQuotedWordIsAWordAsTypedOrNot() {
        #expect(CommandWords.unquoted(#"a "" b"#).map(\.text) == ["a", "", "b"])
        #expect(CommandWords.asTyped(#"a "" b"#).map(\.text) == ["a", #""""#, "b"])
    }

    @Test func aQuotedWordReadsBackAsItself() {
        let words = ["plain", "", "two words", "a\"quote", #"back\slash"#, "end\\", "line\nbreak", "tab\there"]
        for word in words {
            let quoted = CommandWords.quoted(word)
            #expect(CommandWords.unquoted(quoted).map(\.text) == [word], "\(quoted)")
            #expect(!quoted.contains("\n"), "a quoted word stays on its line: \(quoted)")
        }
        #expect(CommandWords.quoted("plain") == "plain")
    }

    @Test func aTranscriptLoadsAPathWithALineBreakOnOneLine() {
        // The transcript writer quoted only spaces, quotes and backslashes: a plugin path with a
        // line break made `:load` two lines, the second read as an action.
        let writer = TranscriptWriter(file: "/tmp/words/t.transcript")
        let line = writer.loadCommand(plugin: "/tmp/words/odd\nname.so")
        #expect(!line.contains("\n"))
        #expect(CommandWords.unquoted(line).map(\.text) == [":load", "./odd\nname.so"])
    }
}
