public import CStorePlugin

extension Value {
    /// How deeply values may nest: literals typed by users and trees read from plugins
    /// deeper than this are refused with an error, so no recursion over a value (reading,
    /// comparing, diffing, rendering, freeing) can run out of stack.
    public static let maxDepth = 256

    /// A value tree nested deeper than `Value.maxDepth`.
    public struct TooDeep: Error, CustomStringConvertible {
        /// What went wrong, for the user.
        public var description: String { "the value is nested more than \(Value.maxDepth) levels deep (the limit)" }
    }

    /// Reads a C value tree (see `sp_value`); the tree is not freed. Throws for a tree
    /// nested deeper than `maxDepth`.
    public init(reading pointer: UnsafePointer<sp_value>) throws(TooDeep) {
        try self.init(reading: pointer, depth: 0)
    }

    private init(reading pointer: UnsafePointer<sp_value>, depth: Int) throws(TooDeep) {
        let raw = pointer.pointee
        let count = Int(raw.count)
        let kind = sp_kind(rawValue: raw.kind)
        if count > 0, kind == SP_ARRAY || kind == SP_RECORD || kind == SP_ENUM, depth >= Self.maxDepth {
            throw TooDeep()
        }
        // Containers are read straight into the array the value keeps (no list of fields
        // made first and mapped): a sorted list of 2,000 records arrives whole.
        func child(_ index: Int) throws(TooDeep) -> Value {
            guard let item = raw.items?[index] else { return .null }
            return try Value(reading: item, depth: depth + 1)
        }
        func label(_ index: Int) -> String? { raw.names?[index].map { String(cString: $0) } }
        switch kind {
        case SP_BOOL: self = .bool(raw.scalar.boolean)
        case SP_INT: self = .int(raw.scalar.integer)
        case SP_DOUBLE: self = .double(raw.scalar.real)
        case SP_STRING: self = .string(raw.text.map { String(cString: $0) } ?? "")
        case SP_ARRAY:
            var items: [Value] = []
            items.reserveCapacity(count)
            for index in 0..<count { items.append(try child(index)) }
            self = .array(items)
        case SP_RECORD, SP_ENUM:
            var fields: [Field] = []
            fields.reserveCapacity(count)
            // A record's fields all have names (an unnamed one is named ""); an enum
            // payload's values may have none.
            for index in 0..<count {
                fields.append(Field(kind == SP_RECORD ? label(index) ?? "" : label(index), try child(index)))
            }
            let name = raw.text.map { String(cString: $0) }
            self =
                kind == SP_RECORD ? .record(type: name, fields: fields) : .enumCase(name: name ?? "", payload: fields)
        default: self = .null
        }
    }

    /// Builds this value as a C value tree with the host's value functions. The caller
    /// owns the result (free it with `host.value_free`); nil when out of memory.
    public func build(with host: storeplugin_host) -> UnsafeMutablePointer<sp_value>? {
        switch self {
        case .null: return host.value_null()
        case .bool(let v): return host.value_bool(v)
        case .int(let v): return host.value_int(v)
        case .double(let v): return host.value_double(v)
        case .string(let v): return v.withCString { host.value_string($0) }
        case .array(let items):
            guard let container = host.value_array() else { return nil }
            for item in items {
                guard let child = item.build(with: host), host.value_append(container, nil, child) == Int32(SP_OK)
                else {
                    host.value_free(container)
                    return nil
                }
            }
            return container
        case .record(let type, let fields):
            let container = type.map { $0.withCString { host.value_record($0) } } ?? host.value_record(nil)
            return Self.fill(container, with: fields, host: host)
        case .enumCase(let name, let payload):
            return Self.fill(name.withCString { host.value_enum($0) }, with: payload, host: host)
        }
    }

    private static func fill(
        _ container: UnsafeMutablePointer<sp_value>?,
        with fields: [Field],
        host: storeplugin_host
    ) -> UnsafeMutablePointer<sp_value>? {
        guard let container else { return nil }
        for field in fields {
            guard let child = field.value.build(with: host) else {
                host.value_free(container)
                return nil
            }
            let status =
                field.label.map { label in label.withCString { host.value_append(container, $0, child) } }
                ?? host.value_append(container, nil, child)
            guard status == Int32(SP_OK) else {
                host.value_free(container)
                return nil
            }
        }
        return container
    }
}

extension UnsafeMutablePointer where Pointee == sp_error {
    /// Writes `message` into the error's buffer, NUL-terminated and truncated to fit.
    public func write(_ message: String) {
        withUnsafeMutableBytes(of: &pointee.message) { buffer in
            let bytes = Array(message.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }
}
