import Foundation
import StoreHost
import StoreValue

/// One thing a session did that a resume must do again.
package enum JournalRecord: Equatable, Sendable {
    /// A plugin loaded, by path; `as` the name it was loaded under, if another.
    case load(plugin: String, as: String? = nil)
    case use(model: String)
    case action(model: String, source: ActionSource, text: String)
    case goto(model: String, position: Int)
    case skip(model: String, index: Int)
    case unskip(model: String, index: Int)
    case branch(model: String, number: Int)
    case reset

    /// One line, without its checksum. A plugin path is quoted (JSON string syntax), so
    /// spaces, newlines or any other character a path may hold survive the round trip;
    /// action text never holds a line break (the renderer escapes them).
    package var line: String {
        switch self {
        case .load(let plugin, let alias): "L \(Value.quoted(plugin))" + (alias.map { " as \($0)" } ?? "")
        case .use(let model): "U \(model)"
        case .action(let model, let source, let text): "A \(model) \(source.rawValue) \(Self.singleLine(text))"
        case .goto(let model, let position): "G \(model) \(position)"
        case .skip(let model, let index): "S \(model) \(index)"
        case .unskip(let model, let index): "K \(model) \(index)"
        case .branch(let model, let number): "B \(model) \(number)"
        case .reset: "R"
        }
    }

    package init?(line: Substring) {
        let parts = Self.fields(line)
        switch (parts.first, parts.count) {
        case ("L", _):
            guard let (plugin, alias) = Self.path(line.dropFirst(2)) else { return nil }
            self = .load(plugin: plugin, as: alias)
        case ("U", 2): self = .use(model: parts[1])
        case ("A", 4):
            guard let source = ActionSource(rawValue: parts[2]) else { return nil }
            self = .action(model: parts[1], source: source, text: parts[3])
        case ("G", 3):
            guard let n = Int(parts[2]) else { return nil }
            self = .goto(model: parts[1], position: n)
        case ("S", 3):
            guard let n = Int(parts[2]) else { return nil }
            self = .skip(model: parts[1], index: n)
        case ("K", 3):
            guard let n = Int(parts[2]) else { return nil }
            self = .unskip(model: parts[1], index: n)
        case ("B", 3):
            guard let n = Int(parts[2]) else { return nil }
            self = .branch(model: parts[1], number: n)
        case ("R", 1): self = .reset
        default: return nil
        }
    }

    /// The line split at its first three spaces, looking at bytes: a resume reads millions
    /// of records, and splitting by `Character` (grapheme by grapheme) made an in-process
    /// resume of 2M actions take 9 s instead of 5.
    private static func fields(_ line: Substring) -> [String] {
        var parts: [String] = []
        parts.reserveCapacity(4)
        let bytes = line.utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex, parts.count < 3 {
            if bytes[index] == UInt8(ascii: " ") {
                parts.append(String(line[start..<index]))
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        parts.append(String(line[start...]))
        return parts
    }

    /// A quoted path, and ` as NAME` after it when the plugin was loaded as another;
    /// journals written before paths were quoted hold the bare path.
    private static func path(_ text: Substring) -> (String, String?)? {
        guard text.first == "\"" else { return text.isEmpty ? nil : (String(text), nil) }
        var scanner = LiteralScanner(bytes: Array(text.utf8), index: 0)
        guard let path = try? scanner.string() else { return nil }
        if scanner.atEnd { return (path, nil) }
        let rest = String(decoding: scanner.bytes[scanner.index...], as: UTF8.self)
        guard rest.hasPrefix(" as "), PluginHost.aliasProblem(String(rest.dropFirst(4))) == nil else { return nil }
        return (path, String(rest.dropFirst(4)))
    }

    /// Text from a plugin (an effect's action outside the schema) can hold a line break,
    /// which would split the record: it is kept as the two characters `\n`.
    private static func singleLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return text }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }
}
