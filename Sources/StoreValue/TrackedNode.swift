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
    /// Set on an old list whose nodes a new one took (`takingNodes`): its children are gone,
    /// so it reads as an empty list, and it is the same as no node but itself.
    var emptiedByTaking = false

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
        if emptiedByTaking || other.emptiedByTaking { return false }
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
