/// One word of a command line and where it starts.
package struct CommandWord: Equatable, Sendable {
    /// The word: unquoted, or as typed (see `CommandWords.split`).
    package let text: String
    /// Where the word starts, in bytes from the start of the text split.
    package let offset: Int
}

/// The one lexer for the words of a command line: words end at spaces and tabs outside
/// double quotes, and each word remembers where it starts.
///
/// Two readings of the same text: `unquoted` (the words a command takes as names and
/// numbers: quotes group words and are dropped, with their escapes read) and `asTyped`
/// (paths, literals and expressions that have quotes of their own: every character kept,
/// and a word also runs on inside `[…]` and `{…}`).
package enum CommandWords {
    /// `text`'s words, unquoted: `"a b"` is the word `a b`; in quotes `\"`, `\\` and `\n`
    /// are a quote, a backslash and a line break (`quoted` writes them so).
    package static func unquoted(_ text: String) -> [CommandWord] { split(text, keepingQuotes: false) }

    /// `text`'s words as typed: `todos["a b"]` and `[1, 2]` are one word each.
    package static func asTyped(_ text: String) -> [CommandWord] { split(text, keepingQuotes: true) }

    /// `word` as one word of a command line, which `unquoted` reads back as `word`: as it
    /// is when it is not empty and has no space, quote, backslash or control character;
    /// else in double quotes, with `"`, `\` and a line break escaped.
    package static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7F }
        if plain { return word }
        var quoted = "\""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    private static func split(_ text: String, keepingQuotes: Bool) -> [CommandWord] {
        var words: [CommandWord] = []
        var word = ""
        var start: Int?  // where the word being read starts; nil between words
        var quoted = false
        var escaped = false
        var depth = 0  // brackets open, read as typed only
        var offset = 0
        for character in text {
            let at = offset
            offset += character.utf8.count
            if quoted {
                if escaped {
                    escaped = false
                    word.append(!keepingQuotes && character == "n" ? "\n" : character)
                } else if character == "\\" {
                    escaped = true
                    if keepingQuotes { word.append(character) }
                } else if character == "\"" {
                    quoted = false
                    if keepingQuotes { word.append(character) }
                } else {
                    word.append(character)
                }
                continue
            }
            if (character == " " || character == "\t") && (!keepingQuotes || depth <= 0) {
                if let start { words.append(CommandWord(text: word, offset: start)) }
                word = ""
                start = nil
                continue
            }
            if start == nil { start = at }
            if character == "\"" {
                quoted = true
                if keepingQuotes { word.append(character) }
                continue
            }
            if keepingQuotes, character == "[" || character == "{" { depth += 1 }
            if keepingQuotes, character == "]" || character == "}" { depth -= 1 }
            word.append(character)
        }
        if let start { words.append(CommandWord(text: word, offset: start)) }
        return words
    }
}
