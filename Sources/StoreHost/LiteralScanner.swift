import StoreValue

/// A mistake in action or path text, with the byte offset where it was found.
public struct TextError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int

    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) (at byte \(offset))" }
}

/// Reads JSON-like literals from UTF-8 bytes: numbers, "strings" with JSON escapes,
/// true/false/null, [arrays] and {records with: labels}.
struct LiteralScanner {
    let bytes: [UInt8]
    var index: Int

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { atEnd ? nil : bytes[index] }

    /// Skips spaces, tabs and line breaks (a statement may continue over lines).
    mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    mutating func identifier() -> String? {
        let start = index
        while let byte = current, byte == UInt8(ascii: "_") || (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) {
            if index == start, (48...57).contains(byte) { break }
            index += 1
        }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    mutating func literal() throws(TextError) -> Value {
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
                throw TextError("unexpected '\(Character(Unicode.Scalar(byte)))'; expected a value (a number, \"text\", true, false, null, [...] or {...})", at: index)
            }
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null", "nil": return .null
            default: throw TextError("'\(word)' is not a value; text must be quoted: \"\(word)\"", at: start)
            }
        }
    }

    mutating func string() throws(TextError) -> String {
        let start = index
        index += 1 // opening quote
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
                    let hex = bytes[index..<min(index + 4, bytes.count)]
                    guard hex.count == 4, let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16), let scalar = Unicode.Scalar(code) else {
                        throw TextError("\\u needs four hex digits naming a character", at: index - 2)
                    }
                    index += 4
                    scalars.append(scalar)
                default:
                    throw TextError("unknown escape '\\\(Character(Unicode.Scalar(escaped)))'", at: index - 2)
                }
            default:
                pending.append(byte)
            }
        }
        throw TextError("the string opened at byte \(start) is not closed", at: start)
    }

    mutating func number() throws(TextError) -> Value {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        var isReal = false
        while let byte = current {
            if (48...57).contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || ((byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")) && isReal) {
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
            case nil: throw TextError("the '[' at byte \(start) is not closed", at: index)
            default: throw TextError("expected ',' or ']' in the list opened at byte \(start)", at: index)
            }
        }
    }

    private mutating func record() throws(TextError) -> Value {
        let start = index
        index += 1
        var fields: [Value.Field] = []
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
                throw TextError("expected a field name in the record opened at byte \(start)", at: index)
            }
            if fields.contains(where: { $0.label == label }) { throw TextError("field '\(label)' appears twice", at: labelStart) }
            skipSpaces()
            guard current == UInt8(ascii: ":") else { throw TextError("expected ':' after field name '\(label)'", at: index) }
            index += 1
            fields.append(.init(label, try literal()))
            skipSpaces()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .record(type: nil, fields: fields)
            case nil: throw TextError("the '{' at byte \(start) is not closed", at: index)
            default: throw TextError("expected ',' or '}' in the record opened at byte \(start)", at: index)
            }
        }
    }
}
