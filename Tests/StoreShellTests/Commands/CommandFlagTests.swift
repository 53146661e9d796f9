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

    /// 20,000 seeded random argument texts (quotes, escapes, brackets, tabs, flags inside
    /// and beside words, combining marks), each searched for `--not` and `-n`, against a
    /// plain reading of the rule: the first place, outside quotes and brackets, where the
    /// flag stands between the text's ends or spaces and tabs.
    @Test func randomTextsFindTheFlagAsTheRuleSays() {
        var seed: UInt64 = 0xF1A6_5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces = [
            " ", "\t", "\"", "\\", "[", "]", "{", "}", "--not", "-n", "a", "é", "x--not", "--note", "\u{301}", "😀",
        ]
        func expected(_ flag: String, in text: String) -> Int? {
            let characters = Array(text)
            let wanted = Array(flag)
            var (quoted, escaped, depth, offset) = (false, false, 0, 0)
            for (index, character) in characters.enumerated() {
                defer { offset += character.utf8.count }
                if quoted {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quoted = false
                    }
                    continue
                }
                let startsWord = index == 0 || characters[index - 1] == " " || characters[index - 1] == "\t"
                let end = index + wanted.count
                if depth <= 0, startsWord, end <= characters.count, Array(characters[index..<end]) == wanted,
                    end == characters.count || characters[end] == " " || characters[end] == "\t"
                {
                    return offset
                }
                if character == "\"" { quoted = true }
                if character == "[" || character == "{" { depth += 1 }
                if character == "]" || character == "}" { depth -= 1 }
            }
            return nil
        }
        for _ in 0..<20_000 {
            let text = (0..<next(10)).map { _ in pieces[next(pieces.count)] }.joined()
            for flag in ["--not", "-n"] {
                let found = CommandArguments.flagRange(flag, in: text).map {
                    text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                }
                #expect(found == expected(flag, in: text), "\(flag) in \(text.debugDescription)")
            }
        }
    }
}
