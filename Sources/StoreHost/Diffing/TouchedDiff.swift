package import StoreValue

/// The parts of a state that a plugin's changes (`StatePatch`es) may have changed, so a
/// diff looks only there: a toggle in a list of 100,000 compares one element, not all.
package indirect enum StateTouch: Equatable, Sendable {
    /// Anything here may have changed.
    case whole
    /// Only these fields of a record.
    case fields([String: StateTouch])
    /// Only these elements of an array (whose length did not change).
    case elements([Int: StateTouch])
    /// One splice of an array and nothing else in it: `removing` elements from `at` on
    /// replaced by `inserting` new ones.
    case spliced(at: Int, removing: Int, inserting: Int)

    /// What `patches` touch; `.whole` when one of them replaces the whole state.
    package init(_ patches: [StatePatch]) {
        var touch = StateTouch.fields([:])
        for patch in patches {
            var splice: (Int, Int, Int)?
            if case .splice(_, let at, let removing, let inserting) = patch { splice = (at, removing, inserting.count) }
            touch.mark(patch.path[...], splice: splice)
        }
        self = touch
    }

    private mutating func mark(_ path: ArraySlice<StatePatch.Segment>, splice: (Int, Int, Int)?) {
        guard let step = path.first else {
            // A splice where nothing else was touched stays a splice; anything more is whole.
            if let (at, removing, inserting) = splice, self == .fields([:]) {
                self = .spliced(at: at, removing: removing, inserting: inserting)
            } else {
                self = .whole
            }
            return
        }
        switch (self, step) {
        case (.whole, _): return
        case (.fields(var map), .field(let label)):
            self = .whole  // released while changed, so the map is not copied
            map[label, default: .fields([:])].mark(path.dropFirst(), splice: splice)
            self = .fields(map)
        case (.elements(var map), .index(let index)):
            self = .whole
            map[index, default: .fields([:])].mark(path.dropFirst(), splice: splice)
            self = .elements(map)
        case (.fields(let map), .index(let index)) where map.isEmpty:
            self = .elements([index: .fields([:])])
            mark(path, splice: splice)
        default:
            self = .whole  // a field of an array, an index of a record: let the diff sort it out
        }
    }
}

extension StateDiff {
    /// The changes from `old` to `new` where only the parts `touched` names can differ:
    /// the same list, in the same order, as `changes(from:to:)`, found by looking only
    /// there.
    /// `memo` keeps the ids of identified lists from one diff to the next, so a splice
    /// of a long list (an item added) is diffed without hashing every id again.
    package static func changes(from old: Value, to new: Value, touched: StateTouch, memo: IdentityMemo? = nil)
        -> [StateChange]
    {
        StateDiff().changes(from: old, to: new, touched: touched, memo: memo)
    }

    /// `changes(from:to:touched:memo:)` with this diff's identity fields.
    package func changes(from old: Value, to new: Value, touched: StateTouch, memo: IdentityMemo? = nil)
        -> [StateChange]
    {
        var changes: [StateChange] = []
        diff(old, new, path: "", touched: touched, memo: memo, into: &changes)
        return changes
    }

    func diff(
        _ old: Value, _ new: Value, path: String, touched: StateTouch, memo: IdentityMemo?,
        into changes: inout [StateChange]
    ) {
        switch (touched, old, new) {
        case (.spliced(let at, let removing, let inserting), .array(let oldItems), .array(let newItems)):
            if let memo,
                diffSplice(
                    oldItems, newItems, at: at, removing: removing, inserting: inserting, path: path, memo: memo,
                    into: &changes)
            {
                return
            }
            diff(old, new, path: path, into: &changes)
        case (.fields(let map), .record(let oldType, let oldFields), .record(let newType, let newFields))
        where oldType == newType:
            var oldLabels = Set<String>()
            for field in oldFields {
                let label = field.label ?? ""
                oldLabels.insert(label)
                guard let inner = map[label] else { continue }
                let fieldPath = PathSyntax.append(label, to: path)
                if let replacement = newFields.first(where: { ($0.label ?? "") == label }) {
                    // Compared whole only where the diff below would compare it whole anyway:
                    // a toggle in a long list compares the toggled element, not the list.
                    if case .whole = inner, field.value == replacement.value { continue }
                    diff(field.value, replacement.value, path: fieldPath, touched: inner, memo: memo, into: &changes)
                } else {
                    changes.append(.init(kind: .removed, path: fieldPath, old: field.value, new: nil))
                }
            }
            for field in newFields where map[field.label ?? ""] != nil && !oldLabels.contains(field.label ?? "") {
                changes.append(
                    .init(
                        kind: .added, path: PathSyntax.append(field.label ?? "", to: path), old: nil, new: field.value))
            }
        case (.elements(let map), .array(let oldItems), .array(let newItems)) where oldItems.count == newItems.count:
            // As the whole diff does for a list of the same length: elements that keep
            // their ids are named by id; otherwise the whole list is compared.
            var changed: [(Int, String)] = []
            for index in map.keys.sorted() where oldItems.indices.contains(index) && oldItems[index] != newItems[index]
            {
                guard let id = identity(oldItems[index]), id == identity(newItems[index]) else {
                    return diff(old, new, path: path, into: &changes)
                }
                changed.append((index, id))
            }
            for (index, id) in changed {
                diff(
                    oldItems[index], newItems[index], path: Self.keyedPath(path, id), touched: map[index]!, memo: memo,
                    into: &changes)
            }
            memo?.carry(from: oldItems, to: newItems)
        default:
            diff(old, new, path: path, into: &changes)
        }
    }
}

