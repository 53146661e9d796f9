/// Builds one message body of the worker protocol (docs/worker-protocol.md): integers
/// little-endian, strings as a u32 byte count and UTF-8, values as a kind byte and their
/// contents. Values are also what a plugin's `snapshot_encoded` writes (storeplugin.h).
package struct WireWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func u8(_ value: UInt8) { bytes.append(value) }

    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    // Byte by byte: appending a buffer of four or eight bytes costs a call that is more
    // than the bytes (a state is many small writes).
    package mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    package mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    package mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    package mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Raw bytes, counted (a message kept inside another).
    package mutating func counted(_ data: [UInt8]) {
        u32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    package mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    /// A value; its depth is bounded by `Value.maxDepth` wherever it came from. Its size
    /// is worked out first and the bytes written in place: appended one at a time, each
    /// byte cost a check of the array's room and ownership (a state is read after every
    /// action shown).
    package mutating func value(_ value: Value) {
        let start = bytes.count
        let size = Self.size(of: value)
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { buffer in
            var cursor = buffer.baseAddress! + start
            Self.write(value, at: &cursor)
        }
    }

    /// How many bytes `value` takes on the wire.
    private static func size(of value: Value) -> Int {
        switch value {
        case .null: 1
        case .bool: 2
        case .int, .double: 9
        case .string(let text): 5 + text.utf8.count
        case .array(let items): items.reduce(5) { $0 + size(of: $1) }
        case .record(let type, let fields): 2 + (type.map { 4 + $0.utf8.count } ?? 0) + size(of: fields)
        case .enumCase(let name, let payload): 5 + name.utf8.count + size(of: payload)
        }
    }

    private static func size(of fields: [Value.Field]) -> Int {
        fields.reduce(4) { $0 + 1 + ($1.label.map { 4 + $0.utf8.count } ?? 0) + size(of: $1.value) }
    }

    private static func write(_ value: Value, at cursor: inout UnsafeMutableRawPointer) {
        switch value {
        case .null: put(0, at: &cursor)
        case .bool(let v):
            put(1, at: &cursor)
            put(v ? 1 : 0, at: &cursor)
        case .int(let v):
            put(2, at: &cursor)
            put64(UInt64(bitPattern: v), at: &cursor)
        case .double(let v):
            put(3, at: &cursor)
            put64(v.bitPattern, at: &cursor)
        case .string(let v):
            put(4, at: &cursor)
            put(v, at: &cursor)
        case .array(let items):
            put(5, at: &cursor)
            put32(UInt32(items.count), at: &cursor)
            for item in items { write(item, at: &cursor) }
        case .record(let type, let fields):
            put(6, at: &cursor)
            put(type, at: &cursor)
            write(fields, at: &cursor)
        case .enumCase(let name, let payload):
            put(7, at: &cursor)
            put(name, at: &cursor)
            write(payload, at: &cursor)
        }
    }

    private static func write(_ fields: [Value.Field], at cursor: inout UnsafeMutableRawPointer) {
        put32(UInt32(fields.count), at: &cursor)
        for field in fields {
            put(field.label, at: &cursor)
            write(field.value, at: &cursor)
        }
    }

    private static func put(_ byte: UInt8, at cursor: inout UnsafeMutableRawPointer) {
        cursor.storeBytes(of: byte, as: UInt8.self)
        cursor += 1
    }

    private static func put32(_ value: UInt32, at cursor: inout UnsafeMutableRawPointer) {
        cursor.storeBytes(of: value.littleEndian, as: UInt32.self)
        cursor += 4
    }

    private static func put64(_ value: UInt64, at cursor: inout UnsafeMutableRawPointer) {
        cursor.storeBytes(of: value.littleEndian, as: UInt64.self)
        cursor += 8
    }

    /// A string as `string(_:)` writes it.
    private static func put(_ text: String, at cursor: inout UnsafeMutableRawPointer) {
        var text = text
        text.withUTF8 { utf8 in
            put32(UInt32(utf8.count), at: &cursor)
            if let base = utf8.baseAddress { cursor.copyMemory(from: base, byteCount: utf8.count) }
            cursor += utf8.count
        }
    }

    /// An optional string as `optionalString(_:)` writes it.
    private static func put(_ text: String?, at cursor: inout UnsafeMutableRawPointer) {
        put(text == nil ? 0 : 1, at: &cursor)
        if let text { put(text, at: &cursor) }
    }

    package mutating func values(_ values: [Value]) {
        u32(UInt32(values.count))
        for item in values { value(item) }
    }
}

/// A message that does not decode: the peer is not speaking this protocol (or is broken).
package struct WireError: Error, CustomStringConvertible, Equatable {
    package let description: String

    package init(description: String) { self.description = description }
}

