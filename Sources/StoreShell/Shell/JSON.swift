import StoreHost
public import StoreValue

/// A small JSON writer for storesh's `--format json`: one object per line, keys in a
/// fixed order so output is stable. It appends bytes to one buffer as it goes (an object
/// is not built from the strings of its parts), since a script's JSON is written per
/// action and the writing would otherwise cost more than the action.
public enum JSON {
    /// An object from ordered key/value pairs (values already JSON); nil values are left out.
    public static func object(_ pairs: [(String, String?)]) -> String {
        object { fields in
            for (key, value) in pairs { fields.raw(key, value) }
        }
    }

    /// An object whose fields `build` appends, in order.
    public static func object(_ build: (inout Fields) -> Void) -> String {
        var bytes: [UInt8] = []
        object(into: &bytes, build)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends an object whose fields `build` appends, in order, to `bytes`.
    public static func object(into bytes: inout [UInt8], _ build: (inout Fields) -> Void) {
        var fields = Fields(taking: &bytes)
        build(&fields)
        fields.out.byte(UInt8(ascii: "}"))
        bytes = fields.out.bytes
    }

    /// An array of JSON texts.
    public static func array(_ items: [String]) -> String {
        "[" + items.joined(separator: ",") + "]"
    }

    /// A JSON string literal (the same syntax storesh's literals use).
    public static func string(_ text: String) -> String {
        var out = Output()
        out.string(text)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// A value: records become objects keyed by field name; an enum case becomes
    /// `{"$case": name, …payload}` (unlabelled payload values under "$0", "$1", …).
    public static func value(_ value: Value) -> String {
        var out = Output()
        out.value(value)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The fields of an object being written.
    public struct Fields {
        var out: Output
        private var empty = true

        init(taking bytes: inout [UInt8]) {
            out = Output(bytes: bytes)
            bytes = [] // the buffer now has one owner, so appends do not copy it
            out.byte(UInt8(ascii: "{"))
        }

        private mutating func key(_ key: StaticString) {
            if empty { empty = false } else { out.byte(UInt8(ascii: ",")) }
            out.byte(UInt8(ascii: "\""))
            out.raw(key)
            out.raw("\":")
        }

        private mutating func key(_ key: String) {
            if empty { empty = false } else { out.byte(UInt8(ascii: ",")) }
            out.string(key)
            out.byte(UInt8(ascii: ":"))
        }

        /// A field whose value is already JSON text (nil: left out).
        public mutating func raw(_ name: String, _ json: String?) {
            guard let json else { return }
            key(name)
            out.text(json)
        }

        /// A string field (nil: left out).
        public mutating func string(_ name: StaticString, _ text: String?) {
            guard let text else { return }
            key(name)
            out.string(text)
        }

        /// A number field (nil: left out).
        public mutating func int(_ name: StaticString, _ number: Int?) {
            guard let number else { return }
            key(name)
            out.int(number)
        }

        /// A true/false field.
        public mutating func bool(_ name: StaticString, _ flag: Bool) {
            key(name)
            out.raw(flag ? "true" : "false")
        }

        /// A value-tree field (nil: left out).
        public mutating func value(_ name: StaticString, _ value: Value?) {
            guard let value else { return }
            key(name)
            out.value(value)
        }

        /// An array field of objects, one per element, whose fields `each` appends.
        public mutating func objects<Element>(_ name: StaticString, _ elements: [Element], _ each: (Element, inout Fields) -> Void) {
            key(name)
            out.byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                var fields = Fields(taking: &out.bytes)
                each(element, &fields)
                fields.out.byte(UInt8(ascii: "}"))
                out.bytes = fields.out.bytes
            }
            out.byte(UInt8(ascii: "]"))
        }
    }

    /// UTF-8 bytes being written.
    struct Output {
        var bytes: [UInt8] = []

        mutating func byte(_ byte: UInt8) { bytes.append(byte) }

        mutating func raw(_ text: StaticString) {
            text.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        /// `text` as a JSON string literal, as `Value.quoted` spells it: runs that need no
        /// escape are copied whole, escapes written as bytes (a state path has quotes in it:
        /// `todos["t1"]`, and every diff record has a path).
        mutating func string(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                bytes.append(UInt8(ascii: "\""))
                var start = 0
                for index in utf8.indices {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    start = index + 1
                    escape(byte)
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
                bytes.append(UInt8(ascii: "\""))
            }
        }

        private mutating func escape(_ byte: UInt8) {
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }

        /// A decimal integer, written without making a string.
        mutating func int(_ number: Int) {
            if number < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = number.magnitude
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for the 20 digits of UInt64.max
            withUnsafeMutableBytes(of: &digits) { buffer in
                var start = buffer.count
                repeat {
                    start -= 1
                    buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                } while magnitude > 0
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
            }
        }

        /// A value (see `JSON.value(_:)`).
        mutating func value(_ value: Value) {
            switch value {
            case .null: raw("null")
            case .bool(let v): raw(v ? "true" : "false")
            case .int(let v): int(Int(v))
            case .double(let v): if v.isFinite { text("\(v)") } else { raw("null") }
            case .string(let v): string(v)
            case .array(let items):
                byte(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    self.value(item)
                }
                byte(UInt8(ascii: "]"))
            case .record(_, let fields):
                byte(UInt8(ascii: "{"))
                for (index, field) in fields.enumerated() {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    string(field.label ?? "")
                    byte(UInt8(ascii: ":"))
                    self.value(field.value)
                }
                byte(UInt8(ascii: "}"))
            case .enumCase(let name, let payload):
                raw("{\"$case\":")
                string(name)
                for (index, field) in payload.enumerated() {
                    byte(UInt8(ascii: ","))
                    string(field.label ?? "$\(index)")
                    byte(UInt8(ascii: ":"))
                    self.value(field.value)
                }
                byte(UInt8(ascii: "}"))
            }
        }
    }
}
