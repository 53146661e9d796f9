/// Snapshots of one state over time that cost what changed, not what is there: each
/// `changes(of:)` encodes the state against the tree the previous call left, reusing every
/// `Equatable` part equal to what it was (a list of 100,000 records with one toggled is
/// 100,000 comparisons and one record encoded), and reports the difference as patches.
/// A plugin's `snapshot_changes` is built on it.
public final class ChangeTracker {
    private var tree: TrackedNode?
    private let rootType: String?
    /// The last snapshot had fewer than `smallState` values in it (and `tree` is nil).
    private var isSmall = false
    private let smallState: Int

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

    /// What changed since the last `snapshot(of:)` or `changes(of:)`: nil when there was
    /// none, or when the state was small enough that a snapshot costs less than working
    /// out changes (take a snapshot then); else the patches, empty when nothing changed.
    public func changes<T: Encodable>(of state: T) throws -> [StatePatch]? {
        guard let old = tree, !isSmall else { return nil }
        tree = nil // an encoding that throws leaves no baseline: the next call says nil
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

    private static func encode<T: Encodable>(_ state: T, against old: TrackedNode?) throws -> TrackedNode {
        try TrackedNode.encode(state, against: old, codingPath: [])
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

    var kind = Kind.empty
    var scalar = Value.null
    var keys: [String] = []
    var children: [TrackedNode] = []
    /// The value this node encodes when it is `Equatable`, to compare the next state's with.
    var original: (any OriginalValue)?
    /// How a long list's elements are compared by their bytes, carried from one encoding
    /// of the list to the next.
    var elementLayout: ByteLayout?
    /// A list that took the old list's nodes instead of copying them (few elements
    /// changed): the old node it took them from, and the old nodes it replaced, by index —
    /// all `collect` needs. Dropped once collected.
    var taken: (from: TrackedNode, replaced: [(index: Int, node: TrackedNode)])?
    /// Key → index in `keys`, built once a record has many fields (a dictionary).
    private var keyIndex: [String: Int]?

    var value: Value {
        switch kind {
        case .empty: .record(type: nil, fields: [])
        case .scalar: scalar
        case .keyed: .record(type: nil, fields: zip(keys, children).map { .init($0.0, $0.1.value) })
        case .unkeyed: .array(children.map(\.value))
        }
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
    /// `plain` encodings are read once and dropped (a small state, a whole encoding): they
    /// skip what only a later comparison needs.
    static func encode<T: Encodable>(_ value: T, against old: TrackedNode?, codingPath: @autoclosure () -> [any CodingKey], plain: Bool = false) throws -> TrackedNode {
        if let scalar = try Scalars.value(of: value, codingPath: codingPath()) {
            if let old, old.kind == .scalar, old.scalar == scalar { return old }
            return .scalar(scalar)
        }
        if !plain, let list = value as? any TrackedList { return try list.trackedNode(against: old, codingPath: codingPath()) }
        if let old, let before = old.original, before.isEqual(to: value) { return old }
        let node = TrackedNode()
        try value.encode(to: TrackingEncoder(node: node, old: old, codingPath: codingPath(), plain: plain))
        if !plain, let type = T.self as? any Equatable.Type { node.original = keep(value, as: type) }
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
            guard keys == old.keys, !mostlyChanged(against: old) else { return patches.append(.set(path: path, value: value)) }
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
                  children[children.count - 1 - suffix].isSame(as: old.children[old.children.count - 1 - suffix]) { suffix += 1 }
            patches.append(.splice(
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
    /// A plain encoding: nothing kept to compare the next one with.
    let plain: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeKeyed()
        return KeyedEncodingContainer(TrackingKeyedContainer<Key>(node: node, old: old, codingPath: codingPath, plain: plain))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: node, old: old, codingPath: codingPath, plain: plain)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TrackingSingleContainer(node: node, old: old, codingPath: codingPath, plain: plain)
    }
}

private struct TrackingKeyedContainer<Key: CodingKey>: NullWritingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]
    /// A plain encoding: nothing kept to compare the next one with.
    let plain: Bool

    /// The old tree's child where `key` is about to go.
    private func old(_ key: String) -> TrackedNode? {
        old?.oldChild(forKey: key, position: node.keys.count)
    }

    mutating func encodeNil(forKey key: Key) throws { node.set(.scalar(.null), forKey: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = try TrackedNode.encode(value, against: old(key.stringValue), codingPath: codingPath + [key], plain: plain)
        node.set(child, forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        child.becomeKeyed()
        return KeyedEncodingContainer(TrackingKeyedContainer<NestedKey>(node: child, old: oldChild, codingPath: codingPath + [key], plain: plain))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        child.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: child, old: oldChild, codingPath: codingPath + [key], plain: plain)
    }

    mutating func superEncoder() -> any Encoder {
        let (child, oldChild) = (TrackedNode(), old("super"))
        node.set(child, forKey: "super")
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath, plain: plain)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let (child, oldChild) = (TrackedNode(), old(key.stringValue))
        node.set(child, forKey: key.stringValue)
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath + [key], plain: plain)
    }
}

private struct TrackingUnkeyedContainer: UnkeyedEncodingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]
    /// A plain encoding: nothing kept to compare the next one with.
    let plain: Bool
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
        node.append(try TrackedNode.encode(value, against: oldElement, codingPath: codingPath, plain: plain))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (child, oldChild) = nested()
        child.becomeKeyed()
        return KeyedEncodingContainer(TrackingKeyedContainer<NestedKey>(node: child, old: oldChild, codingPath: codingPath, plain: plain))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (child, oldChild) = nested()
        child.becomeUnkeyed()
        return TrackingUnkeyedContainer(node: child, old: oldChild, codingPath: codingPath, plain: plain)
    }

    mutating func superEncoder() -> any Encoder {
        let (child, oldChild) = nested()
        return TrackingEncoder(node: child, old: oldChild, codingPath: codingPath, plain: plain)
    }
}

