public import CStorePlugin

extension Value {
    /// Reads a C value tree (see `sp_value`); the tree is not freed.
    public init(reading pointer: UnsafePointer<sp_value>) {
        let raw = pointer.pointee
        func child(_ index: Int) -> Value {
            guard let items = raw.items, let item = items[index] else { return .null }
            return Value(reading: item)
        }
        func label(_ index: Int) -> String? {
            guard let names = raw.names, let name = names[index] else { return nil }
            return String(cString: name)
        }
        let count = Int(raw.count)
        switch sp_kind(rawValue: raw.kind) {
        case SP_BOOL: self = .bool(raw.scalar.boolean)
        case SP_INT: self = .int(raw.scalar.integer)
        case SP_DOUBLE: self = .double(raw.scalar.real)
        case SP_STRING: self = .string(raw.text.map { String(cString: $0) } ?? "")
        case SP_ARRAY: self = .array((0..<count).map(child))
        case SP_RECORD:
            self = .record(type: raw.text.map { String(cString: $0) },
                           fields: (0..<count).map { Field(label($0) ?? "", child($0)) })
        case SP_ENUM:
            self = .enumCase(name: raw.text.map { String(cString: $0) } ?? "",
                             payload: (0..<count).map { Field(label($0), child($0)) })
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
            return Self.fill(host.value_array(), with: items.map { Field(nil, $0) }, host: host)
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
            let status = field.label.map { label in label.withCString { host.value_append(container, $0, child) } }
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
