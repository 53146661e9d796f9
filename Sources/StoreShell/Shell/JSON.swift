import StoreHost
public import StoreValue

/// A tiny JSON writer for storesh's `--format json`: one object per line, keys in a
/// fixed order so output is stable.
public enum JSON {
    /// An object from ordered key/value pairs; nil values are left out.
    public static func object(_ pairs: [(String, String?)]) -> String {
        var out = "{"
        for (key, value) in pairs {
            guard let value else { continue }
            if out.utf8.count > 1 { out += "," }
            out += string(key)
            out += ":"
            out += value
        }
        out += "}"
        return out
    }

    public static func array(_ items: [String]) -> String {
        var out = "["
        for (index, item) in items.enumerated() {
            if index > 0 { out += "," }
            out += item
        }
        out += "]"
        return out
    }

    /// A JSON string literal (the same syntax storesh's literals use).
    public static func string(_ text: String) -> String {
        Value.quoted(text)
    }

    /// A value: records become objects keyed by field name; an enum case becomes
    /// `{"$case": name, …payload}` (unlabelled payload values under "$0", "$1", …).
    public static func value(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let v): return v ? "true" : "false"
        case .int(let v): return String(v)
        case .double(let v): return v.isFinite ? "\(v)" : "null"
        case .string(let v): return string(v)
        case .array(let items): return array(items.map(Self.value))
        case .record(_, let fields): return object(fields.map { ($0.label ?? "", Self.value($0.value)) })
        case .enumCase(let name, let payload):
            return object([("$case", string(name))] + payload.enumerated().map { ($0.element.label ?? "$\($0.offset)", Self.value($0.element.value)) })
        }
    }
}
