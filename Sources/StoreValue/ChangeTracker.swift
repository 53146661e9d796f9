/// Snapshots of one state over time that cost what changed, not what is there: each
/// `changes(of:)` encodes the state against the tree the previous call left, reusing every
/// `Equatable` part equal to what it was (a list of 100,000 records with one toggled is
/// 100,000 comparisons and one record encoded), and reports the difference as patches.
/// A plugin's `snapshot_changes` is built on it.
public final class ChangeTracker {
    private var tree: TrackedNode?
    let rootType: String?
    /// The last snapshot had fewer than `smallState` values in it (and `tree` is nil).
    private var isSmall = false
    let smallState: Int
    /// Writes small states' snapshots (`encodeSnapshot`), its buffer reused by each.
    let wireEncoder = WireStateEncoder()
    /// Whether small snapshots are written by the state itself (`WireStateWritable`).
    var directWriting = DirectWriting.unresolved
    /// Whether `tree` was made by `snapshot(of:)`, not by `changes(of:)`.
    private var treeIsAWholeRead = false

    /// `rootType` names the state's record (the model's type), as full snapshots do.
    /// States of fewer than `smallState` values are not tracked: a whole snapshot of a
    /// counter costs less than working out what changed in it.
    public init(rootType: String? = nil, smallState: Int = 64) {
        self.rootType = rootType
        self.smallState = smallState
    }

    /// The whole state, and the tree later calls compare against (none for a small state).
    public func snapshot<T: Encodable>(of state: T) throws -> Value {
        // A state that was small is encoded plainly first; one that grew past small is
        // found out within `smallState` values, and encoded again, tracked.
        if isSmall || tree == nil, let plain = try PlainEncoding.value(of: state, within: smallState) {
            (tree, isSmall) = (nil, true)
            return named(plain)
        }
        // Against the last whole read's tree, when there is one: what did not change since is
        // that tree's node, not encoded again (a state read whole after every step, as
        // explore's probes read it, cost an encoding of every element of every list). One
        // right after `changes(of:)` is encoded afresh: it is what `--check-changes` compares
        // the changes with, so it must not share their choice of what to keep. The encoding
        // takes nodes from the old tree, so one that throws leaves no baseline.
        let old = treeIsAWholeRead ? tree : nil
        tree = nil
        let root = try Self.encode(state, against: old)
        let value = root.value
        isSmall = value.isSmaller(than: smallState)
        tree = isSmall ? nil : root
        treeIsAWholeRead = true
        return named(value)
    }

    /// Encodes the whole state, as `snapshot(of:)` gives it, straight to wire bytes (kept in
    /// `encodedSnapshot`) when it is small — the state a host reads whole after every
    /// action — without building its value: through the state's own `WireStateWritable`
    /// when it has one that writes what its `Encodable` does, else through `Encodable`.
    /// False when it is not small, or when its encoding needs the value tree or throws:
    /// take `snapshot(of:)` then.
    public func encodeSnapshot<T: Encodable>(of state: T) -> Bool {
        guard isSmall || tree == nil, encodeSmall(state) else { return false }
        (tree, isSmall) = (nil, true)
        return true
    }

    /// The bytes the last `encodeSnapshot(of:)` that succeeded wrote; valid until the
    /// tracker's next call.
    public var encodedSnapshot: UnsafeRawBufferPointer { wireEncoder.bytes }

    /// What changed since the last `snapshot(of:)` or `changes(of:)`: nil when there was
    /// none, or when the state was small enough that a snapshot costs less than working
    /// out changes (take a snapshot then); else the patches, empty when nothing changed.
    public func changes<T: Encodable>(of state: T) throws -> [StatePatch]? {
        guard let old = tree, !isSmall else { return nil }
        tree = nil  // an encoding that throws leaves no baseline: the next call says nil
        let root = try Self.encode(state, against: old)
        var patches: [StatePatch] = []
        var path: [StatePatch.Segment] = []
        root.collect(against: old, path: &path, into: &patches)
        tree = root
        treeIsAWholeRead = false
        return patches.map { patch in
            if case .set(let path, let value) = patch, path.isEmpty { return .set(path: [], value: named(value)) }
            return patch
        }
    }

    /// Forgets the baseline: the next `changes(of:)` returns nil.
    public func reset() { (tree, isSmall) = (nil, false) }

    private func named(_ value: Value) -> Value {
        if let rootType, case .record(_, let fields) = value { return .record(type: rootType, fields: fields) }
        return value
    }

    /// The root is not compared with the last state by `==` first: a read is asked for after
    /// an action, which mostly changed the state, and `==` then walked a record's long list
    /// element by element, copying each, to the one changed (2,000 toggles in 2,000 todos
    /// with --format json: 155 -> 145 ms). Its fields are compared as they are encoded, a
    /// list by its bytes, so an unchanged state still reports no change.
    private static func encode<T: Encodable>(_ state: T, against old: TrackedNode?) throws -> TrackedNode {
        try TrackedNode.encode(state, against: old, codingPath: [], comparingWhole: false)
    }
}

struct TrackingEncoder: Encoder {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeKeyed()
        return KeyedEncodingContainer(TrackingKeyedContainer<Key>(node: node, old: old, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: node, old: old, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TrackingSingleContainer(node: node, old: old, codingPath: codingPath)
    }
}

private struct TrackingKeyedContainer<Key: CodingKey>: NullWritingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]

    /// The old tree's child where `key` is about to go.
    private func old(_ key: String) -> TrackedNode? {
        old?.oldChild(forKey: key, position: node.keys.count)
    }

    mutating func encodeNil(forKey key: Key) throws { node.set(.scalar(.null), forKey: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = try TrackedNode.encode(value, against: old(key.stringValue), codingPath: codingPath + [key])
        node.set(child, forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        child.becomeKeyed()
        return KeyedEncodingContainer(
            TrackingKeyedContainer<NestedKey>(node: child, old: oldChild, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        child.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: child, old: oldChild, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let (child, oldChild) = (TrackedNode(), old("super"))
        node.set(child, forKey: "super")
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath + [key])
    }
}

private struct TrackingUnkeyedContainer: UnkeyedEncodingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]
    var count: Int { node.children.count }

    /// The old tree's element where the next one goes.
    private var oldElement: TrackedNode? { old?.oldChild(at: node.children.count) }

    /// A new container node in the next place, with the old element there.
    private func nested() -> (TrackedNode, TrackedNode?) {
        let old = oldElement
        let child = TrackedNode()
        node.append(child)
        return (child, old)
    }

    mutating func encodeNil() throws { node.append(.scalar(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try TrackedNode.encode(value, against: oldElement, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let (child, oldChild) = nested()
        child.becomeKeyed()
        return KeyedEncodingContainer(
            TrackingKeyedContainer<NestedKey>(node: child, old: oldChild, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (child, oldChild) = nested()
        child.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: child, old: oldChild, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let (child, oldChild) = nested()
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath)
    }
}

private struct TrackingSingleContainer: SingleValueEncodingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.adopt(.scalar(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.adopt(try TrackedNode.encode(value, against: old, codingPath: codingPath))
    }
}
