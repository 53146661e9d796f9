// The literal syntax storesh reads and writes, JSON-like with bare field names:
// `{count: 3, tags: ["a"]}`. Reading (LiteralScanner, Literal.parse) and writing
// (Value.compact) sit side by side: a change to the syntax is made to both here.

/// The literal syntax of action arguments and `:expect` values, for programs that read it;
/// `Value.compact` writes it.
public enum Literal {
    /// Reads one literal (surrounding spaces allowed) from UTF-8 bytes; anything after it
    /// is an error.
    public static func parse<Bytes: Collection>(_ bytes: Bytes) throws(TextError) -> Value
    where Bytes.Element == UInt8 {
        var scanner = LiteralScanner(bytes: Array(bytes), index: 0)
        let value = try scanner.literal()
        scanner.skipSpaces()
        guard scanner.atEnd else { throw TextError("unexpected text after the value", at: scanner.index) }
        return value
    }
}

/// The bytes of a bare name, `[A-Za-z_][A-Za-z0-9_]*`: what the scanner reads as a name
/// or label, and what the writer leaves unquoted.
enum BareName {
    /// A letter or '_'.
    static func canStart(with byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (65...90).contains(byte) || (97...122).contains(byte)
    }

    /// A letter, a digit or '_'.
    static func canContinue(with byte: UInt8) -> Bool {
        canStart(with: byte) || (48...57).contains(byte)
    }
}

/// Reads JSON-like literals from UTF-8 bytes: numbers, "strings" with JSON escapes,
/// true/false/null, [arrays] and {records with: labels}.
///
/// Nesting is limited to `Value.maxDepth` levels (an error past it), so the recursion
/// here is bounded whatever the input.
package struct LiteralScanner {
    package let bytes: [UInt8]
    package var index: Int
    /// Lists and records open around the current position.
    private var depth = 0

    package init(bytes: [UInt8], index: Int) {
        self.bytes = bytes
        self.index = index
    }

    /// "column N" for a byte offset: characters from 1, as every message counts them.
    package func column(_ offset: Int) -> String {
        "column \(String(decoding: bytes[..<min(offset, bytes.count)], as: UTF8.self).count + 1)"
    }

    private mutating func enter(_ start: Int) throws(TextError) {
        depth += 1
        if depth > Value.maxDepth {
            throw TextError(
                "lists and records nest more than \(Value.maxDepth) levels deep here (the limit)", at: start)
        }
    }

    package var atEnd: Bool { index >= bytes.count }
    package var current: UInt8? { atEnd ? nil : bytes[index] }

    /// Skips spaces, tabs and line breaks (a statement may continue over lines).
    package mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// A bare name (`count`, `_0`), or nil with nothing read.
    package mutating func identifier() -> String? {
        let start = index
        if let first = current, BareName.canStart(with: first) {
            index += 1
            while let byte = current, BareName.canContinue(with: byte) { index += 1 }
        }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    package mutating func literal() throws(TextError) -> Value {
        skipSpaces()
        guard let byte = current else { throw TextError("expected a value", at: index) }
        switch byte {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "{"): return try record()
        case UInt8(ascii: "-"), 48...57: return try number()
        default:
            let start = index
            guard let word = identifier() else {
                throw TextError(
                    "unexpected '\(Character(Unicode.Scalar(byte)))'; expected a value (a number, \"text\", true, false, null, [...] or {...})",
                    at: index)
            }
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "nil": return .null
            default: throw TextError("'\(word)' is not a value; text must be quoted: \"\(word)\"", at: start)
            }
        }
    }

    package mutating func string() throws(TextError) -> String {
        let start = index
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var pending: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
            pending.removeAll()
        }
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard let escaped = current else { break }
                index += 1
                flush()
                switch escaped {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "u"):
                    scalars.append(try unicodeEscape())
                default:
                    throw TextError("unknown escape '\\\(Character(Unicode.Scalar(escaped)))'", at: index - 2)
                }
            default:
                pending.append(byte)
            }
        }
        throw TextError("the string opened at \(column(start)) is not closed", at: start)
    }

    /// After `\u`: four hex digits, or a JSON surrogate pair (`\ud83c\udf89`).
    private mutating func unicodeEscape() throws(TextError) -> Unicode.Scalar {
        let escapeStart = index - 2
        guard let high = hexQuad() else { throw TextError("\\u needs four hex digits", at: escapeStart) }
        if let scalar = Unicode.Scalar(high) { return scalar }
        guard (0xD800...0xDBFF).contains(high) else {
            throw TextError(
                "\\u\(String(high, radix: 16)) is a lone low surrogate; it must follow a high one (\\ud800–\\udbff)",
                at: escapeStart)
        }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw TextError(
                "\\u\(String(high, radix: 16)) is a high surrogate; a low one (\\udc00–\\udfff) must follow",
                at: escapeStart)
        }
        index += 2
        guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else {
            throw TextError(
                "\\u\(String(high, radix: 16)) must be followed by a low surrogate (\\udc00–\\udfff)", at: escapeStart)
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    private mutating func hexQuad() -> UInt32? {
        let hex = bytes[index..<min(index + 4, bytes.count)]
        guard hex.count == 4, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
            let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16)
        else { return nil }
        index += 4
        return code
    }

    package mutating func number() throws(TextError) -> Value {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        var isReal = false
        while let byte = current {
            if (48...57).contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && isReal)
            {
                isReal = true
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isReal, let integer = Int64(text) { return .int(integer) }
        if isReal, let real = Double(text), real.isFinite { return .double(real) }
        throw TextError("'\(text)' is not a number" + (isReal ? "" : " that fits in 64 bits"), at: start)
    }

    private mutating func array() throws(TextError) -> Value {
        let start = index
        try enter(start)
        defer { depth -= 1 }
        index += 1
        var items: [Value] = []
        skipSpaces()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        while true {
            items.append(try literal())
            skipSpaces()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            case nil: throw TextError("the '[' at \(column(start)) is not closed", at: index)
            default: throw TextError("expected ',' or ']' in the list opened at \(column(start))", at: index)
            }
        }
    }

    private mutating func record() throws(TextError) -> Value {
        let start = index
        try enter(start)
        defer { depth -= 1 }
        index += 1
        var fields: [Value.Field] = []
        var labels: Set<String> = []
        skipSpaces()
        if current == UInt8(ascii: "}") {
            index += 1
            return .record(type: nil, fields: [])
        }
        while true {
            skipSpaces()
            let labelStart = index
            let label: String
            if current == UInt8(ascii: "\"") {
                label = try string()
            } else if let name = identifier() {
                label = name
            } else {
                throw TextError("expected a field name in the record opened at \(column(start))", at: index)
            }
            guard labels.insert(label).inserted else {
                throw TextError("field '\(label)' appears twice", at: labelStart)
            }
            skipSpaces()
            guard current == UInt8(ascii: ":") else {
                throw TextError("expected ':' after field name '\(label)'", at: index)
            }
            index += 1
            fields.append(.init(label, try literal()))
            skipSpaces()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .record(type: nil, fields: fields)
            case nil: throw TextError("the '{' at \(column(start)) is not closed", at: index)
            default: throw TextError("expected ',' or '}' in the record opened at \(column(start))", at: index)
            }
        }
    }
}

