/// Arrays of `Equatable` elements, encoded without the `Encoder` machinery per element:
/// an element equal to the one at its place in the old list is that old node, one moved
/// there unchanged is the old node it had elsewhere; only the others are encoded. What
/// `Array`'s own `encode(to:)` would give.
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
        let oldList = old?.original as? Original<[Element]>
        let previousList = oldList.flatMap { $0.value.count == oldCount ? $0.value : nil }
        // This code is not specialized for the element type, so `==` copies both elements
        // (retains and releases, which cost more than the comparison): long lists compare
        // the elements' bytes first (`ByteLayout`), worked out once and kept with the node.
        // The layout the old node carried, when that node was a list of this very type: the
        // same place may have held another type's list (an enum's payload), whose layout
        // would compare other bytes, or read past these elements.
        let known = oldList != nil ? old?.elementLayout : nil
        let layout = count >= 64 ? (known ?? ByteLayout(of: Element.self)) : nil
        var changed: [Int] = []
        if let previousList {
            withUnsafeBufferPointer { newBuffer in
                previousList.withUnsafeBufferPointer { oldBuffer in
                    guard let new = newBuffer.baseAddress, let before = oldBuffer.baseAddress else { return }
                    if let layout {
                        for index in layout.differingIndices(before, new, count: common)
                        where before[index] != new[index] { changed.append(index) }
                    } else {
                        for index in 0..<common where before[index] != new[index] { changed.append(index) }
                    }
                }
            }
        } else {
            changed = [Int](0..<common)
        }
        if changed.isEmpty, count == oldCount, let old { return old }
        if let old, previousList != nil, count == oldCount, changed.count * 2 <= count {
            return try takingNodes(of: old, replacing: changed, layout: layout ?? known, codingPath: codingPath)
        }
        // Elements added at the end, the others as they were (an `append`): the old nodes
        // are taken too, and only the new elements encoded.
        if let old, previousList != nil, count > oldCount, changed.isEmpty {
            return try takingNodes(of: old, replacing: [], layout: layout ?? known, codingPath: codingPath)
        }
        // Elements moved unchanged (a sort, an insertion, a removal) are found by their
        // bytes in lists of any length: a short list re-encoded whole on every sort was most
        // of what exploring a list model cost. The layout is worked out once, then carried.
        let matching = previousList != nil && changed.count + count - common > Self.fewestToMatch
        let movesLayout = layout ?? (matching ? (known ?? ByteLayout(of: Element.self)) : known)
        let node = TrackedNode()
        node.becomeUnkeyed()
        node.children = try rebuiltNodes(
            against: old?.kind == .unkeyed ? old!.children : [], previousList, changed: changed,
            layout: movesLayout, codingPath: codingPath)
        node.original = Original(value: self)
        node.elementLayout = movesLayout
        return node
    }

    /// Up to this many elements to encode again, encoding them costs less than matching
    /// them with the old list's by their bytes.
    private static var fewestToMatch: Int { 8 }

    /// The nodes for this list: the old node where an element is the one at its place, an
    /// old node from elsewhere whose element has the same bytes (a sort, an insertion or a
    /// removal moves elements without changing them), and a new encoding for the rest —
    /// against the old node at its place, when no other place took that node. Each old
    /// node goes to one place at most: the tree stays a tree, which `takingNodes` relies on.
    private func rebuiltNodes(
        against previousNodes: [TrackedNode], _ previousList: [Element]?, changed: [Int], layout: ByteLayout?,
        codingPath: [any CodingKey]
    ) throws -> [TrackedNode] {
        let common = Swift.min(count, previousNodes.count)
        var nodes = [TrackedNode?](repeating: nil, count: count)
        var used = [Bool](repeating: false, count: previousNodes.count)
        var open = [Bool](repeating: true, count: count)
        for index in 0..<common { (nodes[index], used[index], open[index]) = (previousNodes[index], true, false) }
        for index in changed { (nodes[index], used[index], open[index]) = (nil, false, true) }
        if let layout, let previousList, previousList.count == previousNodes.count,
            changed.count + count - common > Self.fewestToMatch
        {
            previousList.withUnsafeBufferPointer { oldBuffer in
                withUnsafeBufferPointer { newBuffer in
                    guard let before = oldBuffer.baseAddress, let new = newBuffer.baseAddress else { return }
                    var unused: [Int: [Int]] = [:]
                    for index in previousNodes.indices where !used[index] {
                        unused[layout.hash(before + index), default: []].append(index)
                    }
                    for index in 0..<count where open[index] {
                        guard let candidates = unused[layout.hash(new + index)],
                            let match = candidates.first(where: {
                                !used[$0] && layout.sameBytes(before + $0, new + index)
                            })
                        else { continue }
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
    /// list's, and any others are new at the end: it takes the old node's array of nodes —
    /// the old tree is dropped after this encoding — replaces those elements in place and
    /// appends the new ones, so a toggle or an append in a list of 100,000 neither copies
    /// nor releases 100,000 references.
    private func takingNodes(
        of old: TrackedNode, replacing changed: [Int], layout: ByteLayout?, codingPath: [any CodingKey]
    ) throws -> TrackedNode {
        var children = old.children
        old.children = []  // the only reference left is `children`: changed in place
        // What is left of the old node is what `collect` compares with: only its identity.
        (old.original, old.taken, old.elementLayout, old.emptiedByTaking) = (nil, nil, nil, true)
        var replaced: [(index: Int, node: TrackedNode)] = []
        replaced.reserveCapacity(changed.count)
        for index in changed {
            let before = children[index]
            children[index] = try TrackedNode.encode(self[index], against: before, codingPath: codingPath)
            replaced.append((index, before))
        }
        let oldCount = children.count
        for index in oldCount..<count {
            children.append(try TrackedNode.encode(self[index], against: nil, codingPath: codingPath))
        }
        let node = TrackedNode()
        node.becomeUnkeyed()
        node.children = children
        node.original = Original(value: self)
        node.elementLayout = layout
        node.taken = (old, replaced, oldCount)
        return node
    }
}
