/// `Encodable` straight to a `Value`, for encodings read once (a small state, a whole
/// encoding): no tree is kept to compare the next encoding with, so it allocates a box per
/// container and nothing per scalar. It gives what the change tracker's encoding gives;
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
        let budget = PlainSlot.Budget(remaining: limit - 2)
        let slot = PlainSlot(budget: budget)
        do {
            try encodeInStableOrder(value, to: PlainEncoder(slot: slot, codingPath: []))
        } catch is PlainSlot.Budget.Spent {
            return nil
        }
        if budget.remaining < 0 { return nil } // nested containers count without throwing
        if let result = slot.value { return result }
        return try TrackedNode.encode(value, against: nil, codingPath: []).value
    }

    /// The value of `value` inside a container of `slot` being encoded at `codingPath`.
    static func child<T: Encodable>(_ value: T, in slot: PlainSlot, codingPath: @autoclosure () -> [any CodingKey]) throws -> PlainSlot.Child {
        try slot.budget.spend()
        if let scalar = try Scalars.value(of: value, codingPath: codingPath()) { return .value(scalar) }
        let child = PlainSlot(budget: slot.budget)
        try encodeInStableOrder(value, to: PlainEncoder(slot: child, codingPath: codingPath()))
        return .slot(child)
    }
}

/// One place being encoded: what its containers wrote, kept until the whole encoding ends.
final class PlainSlot {
    /// How many more values the whole encoding may hold.
    final class Budget {
        struct Spent: Error {}
        var remaining: Int
        init(remaining: Int) { self.remaining = remaining }

        func spend() throws(Spent) {
            remaining -= 1
            if remaining < 0 { throw Spent() }
        }
    }

    let budget: Budget

    init(budget: Budget) { self.budget = budget }

    /// A member: a finished value, or a nested container's place, still open to writes.
    enum Child {
        case value(Value)
        case slot(PlainSlot)
    }

    private enum Content {
        case empty
        case keyed(keys: [String], children: [Child])
        case unkeyed([Child])
        /// What a single-value container wrote.
        case single(Child)
    }

    private var content = Content.empty
    /// Containers of different kinds wrote here: the encoding is the tracker's to make.
    private var mixed = false
    /// Key → index in the keyed content, once it has many keys.
    private var keyIndex: [String: Int]?

    /// The encoded value; nil when this place or one inside it was mixed.
    var value: Value? {
        if mixed { return nil }
        switch content {
        case .empty: return .record(type: nil, fields: [])
        case .single(let child): return Self.value(of: child)
        case .keyed(let keys, let children):
            var fields: [Value.Field] = []
            fields.reserveCapacity(keys.count)
            for (key, child) in zip(keys, children) {
                guard let value = Self.value(of: child) else { return nil }
                fields.append(Value.Field(key, value))
            }
            return .record(type: nil, fields: fields)
        case .unkeyed(let children):
            var items: [Value] = []
            items.reserveCapacity(children.count)
            for child in children {
                guard let value = Self.value(of: child) else { return nil }
                items.append(value)
            }
            return .array(items)
        }
    }

    private static func value(of child: Child) -> Value? {
        switch child {
        case .value(let value): value
        case .slot(let slot): slot.value
        }
    }

    var count: Int {
        if case .unkeyed(let children) = content { return children.count }
        return 0
    }

    func becomeKeyed() {
        switch content {
        case .empty: content = .keyed(keys: [], children: [])
        case .keyed: break
        default: mixed = true
        }
    }

    func becomeUnkeyed() {
        switch content {
        case .empty: content = .unkeyed([])
        case .unkeyed: break
        default: mixed = true
        }
    }

    /// Puts `child` under `key`, replacing what an earlier write of the same key put.
    func set(_ child: Child, forKey key: String) {
        becomeKeyed()
        guard case .keyed(var keys, var children) = content else { return }
        content = .empty // released while changed, so the arrays are not copied
        if let index = keyIndex?[key] ?? (keyIndex == nil ? keys.firstIndex(of: key) : nil) {
            children[index] = child
        } else {
            keys.append(key)
            children.append(child)
            // A dictionary encodes as a keyed container: past a few keys, look them up.
            if keyIndex != nil {
                keyIndex![key] = keys.count - 1
            } else if keys.count > 16 {
                keyIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
            }
        }
        content = .keyed(keys: keys, children: children)
    }

    func append(_ child: Child) {
        becomeUnkeyed()
        guard case .unkeyed(var children) = content else { return }
        content = .empty
        children.append(child)
        content = .unkeyed(children)
    }

    /// What a single-value container writes: the whole of this place.
    func adopt(_ child: Child) {
        if case .empty = content { content = .single(child) } else { mixed = true }
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
        try slot.budget.spend()
        slot.set(.value(.null), forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        slot.set(try PlainEncoding.child(value, in: slot, codingPath: codingPath + [key]), forKey: key.stringValue)
    }

    /// A nested container's place: one value (it cannot throw; the end of the encoding
    /// checks the count).
    private func nested(_ key: String) -> PlainSlot {
        slot.budget.remaining -= 1
        let child = PlainSlot(budget: slot.budget)
        slot.set(.slot(child), forKey: key)
        return child
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
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

    private func nested() -> PlainSlot {
        slot.budget.remaining -= 1
        let child = PlainSlot(budget: slot.budget)
        slot.append(.slot(child))
        return child
    }

    mutating func encodeNil() throws {
        try slot.budget.spend()
        slot.append(.value(.null))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.append(try PlainEncoding.child(value, in: slot, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
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

    mutating func encodeNil() throws { slot.adopt(.value(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The place was counted when it was made: what it holds is the same value.
        slot.budget.remaining += 1
        slot.adopt(try PlainEncoding.child(value, in: slot, codingPath: codingPath))
    }
}