/// Writing literals: what `LiteralScanner` reads back.
extension Value {
    /// One line, JSON-like: `{count: 3, tags: ["a"]}`, `.loggedIn(user: "bo")`.
    public var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let v): return v ? "true" : "false"
        case .int(let v): return String(v)
        case .double(let v): return v == v.rounded() && abs(v) < 1e15 ? "\(Int64(v)).0" : "\(v)"
        case .string(let v): return Self.quoted(v)
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ", ") + "]"
        case .record(_, let fields):
            return "{" + fields.map { "\(Self.label($0.label ?? "")): \($0.value.compact)" }.joined(separator: ", ")
                + "}"
        case .enumCase(let name, let payload):
            guard !payload.isEmpty else { return "." + name }
            return "." + name + "("
                + payload.map { ($0.label.map { Self.label($0) + ": " } ?? "") + $0.value.compact }.joined(
                    separator: ", ") + ")"
        }
    }

    /// A field name as written in literals: bare when it is an identifier, else quoted.
    public static func label(_ name: String) -> String {
        isBareLabel(name) ? name : quoted(name)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isBareLabel(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), BareName.canStart(with: first) else { return false }
        while let byte = bytes.next() {
            guard BareName.canContinue(with: byte) else { return false }
        }
        return true
    }

    /// JSON string syntax.
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape: one copy between the quotes.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            var out = "\""
            out.reserveCapacity(text.utf8.count + 2)
            out += text
            out += "\""
            return out
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
