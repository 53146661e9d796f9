/// `Encodable` straight to a `Value`, for encodings read once (a small state, a whole
/// encoding): no tree is kept to compare the next encoding with, and a value is finished
/// as soon as its own encoding returns, so a record costs its place and its fields. It gives what the change tracker's encoding gives;
/// an encoding that mixes container kinds in one place (keyed fields, then elements) is
/// handed to the tracker's encoding, which defines what that means.
enum PlainEncoding {
    static func value<T: Encodable>(of value: T) throws -> Value {
        // Unlimited: never nil.
        try self.value(of: value, within: .max)!
    }

    /// The value, or nil as soon as it holds `limit` values: a state too big to send whole
    /// is found out without encoding all of it.
    static func value<T: Encodable>(of value: T, within limit: Int) throws -> Value? {
        if let scalar = try Scalars.value(of: value, codingPath: []) { return limit > 1 ? scalar : nil }
        // The root is one value; the limit-th value is one too many.
        let slot = PlainSlot(encoding: PlainSlot.Encoding(remaining: limit - 2))
        do {
            try encodeInStableOrder(value, to: PlainEncoder(slot: slot, codingPath: []))
        } catch is PlainSlot.Encoding.Spent {
            return nil
        }
        if slot.encoding.remaining < 0 { return nil }  // nested containers count without throwing
        if let result = slot.seal(), !slot.encoding.misused { return result }
        return try TrackedNode.encode(value, against: nil, codingPath: []).value
    }

    /// The value of `value`, written into a container of `slot` at `codingPath`. Its own
    /// encoding is over when this returns, so it is a finished value.
    static func child<T: Encodable>(_ value: T, in slot: PlainSlot, codingPath: @autoclosure () -> [any CodingKey])
        throws -> Value
    {
        try slot.encoding.spend()
        if let scalar = try Scalars.value(of: value, codingPath: codingPath()) { return scalar }
        let child = PlainSlot(encoding: slot.encoding)
        try encodeInStableOrder(value, to: PlainEncoder(slot: child, codingPath: codingPath()))
        return child.seal() ?? .null  // nil only when misused: the result is not used then
    }
}

/// One place being encoded: the finished values its containers wrote, and the places of
/// nested containers, still open to writes until this place is sealed.
final class PlainSlot {
    /// What all the places of one encoding share.
    final class Encoding {
        struct Spent: Error {}
        // Unchecked exclusivity here and in the slot: one encoding writes them, on one
        // thread, and no access spans a call; the checks were a tenth of a small state's
        // encoding.
        /// How many more values the encoding may hold.
        @exclusivity(unchecked) var remaining: Int
        /// Containers of different kinds wrote in one place, or a container wrote after its
        /// value was taken: the tracker's encoding decides what that gives.
        @exclusivity(unchecked) var misused = false

        init(remaining: Int) { self.remaining = remaining }

        func spend() throws(Spent) {
            remaining -= 1
            if remaining < 0 { throw Spent() }
        }
    }

    private enum Kind { case empty, keyed, unkeyed, single }

    let encoding: Encoding
    @exclusivity(unchecked) private var kind = Kind.empty
    @exclusivity(unchecked) private var fields: [Value.Field] = []
    @exclusivity(unchecked) private var items: [Value] = []
    @exclusivity(unchecked) private var single = Value.null
    /// Nested containers' places, by their position in `fields` or `items`.
    @exclusivity(unchecked) private var nested: [(position: Int, slot: PlainSlot)] = []
    /// Key → position in `fields`, once there are many keys (a dictionary).
    @exclusivity(unchecked) private var keyIndex: [String: Int]?
    @exclusivity(unchecked) private var sealed = false

    init(encoding: Encoding) { self.encoding = encoding }

    var count: Int { items.count }

    /// Whether a write of `kind` may go here; marks the encoding misused when not.
    private func accepts(_ wanted: Kind) -> Bool {
        if kind == .empty, !sealed { kind = wanted }
        if kind == wanted, !sealed { return true }
        encoding.misused = true
        return false
    }

    func becomeKeyed() { _ = accepts(.keyed) }
    func becomeUnkeyed() { _ = accepts(.unkeyed) }

