/// Turns any `Encodable` into a `Value`: keyed containers become records (fields in
/// encoding order), unkeyed ones arrays, single values scalars.
public struct ValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Value {
        let root = EncodingNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value being built: a scalar, or a container that children are added to later.
/// Children are appended in place, so a list of n items costs O(n), not O(n²).
private final class EncodingNode {
    enum Kind {
        case empty, scalar, keyed, unkeyed
    }

    var kind = Kind.empty
    var scalar = Value.null
    var keyed: [(String, EncodingNode)] = []
    var unkeyed: [EncodingNode] = []

    var value: Value {
        switch kind {
        case .empty: return .record(type: nil, fields: [])
        case .scalar: return scalar
        case .keyed: return .record(type: nil, fields: keyed.map { .init($0.0, $0.1.value) })
        case .unkeyed: return .array(unkeyed.map(\.value))
        }
    }

    func set(_ value: Value) {
        kind = .scalar
        scalar = value
    }

    func child(forKey key: String) -> EncodingNode {
        becomeKeyed()
        if let found = keyed.first(where: { $0.0 == key }) { return found.1 }
        let node = EncodingNode()
        keyed.append((key, node))
        return node
    }

    func appendChild() -> EncodingNode {
        becomeUnkeyed()
        let node = EncodingNode()
        unkeyed.append(node)
        return node
    }

    func becomeKeyed() { if kind == .empty { kind = .keyed } }
    func becomeUnkeyed() { if kind == .empty { kind = .unkeyed } }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeKeyed()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeUnkeyed()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeContainer(node: node, codingPath: codingPath)
    }
}

/// Encodes scalars; shared by the three container kinds.
private func scalar<T: Encodable>(_ value: T, into node: EncodingNode, codingPath: [any CodingKey]) throws {
    if let scalar = try Scalars.value(of: value, codingPath: codingPath) {
        node.set(scalar)
    } else {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: NullWritingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try scalar(value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.becomeKeyed()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.becomeUnkeyed()
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.unkeyed.count }

    mutating func encodeNil() throws { node.appendChild().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try scalar(value, into: node.appendChild(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.appendChild()
        child.becomeKeyed()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.appendChild()
        child.becomeUnkeyed()
        return UnkeyedNodeContainer(node: child, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appendChild(), codingPath: codingPath) }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try scalar(value, into: node, codingPath: codingPath)
    }
}
