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
        let root = try Self.encode(state, against: nil)
        let value = root.value
        isSmall = value.isSmaller(than: smallState)
        tree = isSmall ? nil : root
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

/// One node of an encoded state: a scalar or a container of nodes, with the Swift value
/// it came from when that value is `Equatable` (what lets the next encoding skip it).
/// Nodes are not changed once encoded, so a new tree shares the unchanged ones: a part
/// of the state that did not change is the very node the previous tree had.
final class TrackedNode {
    enum Kind {
        case empty, scalar, keyed, unkeyed
    }

    var kind = Kind.empty { didSet { recordValue = nil } }
    var scalar = Value.null
    var keys: [String] = [] { didSet { recordValue = nil } }
    var children: [TrackedNode] = [] { didSet { recordValue = nil } }
    /// A record's value, made the first time it is asked for: a node is not changed once
    /// encoded, and an element a sort moved keeps its node, so the next sort reports the
    /// same record again (building 2,000 todos' records was a seventh of a sort's cost).
    private var recordValue: Value?
    /// The value this node encodes when it is `Equatable`, to compare the next state's with.
    var original: (any OriginalValue)?
    /// How a long list's elements are compared by their bytes, carried from one encoding
    /// of the list to the next.
    var elementLayout: ByteLayout?
    /// A list that took the old list's nodes instead of copying them (few elements
    /// changed, or some added at the end): the old node it took them from, the old nodes
    /// it replaced, by index, and the old list's length — all `collect` needs. Dropped
    /// once collected.
    var taken: (from: TrackedNode, replaced: [(index: Int, node: TrackedNode)], oldCount: Int)?
    /// Key → index in `keys`, built once a record has many fields (a dictionary).
    private var keyIndex: [String: Int]?

    var value: Value {
        switch kind {
        case .empty: .record(type: nil, fields: [])
        case .scalar: scalar
        case .keyed: keyedValue
        case .unkeyed: .array(children.map(\.value))
        }
    }

    private var keyedValue: Value {
        if let recordValue { return recordValue }
        let made = Value.record(type: nil, fields: zip(keys, children).map { .init($0.0, $0.1.value) })
        recordValue = made
        return made
    }

    /// Makes this node a copy of `other` (a single-value container's content).
    func adopt(_ other: TrackedNode) {
        kind = other.kind
        scalar = other.scalar
        keys = other.keys
        children = other.children
        original = other.original
        elementLayout = other.elementLayout
        taken = other.taken
        keyIndex = other.keyIndex
    }

    /// Puts `child` under `key`, replacing what an earlier encode of the same key put.
    func set(_ child: TrackedNode, forKey key: String) {
        becomeKeyed()
        if let index = index(of: key) {
            children[index] = child
            return
        }
        keys.append(key)
        children.append(child)
        if keyIndex != nil { keyIndex![key] = keys.count - 1 } else if keys.count > 16 { buildIndex() }
    }

    /// The old tree's child for `key`, looked up where the new one is about to go first
    /// (records encode their fields in the same order every time).
    func oldChild(forKey key: String, position: Int) -> TrackedNode? {
        guard kind == .keyed else { return nil }
        if position < keys.count, keys[position] == key { return children[position] }
        return index(of: key).map { children[$0] }
    }

    func oldChild(at position: Int) -> TrackedNode? {
        kind == .unkeyed && position < children.count ? children[position] : nil
    }

    func append(_ child: TrackedNode) {
        becomeUnkeyed()
        children.append(child)
    }

    func becomeKeyed() { if kind == .empty { kind = .keyed } }
    func becomeUnkeyed() { if kind == .empty { kind = .unkeyed } }

    static func scalar(_ value: Value) -> TrackedNode {
        let node = TrackedNode()
        node.kind = .scalar
        node.scalar = value
        return node
    }

    private func index(of key: String) -> Int? {
        if let keyIndex { return keyIndex[key] }
        return keys.firstIndex(of: key)
    }

    private func buildIndex() {
        var index: [String: Int] = [:]
        for (position, key) in keys.enumerated() { index[key] = position }
        keyIndex = index
    }

    /// The node for `value`: `old` itself when `value` encodes as it did (an equal scalar,
    /// or an `Equatable` value equal to the one `old` came from), else a new node.
    /// `codingPath` is made only for a value that is not a scalar (or an error).
    static func encode<T: Encodable>(
        _ value: T, against old: TrackedNode?, codingPath: @autoclosure () -> [any CodingKey],
        comparingWhole: Bool = true
    ) throws -> TrackedNode {
        if let scalar = try Scalars.value(of: value, codingPath: codingPath()) {
            if let old, old.kind == .scalar, old.scalar == scalar { return old }
            return .scalar(scalar)
        }
        if let list = value as? any TrackedList { return try list.trackedNode(against: old, codingPath: codingPath()) }
        if comparingWhole, let old, let before = old.original, before.isEqual(to: value) { return old }
        let node = TrackedNode()
        try encodeInStableOrder(value, to: TrackingEncoder(node: node, old: old, codingPath: codingPath()))
        if let type = T.self as? any Equatable.Type { node.original = keep(value, as: type) }
        return node
    }

