/// The literal syntax storesh reads and writes: JSON-like, with bare field names.
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
            return "{" + fields.map { "\(Self.label($0.label ?? "")): \($0.value.compact)" }.joined(separator: ", ") + "}"
        case .enumCase(let name, let payload):
            guard !payload.isEmpty else { return "." + name }
            return "." + name + "(" + payload.map { ($0.label.map { Self.label($0) + ": " } ?? "") + $0.value.compact }.joined(separator: ", ") + ")"
        }
    }

    /// A field name as written in literals: bare when it is an identifier, else quoted.
    public static func label(_ name: String) -> String {
        isBareLabel(name) ? name : quoted(name)
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isBareLabel(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "_") || isLetter(first) else { return false }
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "_") || isLetter(byte) || (48...57).contains(byte) else { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (65...90).contains(byte) || (97...122).contains(byte)
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
