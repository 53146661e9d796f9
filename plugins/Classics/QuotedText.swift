import ObservableStore
import StorePlugin

/// A text saved to a file as a quoted string, in which `\"` and `\\` stand for a quote and
/// a backslash, and read back. The bug: saving puts the quotes around the text without
/// escaping the quotes and backslashes in it, so a text holding one does not come back
/// (`--after saveAndReload 'text == old(text)'`, two steps).
struct QuotedText: ModelProtocol, Codable {
    var text = ""
    /// The file as saved.
    var file = ""

    @PluginActions
    enum Action: Codable, Sendable {
        /// Replaces the text.
        case edit(text: String)
        /// Saves the text to the file and reads it back.
        case saveAndReload
    }

    static func update(state: QuotedText, action: Action, environment: Build) -> Update<QuotedText> {
        var next = state
        switch action {
        case .edit(let text): next.text = text
        case .saveAndReload:
            next.file = quote(next.text, escaping: environment == .fixed)
            next.text = unquote(next.file)
        }
        return Update(state: next)
    }

    /// Both work on Unicode scalars, not characters: a text that starts with a combining
    /// mark (U+0301) joins the opening quote into one character, which `dropFirst()` would
    /// drop whole, mark and all. (explore found that in the fixed build with seed 2.)
    static func quote(_ text: String, escaping: Bool) -> String {
        guard escaping else { return "\"" + text + "\"" }
        var quoted = String.UnicodeScalarView(["\""])
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// The text of a quoted string: up to the first quote that is not escaped.
    static func unquote(_ file: String) -> String {
        var text = String.UnicodeScalarView()
        var scalars = file.unicodeScalars.dropFirst().makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\"": return String(text)
            case "\\": if let escaped = scalars.next() { text.append(escaped) }
            default: text.append(scalar)
            }
        }
        return String(text)
    }
}
