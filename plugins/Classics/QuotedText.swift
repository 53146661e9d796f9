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

    static func quote(_ text: String, escaping: Bool) -> String {
        guard escaping else { return "\"" + text + "\"" }
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// The text of a quoted string: up to the first quote that is not escaped.
    static func unquote(_ file: String) -> String {
        var text = ""
        var characters = file.dropFirst().makeIterator()
        while let character = characters.next() {
            switch character {
            case "\"": return text
            case "\\": if let escaped = characters.next() { text.append(escaped) }
            default: text.append(character)
            }
        }
        return text
    }
}