/// Reads one message body written by `WireWriter`. Every read is bounds-checked, and
/// values nest at most `Value.maxDepth` levels, so no message can crash the reader.
package struct WireReader {
    private let bytes: [UInt8]
    /// Where the next read starts.
    package private(set) var offset: Int

    package init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    package var atEnd: Bool { offset == bytes.count }
    /// The message's size in bytes.
    package var byteCount: Int { bytes.count }

    /// The offset of the next `count` bytes, which are then taken.
    private mutating func take(_ count: Int) throws(WireError) -> Int {
        guard count >= 0, bytes.count - offset >= count else {
            throw WireError(
                description: "a message ends early (wanted \(count) bytes at offset \(offset) of \(bytes.count))")
        }
        defer { offset += count }
        return offset
    }

    // Integers are read byte by byte from the array, not through slices: a slice holds
    // the array (a retain and a release each), and a state is many small reads.
    package mutating func u8() throws(WireError) -> UInt8 { bytes[try take(1)] }

    package mutating func bool() throws(WireError) -> Bool { try u8() != 0 }

    package mutating func u32() throws(WireError) -> UInt32 {
        let start = try take(4)
        return (0..<4).reduce(0) { $0 | UInt32(bytes[start + $1]) << (8 * $1) }
    }

    package mutating func u64() throws(WireError) -> UInt64 {
        let start = try take(8)
        return (0..<8).reduce(0) { $0 | UInt64(bytes[start + $1]) << (8 * $1) }
    }

    package mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try u64()) }

    package mutating func string() throws(WireError) -> String {
        let count = Int(try u32())
        let start = try take(count)
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + count]), as: UTF8.self)
        }
    }

    /// Bytes written by `WireWriter.counted`.
    package mutating func counted() throws(WireError) -> [UInt8] {
        let count = Int(try u32())
        let start = try take(count)
        return Array(bytes[start..<start + count])
    }

    package mutating func optionalString() throws(WireError) -> String? {
        try bool() ? try string() : nil
    }

    /// A count of items that each take at least one byte: larger than what is left is a lie.
    package mutating func count() throws(WireError) -> Int {
        let count = Int(try u32())
        guard count <= bytes.count - offset else {
            throw WireError(description: "a count of \(count) items with \(bytes.count - offset) bytes left")
        }
        return count
    }

    package mutating func value() throws(WireError) -> Value { try value(depth: 0) }

    private mutating func value(depth: Int) throws(WireError) -> Value {
        let kind = try u8()
        if kind >= 5, depth >= Value.maxDepth {
            throw WireError(description: "a value nested more than \(Value.maxDepth) levels")
        }
        switch kind {
        case 0: return .null
        case 1: return .bool(try bool())
        case 2: return .int(try i64())
        case 3: return .double(Double(bitPattern: try u64()))
        case 4: return .string(try string())
        case 5:
            let count = try count()
            var items: [Value] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try value(depth: depth + 1)) }
            return .array(items)
        case 6:
            let type = try optionalString()
            return .record(type: type, fields: try fields(depth: depth, labelled: true))
        case 7:
            let name = try string()
            return .enumCase(name: name, payload: try fields(depth: depth, labelled: false))
        default:
            throw WireError(description: "unknown value kind \(kind)")
        }
    }

    /// A record's or enum case's members; a record's must have labels (as in a tree).
    private mutating func fields(depth: Int, labelled: Bool) throws(WireError) -> [Value.Field] {
        let count = try count()
        var fields: [Value.Field] = []
        fields.reserveCapacity(count)
        for _ in 0..<count {
            let label = try optionalString()
            if labelled, label == nil {
                throw WireError(description: "a record's field has no label (at offset \(offset))")
            }
            fields.append(Value.Field(label, try value(depth: depth + 1)))
        }
        return fields
    }

    /// Reads past a value as `value()` reads it, throwing where it throws, without
    /// building it; returns how many values it holds (itself and every nested one).
    package mutating func skipValue() throws(WireError) -> Int { try skipValue(depth: 0) }

    private mutating func skipValue(depth: Int) throws(WireError) -> Int {
        let kind = try u8()
        if kind >= 5, depth >= Value.maxDepth {
            throw WireError(description: "a value nested more than \(Value.maxDepth) levels")
        }
        switch kind {
        case 0: return 1
        case 1:
            _ = try u8()
            return 1
        case 2, 3:
            _ = try take(8)
            return 1
        case 4:
            try skipString()
            return 1
        case 5:
            var total = 1
            for _ in 0..<(try count()) { total += try skipValue(depth: depth + 1) }
            return total
        case 6:
            if try bool() { try skipString() }
            return 1 + (try skipFields(depth: depth, labelled: true))
        case 7:
            try skipString()
            return 1 + (try skipFields(depth: depth, labelled: false))
        default:
            throw WireError(description: "unknown value kind \(kind)")
        }
    }

    private mutating func skipFields(depth: Int, labelled: Bool) throws(WireError) -> Int {
        var total = 0
        for _ in 0..<(try count()) {
            let hasLabel = try bool()
            if hasLabel { try skipString() }
            if labelled, !hasLabel {
                throw WireError(description: "a record's field has no label (at offset \(offset))")
            }
            total += try skipValue(depth: depth + 1)
        }
        return total
    }

    private mutating func skipString() throws(WireError) {
        _ = try take(Int(try u32()))
    }

    package mutating func values() throws(WireError) -> [Value] {
        let count = try count()
        var items: [Value] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try value()) }
        return items
    }
}

extension WireReader {
    /// Throws when bytes are left after `what` ("the value"), which should have ended them.
    package func finish(after what: String) throws(WireError) {
        let left = byteCount - offset
        guard left > 0 else { return }
        throw WireError(description: "\(left) byte\(left == 1 ? " follows" : "s follow") \(what)")
    }
}
