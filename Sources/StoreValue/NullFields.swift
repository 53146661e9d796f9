/// Keyed containers that write a nil optional as `null` instead of leaving the field out
/// (the standard library's default), so a state shows every field it has: `user: null`.
protocol NullWritingContainer: KeyedEncodingContainerProtocol {}

extension NullWritingContainer {
    private mutating func write<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try write(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try write(value, key) }
}
