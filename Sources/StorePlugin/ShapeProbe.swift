/// What a probed type's `init(from:)` asked for: the fields of a keyed container in
/// order, or the one value of a single-value container.
final class ProbeRecording {
    let discovery: ShapeDiscovery
    private var fields: [TypeShape.Field] = []
    private var single: TypeShape?
    private var listed = false

    init(discovery: ShapeDiscovery) {
        self.discovery = discovery
    }

    /// Records a field `key` of `type`, or of `type?` for `decodeIfPresent`.
    func field(_ key: String, _ shape: TypeShape) {
        guard !fields.contains(where: { $0.label == key }) else { return }
        fields.append(.init(key, shape))
    }

    func value(_ shape: TypeShape) { single = shape }
    /// The single value's shape, if the type decoded one.
    var singleValue: TypeShape? { single }
    func list() { listed = true }

    /// The shape recorded, `name` being the probed type's.
    func shape(named name: String) -> TypeShape {
        if let single { return single }
        if listed { return .list(.any) }
        return .record(name: name, fields: fields)
    }
}

/// The decoder a probed type decodes from: every request is recorded and answered with a
/// stand-in value (see `ShapeDiscovery.standIn`).
struct ProbeDecoder: Decoder {
    let recording: ProbeRecording
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(recording: recording, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        recording.list()
        return ProbeEmptyList(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValue(recording: recording, codingPath: codingPath)
    }
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recording: ProbeRecording
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        recording.field(key.stringValue, recording.discovery.shape(of: type))
        return try recording.discovery.standIn(for: type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        recording.field(key.stringValue, .optional(recording.discovery.shape(of: type)))
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(type, key) }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T { try decode(type, forKey: key) }
    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        recording.field(key.stringValue, .optional(recording.discovery.shape(of: type)))
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        recording.field(key.stringValue, .any)
        throw ProbeError.unknown
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        recording.field(key.stringValue, .list(.any))
        return ProbeEmptyList(codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { throw ProbeError.unknown }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeError.unknown }
}

/// A single value: its type is the probed type's shape.
struct ProbeSingleValue: SingleValueDecodingContainer {
    let recording: ProbeRecording
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        recording.value(recording.discovery.shape(of: type))
        return try recording.discovery.standIn(for: type)
    }
    func decode(_ type: Bool.Type) throws -> Bool { try decode(type as Bool.Type, generic: ()) }
    func decode(_ type: String.Type) throws -> String { try decode(type, generic: ()) }
    func decode(_ type: Double.Type) throws -> Double { try decode(type, generic: ()) }
    func decode(_ type: Float.Type) throws -> Float { try decode(type, generic: ()) }
    func decode(_ type: Int.Type) throws -> Int { try decode(type, generic: ()) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, generic: ()) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, generic: ()) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, generic: ()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, generic: ()) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(type, generic: ()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, generic: ()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, generic: ()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, generic: ()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, generic: ()) }

    private func decode<T: Decodable>(_ type: T.Type, generic: Void) throws -> T { try decode(type) }
}

/// An empty list: a probed list decodes no element.
struct ProbeEmptyList: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { throw ProbeError.unknown }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ProbeError.unknown }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    { throw ProbeError.unknown }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeError.unknown }
    mutating func superDecoder() throws -> any Decoder { throw ProbeError.unknown }
}
