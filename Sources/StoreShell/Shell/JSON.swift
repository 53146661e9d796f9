import StoreHost
package import StoreValue

/// A small JSON writer for storesh's `--format json`: one object per line, keys in a
/// fixed order so output is stable. Values and strings are appended to an `OutputBuffer`
/// as they are written (not built from the strings of their parts): a script's JSON is
/// written per action, and the writing would otherwise cost more than the action.
package enum JSON {
    /// An object from ordered key/value pairs (values already JSON); nil values are left out.
    package static func object(_ pairs: [(String, String?)]) -> String {
        let out = OutputBuffer(capacity: 256)
        out.append(UInt8(ascii: "{"))
        var first = true
        for case (let key, let value?) in pairs {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.appendJSONString(key)
            out.append(UInt8(ascii: ":"))
            out.append(value)
        }
        out.append(UInt8(ascii: "}"))
        return out.text
    }

    /// An array of JSON texts.
    package static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// A JSON string literal (the same syntax storesh's literals use).
    package static func string(_ text: String) -> String {
        let out = OutputBuffer(capacity: text.utf8.count + 2)
        out.appendJSONString(text)
        return out.text
    }

    /// A value: records become objects keyed by field name; an enum case becomes
    /// `{"$case": name, …payload}` (unlabelled payload values under "$0", "$1", …).
    package static func value(_ value: Value) -> String {
        let out = OutputBuffer(capacity: 256)
        out.appendJSON(value)
        return out.text
    }
}

extension OutputBuffer {
    /// `text` as a JSON string literal, as `Value.quoted` spells it: runs that need no
    /// escape are copied whole, escapes written as bytes (a state path has quotes in it:
    /// `todos["t1"]`, and every diff record has a path).
    func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(UInt8(ascii: "\""))
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[start..<index])))
                start = index + 1
                appendEscape(byte)
            }
            append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[start...])))
            append(UInt8(ascii: "\""))
        }
    }

    private func appendEscape(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            append("u00" as StaticString)
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    /// A value (see `JSON.value(_:)`).
    func appendJSON(_ value: Value) {
        switch value {
        case .null: append("null" as StaticString)
        case .bool(let v): append(v ? "true" : "false" as StaticString)
        case .int(let v): appendDecimal(Int(v))
        case .double(let v): if v.isFinite { append("\(v)") } else { append("null" as StaticString) }
        case .string(let v): appendJSONString(v)
        case .array(let items):
            append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendJSON(item)
            }
            append(UInt8(ascii: "]"))
        case .record(_, let fields):
            append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { append(UInt8(ascii: ",")) }
                appendJSONString(field.label ?? "")
                append(UInt8(ascii: ":"))
                appendJSON(field.value)
            }
            append(UInt8(ascii: "}"))
        case .enumCase(let name, let payload):
            append("{\"$case\":" as StaticString)
            appendJSONString(name)
            for (index, field) in payload.enumerated() {
                append(UInt8(ascii: ","))
                appendJSONString(field.label ?? "$\(index)")
                append(UInt8(ascii: ":"))
                appendJSON(field.value)
            }
            append(UInt8(ascii: "}"))
        }
    }
}
