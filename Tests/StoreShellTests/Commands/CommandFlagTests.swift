import Testing

@testable import StoreShell

/// A command's flags (`:bisect … --not`, `:timeit ACTION -n 10 -r 3`) are words of their own,
/// found by the one lexer: text in quotes or brackets that looks like a flag is part of a
/// value, as the condition or action it is in reads it.
@Suite struct CommandFlagTests {
    @Test func aFlagInsideQuotesOrBracketsIsPartOfAValue() {
        #expect(CommandArguments.flagRange("--not", in: #"todos[0].title == "milk --not bread""#) == nil)
        #expect(CommandArguments.flagRange("--not", in: #"todos[0].title == "milk --not""#) == nil)
        #expect(CommandArguments.flagRange("--not", in: #"todos["a --not b"].done == true"#) == nil)
        #expect(CommandArguments.flagRange("-n", in: #"add title: "x -n y", priority: 1"#) == nil)
        #expect(CommandArguments.flagRange("-n", in: #"setTags [a, -n, b]"#) == nil)
    }

    @Test func aFlagOfItsOwnIsFoundWhereItStands() throws {
        let text = #"title == "milk --not" --not"#
        let range = try #require(CommandArguments.flagRange("--not", in: text))
        #expect(text[range] == "--not")
        #expect(text.distance(from: text.startIndex, to: range.lowerBound) == 22)
        let timed = #"add title: "a -n b", priority: 1 -n 10"#
        let count = try #require(CommandArguments.flagRange("-n", in: timed))
        #expect(timed[count.upperBound...] == " 10")
        #expect(CommandArguments.flagRange("--not", in: "count < 5 --note") == nil, "a longer word is not the flag")
    }
}