extension StateDiff {
    /// A splice of an identified list, as the whole diff reports it (the removed ids in
    /// the old order, then the inserted ones in the new), found from the ids kept in
    /// `memo` and the spliced elements alone. False, having reported nothing, when the
    /// whole diff would say more (an id in both halves is a move; a repeated id is not a
    /// list of identities) or the lengths do not add up.
    fileprivate func diffSplice(
        _ old: [Value], _ new: [Value], at: Int, removing: Int, inserting: Int,
        path: String, memo: IdentityMemo, into changes: inout [StateChange]
    ) -> Bool {
        guard old.count != new.count, at >= 0, removing >= 0, inserting >= 0, at + removing <= old.count,
            old.count - removing + inserting == new.count,
            let identities = spliceChanges(
                old, at: at, removing: removing, inserted: new[at..<(at + inserting)], path: path, memo: memo,
                into: &changes)
        else { return false }
        memo.remember(new, ids: identities.ids, set: identities.set)
        return true
    }

    /// Reports the splice of `old` that removes `removing` elements from `at` on and
    /// inserts `inserted` there, by ids (see `diffSplice`), and returns the ids of the
    /// list it makes, for the caller to remember with that list. Nil, having reported
    /// nothing, when the whole diff would say more. The old list's ids are taken out of
    /// the memo and changed in place: an append to a list of n copies no n ids, and the
    /// memo no longer holds the old list, so a caller may change that in place too.
    func spliceChanges(
        _ old: [Value], at: Int, removing: Int, inserted: ArraySlice<Value>,
        path: String, memo: IdentityMemo, into changes: inout [StateChange]
    ) -> (ids: [String], set: Set<String>)? {
        guard var known = memo.takeIdentities(of: old, by: self) else { return nil }
        var insertedIDs: [String] = []
        insertedIDs.reserveCapacity(inserted.count)
        var insertedSet = Set<String>()
        for item in inserted {
            guard let id = identity(item), !known.set.contains(id), insertedSet.insert(id).inserted else {
                memo.remember(old, ids: known.ids, set: known.set)
                return nil
            }
            insertedIDs.append(id)
        }
        for index in at..<(at + removing) {
            changes.append(
                .init(kind: .removed, path: Self.keyedPath(path, known.ids[index]), old: old[index], new: nil))
        }
        for (id, item) in zip(insertedIDs, inserted) {
            changes.append(.init(kind: .added, path: Self.keyedPath(path, id), old: nil, new: item))
        }
        for id in known.ids[at..<(at + removing)] { known.set.remove(id) }
        known.ids.replaceSubrange(at..<(at + removing), with: insertedIDs)
        known.set.formUnion(insertedSet)
        return known
    }
}

/// The ids of identified lists (records with unique string ids) a session's diffs met
/// lately, by list (a session's diffs all use its model's identity fields): adding to a list of n costs the new item, not n hashes. An entry holds
/// its list, so the storage it is found by stays alive and unchanged.
package final class IdentityMemo {
    private var entries: [(items: [Value], ids: [String], set: Set<String>)] = []
    private static let capacity = 4

    package init() {}

    /// The ids of `items` and their set, from the memo or worked out (and remembered);
    /// nil when `items` is not a list of unique identities.
    func identities(of items: [Value], by diff: StateDiff) -> (ids: [String], set: Set<String>)? {
        if let entry = entries.first(where: { Self.same($0.items, items) }) { return (entry.ids, entry.set) }
        guard let ids = diff.identities(items) else { return nil }
        let set = Set(ids)
        remember(items, ids: ids, set: set)
        return (ids, set)
    }

    /// `identities(of:by:)`, taken out of the memo (or worked out, not remembered): the
    /// caller owns them alone and may change them in place.
    func takeIdentities(of items: [Value], by diff: StateDiff) -> (ids: [String], set: Set<String>)? {
        if let taken = take(items) { return taken }
        guard let ids = diff.identities(items) else { return nil }
        return (ids, Set(ids))
    }

    func remember(_ items: [Value], ids: [String], set: Set<String>) {
        entries.removeAll { Self.same($0.items, items) }
        if entries.count == Self.capacity { entries.removeFirst() }
        entries.append((items, ids, set))
    }

    /// Forgets `items`, saying what its ids were: a list about to change in place is let
    /// go first (the memo's hold would make the change a copy).
    func take(_ items: [Value]) -> (ids: [String], set: Set<String>)? {
        guard let index = entries.firstIndex(where: { Self.same($0.items, items) }) else { return nil }
        let entry = entries.remove(at: index)
        return (entry.ids, entry.set)
    }

    /// A list whose elements changed in place, keeping their ids, has the old list's ids.
    func carry(from old: [Value], to new: [Value]) {
        guard let entry = entries.first(where: { Self.same($0.items, old) }) else { return }
        remember(new, ids: entry.ids, set: entry.set)
    }

    /// The same storage, so the same elements (an entry keeps its list alive, and a list
    /// that shares storage with another cannot change it in place).
    private static func same(_ a: [Value], _ b: [Value]) -> Bool {
        a.count == b.count
            && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
