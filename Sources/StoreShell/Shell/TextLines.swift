import StoreHost
/// Lines of text, split on newline bytes. Splitting a `String` on the Character "\n"
/// misses "\r\n", which Swift treats as one Character: a CRLF file would read as one line.
public enum TextLines {
    /// The lines of `text`; a text ending in a newline has an empty last line, as
    /// `split(omittingEmptySubsequences: false)` gives.
    public static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.utf8.startIndex
        var index = start
        while index != text.utf8.endIndex {
            if text.utf8[index] == 0x0A {
                lines.append(text[start..<index])
                start = text.utf8.index(after: index)
            }
            index = text.utf8.index(after: index)
        }
        lines.append(text[start...])
        return lines
    }

    /// Whether `text` ends with a newline byte.
    public static func endsWithNewline(_ text: String) -> Bool {
        text.utf8.last == 0x0A
    }
}
