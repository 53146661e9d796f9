// The encoders and containers a `WireStateEncoder` hands to `encode(to:)`.

/// The `Encoder` for one place of a `WireStateEncoder`'s encoding.
struct WireEncoderPlace: Encoder {
    let encoder: WireStateEncoder
    let place: UInt64
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = encoder.begin(keyed: true, in: place)
        return KeyedEncodingContainer(
            WireKeyedContainer<Key>(
                encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0, codingPath: codingPath)
        )
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = encoder.begin(keyed: false, in: place)
        return WireUnkeyedContainer(
            encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        WireSingleContainer(
            encoder: encoder, place: place, name: encoder.pendingPlace == place ? encoder.pendingName : nil,
            codingPath: codingPath)
    }
}

/// A container whose writes are given up on: `superEncoder`'s place, which may be
/// written after its siblings.
func abandonedEncoder(_ encoder: WireStateEncoder, codingPath: [any CodingKey]) -> any Encoder {
    encoder.abandon()
    return WireEncoderPlace(encoder: encoder, place: 0, codingPath: codingPath)
}

private struct WireKeyedContainer<Key: CodingKey>: NullWritingContainer {
    let encoder: WireStateEncoder
    let depth: Int
    let generation: UInt64
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        try encoder.element(at: depth, generation: generation, key: key.stringValue)
        try encoder.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.element(at: depth, generation: generation, key: key.stringValue)
        try encoder.writeValue(value, name: nil, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let frame = try? nested(key, keyed: true)
        return KeyedEncodingContainer(
            WireKeyedContainer<NestedKey>(
                encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0,
                codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let frame = try? nested(key, keyed: false)
        return WireUnkeyedContainer(
            encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0,
            codingPath: codingPath + [key])
    }

    private func nested(_ key: Key, keyed: Bool) throws -> (depth: Int, generation: UInt64) {
        try encoder.element(at: depth, generation: generation, key: key.stringValue)
        return try encoder.nested(keyed: keyed)
    }

    mutating func superEncoder() -> any Encoder { abandonedEncoder(encoder, codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        abandonedEncoder(encoder, codingPath: codingPath + [key])
    }
}

private struct WireUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: WireStateEncoder
    let depth: Int
    let generation: UInt64
    let codingPath: [any CodingKey]
    var count: Int { encoder.elements(at: depth, generation: generation) }

    mutating func encodeNil() throws {
        try encoder.element(at: depth, generation: generation, key: nil)
        try encoder.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.element(at: depth, generation: generation, key: nil)
        try encoder.writeValue(value, name: nil, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let frame = try? nested(keyed: true)
        return KeyedEncodingContainer(
            WireKeyedContainer<NestedKey>(
                encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0, codingPath: codingPath)
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = try? nested(keyed: false)
        return WireUnkeyedContainer(
            encoder: encoder, depth: frame?.depth ?? -1, generation: frame?.generation ?? 0, codingPath: codingPath)
    }

    private func nested(keyed: Bool) throws -> (depth: Int, generation: UInt64) {
        try encoder.element(at: depth, generation: generation, key: nil)
        return try encoder.nested(keyed: keyed)
    }

    mutating func superEncoder() -> any Encoder { abandonedEncoder(encoder, codingPath: codingPath) }
}

/// A single-value container: its one value fills its place, a record there taking the
/// place's name (the root's type reaches through wrappers, as `ChangeTracker` names it).
private struct WireSingleContainer: SingleValueEncodingContainer {
    let encoder: WireStateEncoder
    let place: UInt64
    let name: String?
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        try take()
        try encoder.writeNull()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try take()
        try encoder.writeValue(value, name: name, codingPath: codingPath)
    }

    /// The place, which must be waiting still: a second write to it gives up.
    private func take() throws {
        guard encoder.pendingPlace == place, !encoder.abandoned else {
            encoder.abandon()
            throw WireStateEncoder.Abandon()
        }
        encoder.pendingPlace = nil
    }
}
