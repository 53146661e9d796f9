/// Strings for explored arguments: ones that break naive code (empty, quotes, escapes,
/// combining marks, emoji sequences, right-to-left text, controls, long), ones made of
/// random pieces from across Unicode, and small changes of strings the state holds.
/// Drawn from `ExploreRandom` only, so a seed gives the same strings.
enum ExploreStrings {
    /// Strings known to trouble text handling, each for a reason: quoting and escaping,
    /// characters made of several scalars, case mappings that change length, direction
    /// marks, a NUL, and words that look like other literals.
    static let classics: [String] = [
        "", "a", "b", "abc", "hello world", "  ", "0", "-1", "null", "true", "é", "x\"y", "\\", "\"", "'",
        "a\\\"b", "line\nbreak", "tab\there", "\r\n", "\u{0}", "e\u{301}", "👩‍👩‍👧", "🇫🇷", "\u{202E}abc", "\u{FEFF}",
        "ß", "İ", "ﬃ", "日本語", String(repeating: "z", count: 40), String(repeating: "long ", count: 40),
    ]

    /// Kinds of piece a made string is put together from, with examples of each.
    private static let pieces: [[String]] = [
        ["a", "b", "z", "A", "Q"],
        ["0", "1", "9", "42"],
        [" ", "  ", "\t"],
        ["\"", "'", "\\", "`", "{", "}", "[", "]", ",", ":", ".", "#", "%", "&", "<", ">", "/", "$"],
        ["\n", "\r", "\r\n", "\u{7}", "\u{1B}", "\u{0}", "\u{7F}"],
        ["é", "ß", "ø", "ñ", "İ", "ı", "ﬁ"],
        ["\u{301}", "\u{308}", "\u{20DD}"],
        ["日", "本", "語", "한", "あ"],
        ["😀", "👍🏽", "👩‍💻", "🏳️‍🌈", "🇯🇵"],
        ["\u{200B}", "\u{200D}", "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{FFFD}"],
        ["α", "Ω", "д", "ا", "ש"],
    ]

    /// One string of `lengths` pieces: mostly short, now and then long.
    static func made(_ random: inout ExploreRandom) -> String {
        let count = random.pick([1, 1, 2, 3, 4, 6, 10, 24, 120])
        var text = ""
        for _ in 0..<count {
            if random.chance(0.1) {
                text.unicodeScalars.append(scalar(&random))
            } else {
                text += random.pick(random.pick(pieces))
            }
        }
        return text
    }

    /// Longer than this, a seen string is only cut or its case changed: grown and doubled
    /// again and again over a long search, it would fill memory and transcripts.
    static let growthLimit = 1024

    /// A small change of `text`: cut, grown at either end, doubled, or its case changed.
    static func varied(_ text: String, _ random: inout ExploreRandom) -> String {
        let choice = random.index(6)
        if text.utf8.count > growthLimit, (1...3).contains(choice) { return String(text.dropLast()) }
        switch choice {
        case 0: return String(text.dropLast())
        case 1: return text + made(&random)
        case 2: return made(&random) + text
        case 3: return text + text
        case 4: return text.uppercased()
        default: return String(text.dropFirst())
        }
    }

    /// Any scalar: from the first planes most often, and the last valid one now and then.
    private static func scalar(_ random: inout ExploreRandom) -> Unicode.Scalar {
        let limit = random.pick([0x80, 0x800, 0x1_0000, 0x11_0000])
        let value = UInt32(random.index(limit))
        return Unicode.Scalar(value) ?? Unicode.Scalar(0x10_FFFF)!
    }
}