    /// Puts `value` under `key`, replacing what an earlier write of the same key put (a
    /// nested container there then writes nowhere, as in the tracker's encoding).
    func set(_ value: Value, forKey key: String, nestedSlot: PlainSlot? = nil) {
        guard accepts(.keyed) else { return }
        let position: Int
        if let index = keyIndex?[key] ?? (keyIndex == nil ? fields.firstIndex { $0.label == key } : nil) {
            position = index
            fields[index].value = value
            nested.removeAll { $0.position == index }
        } else {
            position = fields.count
            fields.append(Value.Field(key, value))
            if keyIndex != nil {
                keyIndex![key] = position
            } else if fields.count > 16 {
                keyIndex = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.label ?? "", $0) })
            }
        }
        if let nestedSlot { nested.append((position, nestedSlot)) }
    }

    func append(_ value: Value, nestedSlot: PlainSlot? = nil) {
        guard accepts(.unkeyed) else { return }
        if let nestedSlot { nested.append((items.count, nestedSlot)) }
        items.append(value)
    }

    /// What a single-value container writes: the whole of this place (once).
    func adopt(_ value: Value) {
        guard kind == .empty, !sealed else {
            encoding.misused = true
            return
        }
        kind = .single
        single = value
    }

    /// The value written here, nested containers' values in place; later writes are a
    /// misuse. Nil when the encoding was misused.
    func seal() -> Value? {
        sealed = true
        for (position, slot) in nested {
            guard let value = slot.seal() else { return nil }
            switch kind {
            case .keyed: fields[position].value = value
            case .unkeyed: items[position] = value
            case .empty, .single: break
            }
        }
        if encoding.misused { return nil }
        switch kind {
        case .empty, .keyed: return .record(type: nil, fields: fields)
        case .unkeyed: return .array(items)
        case .single: return single
        }
    }
}

private struct PlainEncoder: Encoder {
    let slot: PlainSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.becomeKeyed()
        return KeyedEncodingContainer(PlainKeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.becomeUnkeyed()
        return PlainUnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlainSingleContainer(slot: slot, codingPath: codingPath)
    }
}

private struct PlainKeyedContainer<Key: CodingKey>: NullWritingContainer {
    let slot: PlainSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        try slot.encoding.spend()
        slot.set(.null, forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        slot.set(try PlainEncoding.child(value, in: slot, codingPath: codingPath + [key]), forKey: key.stringValue)
    }

    /// A nested container's place: one value (it cannot throw; the end of the encoding
    /// checks the count).
    private func nested(_ key: String) -> PlainSlot {
        slot.encoding.remaining -= 1
        let child = PlainSlot(encoding: slot.encoding)
        slot.set(.null, forKey: key, nestedSlot: child)
        return child
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = nested(key.stringValue)
        child.becomeKeyed()
        return KeyedEncodingContainer(PlainKeyedContainer<NestedKey>(slot: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = nested(key.stringValue)
        child.becomeUnkeyed()
        return PlainUnkeyedContainer(slot: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        PlainEncoder(slot: nested("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        PlainEncoder(slot: nested(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct PlainUnkeyedContainer: UnkeyedEncodingContainer {
    let slot: PlainSlot
    let codingPath: [any CodingKey]
    var count: Int { slot.count }

    /// A nested container's place, as for keyed containers.
    private func nested() -> PlainSlot {
        slot.encoding.remaining -= 1
        let child = PlainSlot(encoding: slot.encoding)
        slot.append(.null, nestedSlot: child)
        return child
    }

    mutating func encodeNil() throws {
        try slot.encoding.spend()
        slot.append(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.append(try PlainEncoding.child(value, in: slot, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = nested()
        child.becomeKeyed()
        return KeyedEncodingContainer(PlainKeyedContainer<NestedKey>(slot: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = nested()
        child.becomeUnkeyed()
        return PlainUnkeyedContainer(slot: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        PlainEncoder(slot: nested(), codingPath: codingPath)
    }
}

private struct PlainSingleContainer: SingleValueEncodingContainer {
    let slot: PlainSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.adopt(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The place was counted when it was made: what it holds is the same value.
        slot.encoding.remaining += 1
        slot.adopt(try PlainEncoding.child(value, in: slot, codingPath: codingPath))
    }
}
