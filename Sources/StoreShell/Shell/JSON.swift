import StoreHost
public import StoreValue

/// A small JSON writer for storesh's `--format json`: one object per line, keys in a
/// fixed order so output is stable. It appends to one string as it goes (an object is
/// not built from the strings of its parts), since a script's JSON is written per action.
public enum JSON {
    /// An object from ordered key/value pairs (values already JSON); nil values are left out.
    public static func object(_ pairs: [(String, String?)]) -> String {
        object { fields in
            for (key, value) in pairs { fields.raw(key, value) }
        }
    }

    /// An object whose fields `build` appends, in order.
    public static func object(_ build: (inout Fields) -> Void) -> String {
        var fields = Fields()
        build(&fields)
        fields.out.append("}")
        return fields.out
    }

    /// An array of JSON texts.
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
        var out = ""
        appendString(text, to: &out)
        return out
    }

    /// A value: records become objects keyed by field name; an enum case becomes
    /// `{"$case": name, …payload}` (unlabelled payload values under "$0", "$1", …).
    public static func value(_ value: Value) -> String {
        var out = ""
        appendValue(value, to: &out)
        return out
    }

    /// The fields of an object being written.
    public struct Fields {
        var out: String
        private var empty = true

        init() {
            out = "{"
            out.reserveCapacity(160) // an action's line, most of the time: one allocation
        }

        private mutating func key(_ key: String) {
            if empty { empty = false } else { out.append(",") }
            appendString(key, to: &out)
            out.append(":")
        }

        /// A field whose value is already JSON text (nil: left out).
        public mutating func raw(_ name: String, _ json: String?) {
            guard let json else { return }
            key(name)
            out.append(json)
        }

        /// A string field (nil: left out).
        public mutating func string(_ name: String, _ text: String?) {
            guard let text else { return }
            key(name)
            appendString(text, to: &out)
        }

        /// A number field (nil: left out).
        public mutating func int<Number: BinaryInteger>(_ name: String, _ number: Number?) {
            guard let number else { return }
            key(name)
            out.append(String(number))
        }

        /// A true/false field.
        public mutating func bool(_ name: String, _ flag: Bool) {
            key(name)
            out.append(flag ? "true" : "false")
        }

        /// A value-tree field (nil: left out).
        public mutating func value(_ name: String, _ value: Value?) {
            guard let value else { return }
            key(name)
            appendValue(value, to: &out)
        }

        /// An array field whose elements `each` appends, one call per element.
        public mutating func array<Element>(_ name: String, _ elements: [Element], _ each: (Element, inout String) -> Void) {
            key(name)
            out.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(",") }
                each(element, &out)
            }
            out.append("]")
        }
    }

    /// Appends `text` as a JSON string literal.
    public static func appendString(_ text: String, to out: inout String) {
        // Most text needs no escape: one copy between the quotes.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append("\"")
            out.append(text)
            out.append("\"")
        } else {
            out.append(Value.quoted(text))
        }
    }

    /// Appends `value` as JSON (see `value(_:)`).
    public static func appendValue(_ value: Value, to out: inout String) {
        switch value {
        case .null: out.append("null")
        case .bool(let v): out.append(v ? "true" : "false")
        case .int(let v): out.append(String(v))
        case .double(let v): out.append(v.isFinite ? "\(v)" : "null")
        case .string(let v): appendString(v, to: &out)
        case .array(let items):
            out.append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(",") }
                appendValue(item, to: &out)
            }
            out.append("]")
        case .record(_, let fields):
            out.append("{")
            for (index, field) in fields.enumerated() {
                if index > 0 { out.append(",") }
                appendString(field.label ?? "", to: &out)
                out.append(":")
                appendValue(field.value, to: &out)
            }
            out.append("}")
        case .enumCase(let name, let payload):
            out.append("{\"$case\":")
            appendString(name, to: &out)
            for (index, field) in payload.enumerated() {
                out.append(",")
                appendString(field.label ?? "$\(index)", to: &out)
                out.append(":")
                appendValue(field.value, to: &out)
            }
            out.append("}")
        }
    }
}
