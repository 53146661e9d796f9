/// Builds any `Decodable` from a `Value`: records (and enum payloads) are keyed
/// containers, arrays unkeyed ones. Integers and doubles convert where exact.
public struct ValueDecoder {
    /// A decoder (it holds no options).
    public init() {}

    /// Decodes a `T` from `value`; a shape or kind that does not fit throws a
    /// `DecodingError` naming the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try T(from: NodeDecoder(value: value, codingPath: []))
    }
}

private func mismatch(_ expected: String, _ value: Value, _ codingPath: [any CodingKey]) -> DecodingError {
    .typeMismatch(
        Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
}

private func decodeScalar<T: Decodable>(_ type: T.Type, from value: Value, codingPath: [any CodingKey]) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
        switch value {
        case .int(let v):
            guard let exact = I(exactly: v) else { throw mismatch("\(I.self)", value, codingPath) }
            return exact
        case .double(let v):
            guard let exact = I(exactly: v) else { throw mismatch("\(I.self)", value, codingPath) }
            return exact
        default: throw mismatch("an integer", value, codingPath)
        }
    }
    switch type {
    case is Bool.Type:
        guard case .bool(let v) = value else { throw mismatch("a bool", value, codingPath) }
        return v as! T
    case is String.Type:
        guard case .string(let v) = value else { throw mismatch("a string", value, codingPath) }
        return v as! T
    case is Double.Type, is Float.Type:
        let real: Double
        switch value {
        case .double(let v): real = v
        case .int(let v): real = Double(v)
        default: throw mismatch("a number", value, codingPath)
        }
        return (type is Float.Type ? Float(real) as Any : real as Any) as! T
    case is Int.Type: return try integer(Int.self) as! T
    case is Int8.Type: return try integer(Int8.self) as! T
    case is Int16.Type: return try integer(Int16.self) as! T
    case is Int32.Type: return try integer(Int32.self) as! T
    case is Int64.Type: return try integer(Int64.self) as! T
    case is UInt.Type: return try integer(UInt.self) as! T
    case is UInt8.Type: return try integer(UInt8.self) as! T
    case is UInt16.Type: return try integer(UInt16.self) as! T
    case is UInt32.Type: return try integer(UInt32.self) as! T
    case is UInt64.Type: return try integer(UInt64.self) as! T
    default: return try T(from: NodeDecoder(value: value, codingPath: codingPath))
    }
}

private struct NodeDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .record, .enumCase:
            return KeyedDecodingContainer(KeyedValueContainer<Key>(fields: value.children, codingPath: codingPath))
        default: throw mismatch("a record", value, codingPath)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch("an array", value, codingPath) }
        return UnkeyedValueContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = "\(index)"
    }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { return nil }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [Value.Field]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.compactMap { $0.label.flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { fields.contains { $0.label == key.stringValue } }

    private func value(for key: Key) throws -> Value {
        guard let field = fields.first(where: { $0.label == key.stringValue }) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no field \"\(key.stringValue)\""))
        }
        return field.value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decodeScalar(type, from: value(for: key), codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try NodeDecoder(value: value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(value: value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        NodeDecoder(value: (try? value(for: Key(stringValue: "super")!)) ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(value: try value(for: key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let items: [Value]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> (Value, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "array has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try decodeScalar(type, from: value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let (value, path) = try next()
        return try NodeDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try NodeDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return NodeDecoder(value: value, codingPath: path)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeScalar(type, from: value, codingPath: codingPath)
    }
}
