import StoreValue

/// Two lists of records told apart by their ids: each new element's place in the old list
/// (or -1 for one added), and which old elements are still there. Made with one table of the
/// old ids and one look-up per new element: a sort of 2,000 todos hashed every id five
/// times when each list's ids were checked for repeats on their own first.
struct IdentityMatching {
    let oldIDs: [String]
    let newIDs: [String]
    /// For each new element, the index of the old element with its id; -1 when it is new.
    let oldIndex: [Int]
    /// For each old element, whether the new list still has its id.
    let kept: [Bool]

    /// Nil when an element of either list has no id, or an id repeats within a list.
    init?(_ old: [Value], _ new: [Value], by diff: StateDiff) {
        var oldIDs: [String] = []
        oldIDs.reserveCapacity(old.count)
        var table: [String: Int] = [:]
        table.reserveCapacity(old.count)
        for (index, item) in old.enumerated() {
            guard let id = diff.identity(item), table.updateValue(index, forKey: id) == nil else { return nil }
            oldIDs.append(id)
        }
        var newIDs: [String] = []
        newIDs.reserveCapacity(new.count)
        var oldIndex = [Int](repeating: -1, count: new.count)
        var kept = [Bool](repeating: false, count: old.count)
        var added = Set<String>()
        for (index, item) in new.enumerated() {
            guard let id = diff.identity(item) else { return nil }
            if let before = table[id] {
                guard !kept[before] else { return nil }
                kept[before] = true
                oldIndex[index] = before
            } else if !added.insert(id).inserted {
                return nil
            }
            newIDs.append(id)
        }
        (self.oldIDs, self.newIDs, self.oldIndex, self.kept) = (oldIDs, newIDs, oldIndex, kept)
    }
}
