/// A state that writes its own wire encoding: the very bytes its synthesized `Encodable`
/// conformance gives through `WireStateEncoder`, written field by field without an
/// `Encoder`, its containers and their generic lookups (a counter's snapshot was mostly
/// those). `@PluginState` writes the conformance from the struct's stored properties;
/// written by hand, it must write what `encode(to:)` encodes, in its order.
///
/// A snapshot checks the first state of each store both ways and keeps to `Encodable` when
/// they differ (`ChangeTracker.encodeSnapshot`), so a conformance that does not match its
/// `Encodable` (a `CodingKeys` or `encode(to:)` declared in an extension) costs speed, not
/// correctness.
public protocol WireStateWritable: Encodable {
    /// Writes this value as one record: `writer.beginRecord()`, a `field` for each
    /// property `encode(to:)` encodes, in its order, then `writer.end(_:)`.
    func writeWireState(to writer: WireStateWriter) throws
}

/// What a `WireStateWritable` writes through: records and their fields, each field's value
/// as `Encodable` would encode it (scalars directly, a nested `WireStateWritable` through
/// its own conformance, anything else through its `Encodable`). Valid only during the
/// `writeWireState` call it is given to.
public struct WireStateWriter {
    let encoder: WireStateEncoder

    init(_ encoder: WireStateEncoder) {
        self.encoder = encoder
    }

    /// An open record: where its field count goes, and how many fields it has so far.
    public struct Record {
        let countOffset: Int
        var fields: UInt32 = 0
    }

    /// Begins a record: the root's is named after the state's type, as `Encodable`'s is.
    public func beginRecord() throws -> Record {
        try encoder.beginDirectRecord()
    }

    /// Ends `record`, writing its field count.
    public func end(_ record: Record) {
        encoder.endDirectRecord(record)
    }

    /// A `Int` field of `record`, named `key`.
    public func field(_ key: String, _ value: Int, in record: inout Record) throws {
        try scalar(key, .int(Int64(value)), in: &record)
    }

    /// A `Int64` field of `record`, named `key`.
    public func field(_ key: String, _ value: Int64, in record: inout Record) throws {
        try scalar(key, .int(value), in: &record)
    }

    /// A `Int32` field of `record`, named `key`.
    public func field(_ key: String, _ value: Int32, in record: inout Record) throws {
        try scalar(key, .int(Int64(value)), in: &record)
    }

    /// A `Bool` field of `record`, named `key`.
    public func field(_ key: String, _ value: Bool, in record: inout Record) throws {
        try scalar(key, .bool(value), in: &record)
    }

    /// A `Double` field of `record`, named `key`.
    public func field(_ key: String, _ value: Double, in record: inout Record) throws {
        try scalar(key, .double(value), in: &record)
    }

    /// A `String` field of `record`, named `key`.
    public func field(_ key: String, _ value: String, in record: inout Record) throws {
        try scalar(key, .string(value), in: &record)
    }

    /// A nested state that writes itself.
    public func field<Nested: WireStateWritable>(_ key: String, _ value: Nested, in record: inout Record) throws {
        label(key, in: &record)
        try value.writeWireState(to: self)
    }

    /// An optional property: `null` when nil, as storesh's encoding writes a nil optional.
    public func field<Wrapped: Encodable>(_ key: String, _ value: Wrapped?, in record: inout Record) throws {
        guard let value else { return try null(key, in: &record) }
        try field(key, value, in: &record)
    }

    /// An optional nested state: `null` when nil.
    public func field<Nested: WireStateWritable>(_ key: String, _ value: Nested?, in record: inout Record) throws {
        guard let value else { return try null(key, in: &record) }
        try field(key, value, in: &record)
    }

    /// Any other value, through its `Encodable` conformance.
    public func field<Value: Encodable>(_ key: String, _ value: Value, in record: inout Record) throws {
        label(key, in: &record)
        try encoder.writeDirectNested(value)
    }

    private func null(_ key: String, in record: inout Record) throws {
        label(key, in: &record)
        try encoder.writeNull()
    }

    private func scalar(_ key: String, _ value: Value, in record: inout Record) throws {
        label(key, in: &record)
        try encoder.writeScalar(value)
    }

    /// One more field of `record`, its label written.
    private func label(_ key: String, in record: inout Record) {
        encoder.putLabel(key)
        record.fields += 1
    }
}

// What a `WireStateWriter` writes with: the same bytes, counted the same way (a value per
// record and scalar, within the encoding's limit), as the `Encodable` path writes.
extension WireStateEncoder {
    func beginDirectRecord() throws -> WireStateWriter.Record {
        guard active, !abandoned else { throw Abandon() }
        try node()
        putRecordHeader(name: directRootName)
        directRootName = nil
        let record = WireStateWriter.Record(countOffset: buffer.count)
        putU32(0)
        return record
    }

    func endDirectRecord(_ record: WireStateWriter.Record) {
        buffer.overwrite(littleEndian: record.fields, at: record.countOffset)
    }

    /// A value through its `Encodable`, its containers closed before the next field.
    func writeDirectNested<T: Encodable>(_ value: T) throws {
        let depth = frames.count
        try writeValue(value, name: nil, codingPath: [])
        if abandoned { throw Abandon() }
        close(downTo: depth)
    }
}