private struct TrackingSingleContainer: SingleValueEncodingContainer {
    let node: TrackedNode
    let old: TrackedNode?
    let codingPath: [any CodingKey]
    /// A plain encoding: nothing kept to compare the next one with.
    let plain: Bool

    mutating func encodeNil() throws { node.adopt(.scalar(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.adopt(try TrackedNode.encode(value, against: old, codingPath: codingPath, plain: plain))
    }
}

extension Value {
    /// Whether the tree holds fewer than `limit` values, counted until it is known (at
    /// most `limit` steps, however long its lists): what decides that a whole snapshot
    /// costs less than working out changes.
    public func isSmaller(than limit: Int) -> Bool {
        var budget = limit
        return fits(within: &budget)
    }

    private func fits(within budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        switch self {
        case .array(let items):
            guard items.count < budget else { return false }
            for item in items where !item.fits(within: &budget) { return false }
        case .record(_, let fields), .enumCase(_, let fields):
            guard fields.count < budget else { return false }
            for field in fields where !field.value.fits(within: &budget) { return false }
        default:
            break
        }
        return true
    }
}

/// Arrays of `Equatable` elements, encoded without the `Encoder` machinery per element:
/// each element equal to the one at its place in the old list is that old node; only the
/// others are encoded. What `Array`'s own `encode(to:)` would give.
protocol TrackedList {
    func trackedNode(against old: TrackedNode?, codingPath: [any CodingKey]) throws -> TrackedNode
}

extension Array: TrackedList where Element: Encodable & Equatable {
    func trackedNode(against old: TrackedNode?, codingPath: [any CodingKey]) throws -> TrackedNode {
        // The old node count, not its array: `takingNodes` needs that array unshared.
        let oldCount = old?.kind == .unkeyed ? old!.children.count : 0
        let common = Swift.min(count, oldCount)
        // The old node kept the list it encoded: its elements are compared with these, in
        // place. Without it, every element goes through `encode`, which compares it with the
        // value its old node kept.
        let previousList = (old?.original as? Original<[Element]>).flatMap { $0.value.count == oldCount ? $0.value : nil }
        // This code is not specialized for the element type, so `==` copies both elements
        // (retains and releases, which cost more than the comparison): long lists compare
        // the elements' bytes first (`ByteLayout`), worked out once and kept with the node.
        let layout = count >= 64 ? (old?.elementLayout ?? ByteLayout(of: Element.self)) : nil
        var changed: [Int] = []
        if let previousList {
            withUnsafeBufferPointer { newBuffer in
                previousList.withUnsafeBufferPointer { oldBuffer in
                    guard let new = newBuffer.baseAddress, let before = oldBuffer.baseAddress else { return }
                    for index in 0..<common {
                        if let layout, layout.sameBytes(before + index, new + index) { continue }
                        if before[index] != new[index] { changed.append(index) }
                    }
                }
            }
        } else {
            changed = Array<Int>(0..<common)
        }
        if changed.isEmpty, count == oldCount, let old { return old }
        if let old, previousList != nil, count == oldCount, changed.count * 2 <= count {
            return try takingNodes(of: old, replacing: changed, layout: layout, codingPath: codingPath)
        }
        let node = TrackedNode()
        node.becomeUnkeyed()
        node.children = try rebuiltNodes(against: old?.kind == .unkeyed ? old!.children : [], previousList, changed: changed, layout: layout, codingPath: codingPath)
        node.original = Original(value: self)
        node.elementLayout = layout
        return node
    }

    /// The nodes for this list: the old node where an element is the one at its place, an
    /// old node from elsewhere whose element has the same bytes (a sort, an insertion or a
    /// removal moves elements without changing them), and a new encoding for the rest —
    /// against the old node at its place, when no other place took that node. Each old
    /// node goes to one place at most: the tree stays a tree, which `takingNodes` relies on.
    private func rebuiltNodes(against previousNodes: [TrackedNode], _ previousList: [Element]?, changed: [Int], layout: ByteLayout?, codingPath: [any CodingKey]) throws -> [TrackedNode] {
        let common = Swift.min(count, previousNodes.count)
        var nodes = [TrackedNode?](repeating: nil, count: count)
        var used = [Bool](repeating: false, count: previousNodes.count)
        var open = [Bool](repeating: true, count: count)
        for index in 0..<common { (nodes[index], used[index], open[index]) = (previousNodes[index], true, false) }
        for index in changed { (nodes[index], used[index], open[index]) = (nil, false, true) }
        if let layout, let previousList, previousList.count == previousNodes.count, changed.count + count - common > 8 {
            previousList.withUnsafeBufferPointer { oldBuffer in
                withUnsafeBufferPointer { newBuffer in
                    guard let before = oldBuffer.baseAddress, let new = newBuffer.baseAddress else { return }
                    var unused: [Int: [Int]] = [:]
                    for index in previousNodes.indices where !used[index] { unused[layout.hash(before + index), default: []].append(index) }
                    for index in 0..<count where open[index] {
                        guard let candidates = unused[layout.hash(new + index)],
                              let match = candidates.first(where: { !used[$0] && layout.sameBytes(before + $0, new + index) }) else { continue }
                        (nodes[index], used[match], open[index]) = (previousNodes[match], true, false)
                    }
                }
            }
        }
        for index in 0..<count where open[index] {
            let oldNode = index < previousNodes.count && !used[index] ? previousNodes[index] : nil
            if oldNode != nil { used[index] = true }
            nodes[index] = try TrackedNode.encode(self[index], against: oldNode, codingPath: codingPath)
        }
        return nodes.map { $0! }
    }

    /// The node for this list when only the elements at `changed` differ from the old
    /// list's (of the same length): it takes the old node's array of nodes — the old tree
    /// is dropped after this encoding — and replaces those elements in place, so a toggle
    /// in a list of 100,000 neither copies nor releases 100,000 references.
    private func takingNodes(of old: TrackedNode, replacing changed: [Int], layout: ByteLayout?, codingPath: [any CodingKey]) throws -> TrackedNode {
        var children = old.children
        old.children = [] // the only reference left is `children`: changed in place
        // What is left of the old node is what `collect` compares with: only its identity.
        (old.original, old.taken, old.elementLayout) = (nil, nil, nil)
        var replaced: [(index: Int, node: TrackedNode)] = []
        replaced.reserveCapacity(changed.count)
        for index in changed {
            let before = children[index]
            children[index] = try TrackedNode.encode(self[index], against: before, codingPath: codingPath)
            replaced.append((index, before))
        }
        let node = TrackedNode()
        node.becomeUnkeyed()
        node.children = children
        node.original = Original(value: self)
        node.elementLayout = layout
        node.taken = (old, replaced)
        return node
    }
}