    private static func keep<T, E: Equatable>(_ value: T, as type: E.Type) -> any OriginalValue {
        withUnsafePointer(to: value) { $0.withMemoryRebound(to: E.self, capacity: 1) { Original(value: $0.pointee) } }
    }

    /// Appends the patches that turn `old` into this node, at `path`.
    func collect(against old: TrackedNode, path: inout [StatePatch.Segment], into patches: inout [StatePatch]) {
        if self === old { return }
        guard kind == old.kind else { return patches.append(.set(path: path, value: value)) }
        switch kind {
        case .empty: return
        case .scalar:
            if scalar != old.scalar { patches.append(.set(path: path, value: value)) }
        case .keyed:
            guard keys == old.keys, !mostlyChanged(against: old) else {
                return patches.append(.set(path: path, value: value))
            }
            for (index, key) in keys.enumerated() where children[index] !== old.children[index] {
                path.append(.field(key))
                children[index].collect(against: old.children[index], path: &path, into: &patches)
                path.removeLast()
            }
        case .unkeyed:
            if let taken, taken.from === old {
                self.taken = nil
                for (index, before) in taken.replaced where children[index] !== before {
                    path.append(.index(index))
                    children[index].collect(against: before, path: &path, into: &patches)
                    path.removeLast()
                }
                // What the splice below would say for elements appended to an unchanged list.
                if children.count > taken.oldCount {
                    patches.append(
                        .splice(
                            path: path, at: taken.oldCount, removing: 0,
                            inserting: children[taken.oldCount...].map(\.value)))
                }
                return
            }
            if children.count == old.children.count {
                // A list reordered or rewritten (a sort) is one change, not one per field.
                if mostlyChanged(against: old) { return patches.append(.set(path: path, value: value)) }
                for index in children.indices where children[index] !== old.children[index] {
                    path.append(.index(index))
                    children[index].collect(against: old.children[index], path: &path, into: &patches)
                    path.removeLast()
                }
                return
            }
            let shorter = min(children.count, old.children.count)
            var prefix = 0
            while prefix < shorter, children[prefix].isSame(as: old.children[prefix]) { prefix += 1 }
            var suffix = 0
            while suffix < shorter - prefix,
                children[children.count - 1 - suffix].isSame(as: old.children[old.children.count - 1 - suffix])
            { suffix += 1 }
            patches.append(
                .splice(
                    path: path, at: prefix, removing: old.children.count - prefix - suffix,
                    inserting: children[prefix..<(children.count - suffix)].map(\.value)
                ))
        }
    }

    /// Whether more than half of a container's children (of more than 8) are not the old
    /// ones: then one change of the whole container says it more cheaply.
    private func mostlyChanged(against old: TrackedNode) -> Bool {
        guard children.count > 8 else { return false }
        var changed = 0
        for index in children.indices where children[index] !== old.children[index] {
            changed += 1
            if changed * 2 > children.count { return true }
        }
        return false
    }

    /// Whether this node encodes the same value as `other`: by the Swift values when both
    /// kept theirs, else by the encoded trees.
    private func isSame(as other: TrackedNode) -> Bool {
        if self === other { return true }
        if let mine = original, let theirs = other.original { return mine.isEqual(to: theirs) }
        return value == other.value
    }
}

/// The `Equatable` value a node was encoded from, compared in place with a new value of
/// the same type (no cast or copy per comparison: the next encoding makes one per element).
protocol OriginalValue: AnyObject {
    /// Whether `value` is of the kept value's type and equal to it.
    func isEqual<T>(to value: T) -> Bool
    /// Whether `other` keeps an equal value.
    func isEqual(to other: any OriginalValue) -> Bool
}

final class Original<E: Equatable>: OriginalValue {
    let value: E

    init(value: E) { self.value = value }

    func isEqual<T>(to other: T) -> Bool {
        guard T.self == E.self else { return false }
        return withUnsafePointer(to: other) { $0.withMemoryRebound(to: E.self, capacity: 1) { $0.pointee == value } }
    }

    func isEqual(to other: any OriginalValue) -> Bool {
        other.isEqual(to: value)
    }
}

private struct TrackingEncoder: Encoder {
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
