package import StoreValue

/// A plugin's `set` changes grouped by where they apply, checked against the state they
/// apply to: what lets a session apply them in place and diff only what they replaced.
/// (Applying them to a copy and diffing the copy costs a copy of every list on the way:
/// 2,000 elements for a toggle in a list of 2,000.)
package indirect enum PatchTree {
    /// Nothing here changes.
    case untouched
    /// The value here becomes this one.
    case set(Value)
    /// These fields of a record change (each field name appears once in the record).
    case fields([String: PatchTree])
    /// These elements of an array change (its length does not).
    case elements([Int: PatchTree])
    /// One splice of an array, and nothing else in it: `removing` elements from `at` on
    /// replaced by `inserting` (an item added to a list, or removed).
    case spliced(at: Int, removing: Int, inserting: [Value])

    /// The tree of `patches` over `state`; nil when one does not fit the state, or a splice
    /// meets another change of its array (the session then applies them the general way,
    /// which says why).
    package init?(_ patches: [StatePatch], over state: Value) {
        var tree = PatchTree.untouched
        for patch in patches {
            guard patch.path.count <= Value.maxDepth, tree.insert(patch.path[...], patch, over: state) else {
                return nil
            }
        }
        self = tree
    }

    /// Puts `patch` (whose path ends in `path`) into the tree over `current`.
    private mutating func insert(_ path: ArraySlice<StatePatch.Segment>, _ patch: StatePatch, over current: Value)
        -> Bool
    {
        if case .set(var replaced) = self {
            // A change inside a value an earlier change set: it changes that value.
            self = .untouched
            let inner: StatePatch =
                switch patch {
                case .set(_, let value): .set(path: Array(path), value: value)
                case .splice(_, let at, let removing, let inserting):
                    .splice(path: Array(path), at: at, removing: removing, inserting: inserting)
                }
            do { try inner.apply(to: &replaced) } catch { return false }
            self = .set(replaced)
            return true
        }
        guard let step = path.first else {
            switch patch {
            case .set(_, let value):
                self = .set(value)
                return true
            case .splice(_, let at, let removing, let inserting):
                guard case .untouched = self, case .array(let items) = current,
                    StatePatch.spliceFits(at: at, removing: removing, count: items.count)
                else { return false }
                self = .spliced(at: at, removing: removing, inserting: inserting)
                return true
            }
        }
        switch (self, step, current) {
        case (.untouched, .field, _):
            self = .fields([:])
            return insert(path, patch, over: current)
        case (.untouched, .index, _):
            self = .elements([:])
            return insert(path, patch, over: current)
        case (.fields(var map), .field(let label), .record(_, let fields)):
            var found: Value?
            for field in fields where field.label == label {
                guard found == nil else { return false }  // a repeated name: the general way
                found = field.value
            }
            guard let child = found else { return false }
            self = .untouched
            var node = map[label] ?? .untouched
            let fits = node.insert(path.dropFirst(), patch, over: child)
            map[label] = node
            self = .fields(map)
            return fits
        case (.elements(var map), .index(let index), .array(let items)):
            guard items.indices.contains(index) else { return false }
            self = .untouched
            var node = map[index] ?? .untouched
            let fits = node.insert(path.dropFirst(), patch, over: items[index])
            map[index] = node
            self = .elements(map)
            return fits
        default:
            return false
        }
    }

    /// What a touched diff should look at below this node.
    var touch: StateTouch {
        switch self {
        case .untouched: .fields([:])
        case .set: .whole
        case .fields(let map): .fields(map.mapValues(\.touch))
        case .elements(let map): .elements(map.mapValues(\.touch))
        case .spliced(let at, let removing, let inserting):
            .spliced(at: at, removing: removing, inserting: inserting.count)
        }
    }

    /// Applies the tree to `value` in place: each level is taken out of its parent while it
    /// changes, so nothing is copied unless something else holds it.
    /// (No switch over a tuple holding `value`: it would hold a second reference.)
    package func apply(to value: inout Value) {
        switch self {
        case .untouched:
            return
        case .set(let replacement):
            value = replacement
        case .fields(let map):
            guard case .record(let type, var fields) = value else { return }  // checked when made
            value = .null
            for index in fields.indices {
                if let node = map[fields[index].label ?? ""] { node.apply(to: &fields[index].value) }
            }
            value = .record(type: type, fields: fields)
        case .elements(let map):
            guard case .array(var items) = value else { return }
            value = .null
            for (index, node) in map { node.apply(to: &items[index]) }
            value = .array(items)
        case .spliced(let at, let removing, let inserting):
            StatePatch.splice(&value, at: at, removing: removing, inserting: inserting)
        }
    }
}

extension StateDiff {
    /// Applies `tree` to `value` in place and returns the changes the touched diff from the
    /// old value to the new one gives.
    package func changes(applying tree: PatchTree, to value: inout Value, memo: IdentityMemo? = nil) -> [StateChange] {
        var changes: [StateChange] = []
        apply(tree, to: &value, path: "", memo: memo, into: &changes)
        return changes
    }

    /// Applies `tree` to `value` in place and appends the changes the touched diff from the
    /// old value to the new one gives (the same list, in the same order), found from the
    /// parts the tree replaces. A list whose changed elements keep their ids is changed in
    /// place; one where they do not is diffed whole (and copied), as the touched diff does.
    func apply(
        _ tree: PatchTree, to value: inout Value, path: String, memo: IdentityMemo?, into changes: inout [StateChange]
    ) {
        switch tree {
        case .untouched:
            return
        case .set(let replacement):
            diff(value, replacement, path: path, into: &changes)
            value = replacement
        case .fields(let map):
            guard case .record(let type, var fields) = value else { return }
            value = .null
            for index in fields.indices {
                let label = fields[index].label ?? ""
                guard let node = map[label] else { continue }
                if case .set(let replacement) = node, fields[index].value == replacement { continue }
                apply(
                    node, to: &fields[index].value, path: PathSyntax.append(label, to: path), memo: memo, into: &changes
                )
            }
            value = .record(type: type, fields: fields)
        case .elements(let map):
            guard case .array(var items) = value else { return }
            value = .null
            applyElements(map, to: &items, path: path, memo: memo, into: &changes)
            value = .array(items)
        case .spliced(let at, let removing, let inserting):
            guard case .array(var items) = value else { return }
            value = .null
            // An identified list's splice changes the list in place, as the touched diff
            // reports it; anything else is diffed whole against a copy, as it is there.
            if removing != inserting.count, let memo,
                let identities = spliceChanges(
                    items, at: at, removing: removing, inserted: inserting[...], path: path, memo: memo, into: &changes)
            {
                items.replaceSubrange(at..<(at + removing), with: inserting)
                memo.remember(items, ids: identities.ids, set: identities.set)
            } else {
                var newItems = items
                newItems.replaceSubrange(at..<(at + removing), with: inserting)
                diff(.array(items), .array(newItems), path: path, into: &changes)
                items = newItems
            }
            value = .array(items)
        }
    }

    private func applyElements(
        _ map: [Int: PatchTree], to items: inout [Value], path: String, memo: IdentityMemo?,
        into changes: inout [StateChange]
    ) {
        var changed: [(index: Int, id: String, old: Value, new: Value)] = []
        var identified = true
        for index in map.keys.sorted() {
            let old = items[index]
            var new = old
            map[index]!.apply(to: &new)
            guard old != new else { continue }
            if identified, let id = identity(old), id == identity(new) {
                changed.append((index, id, old, new))
            } else {
                identified = false
                changed.append((index, "", old, new))
            }
        }
        guard identified else {
            // An element lost or changed its id: the whole list is compared, as the
            // touched diff does.
            var newItems = items
            for entry in changed { newItems[entry.index] = entry.new }
            diff(.array(items), .array(newItems), path: path, into: &changes)
            items = newItems
            return
        }
        for entry in changed {
            diff(
                entry.old, entry.new, path: Self.keyedPath(path, entry.id), touched: map[entry.index]!.touch,
                memo: memo, into: &changes)
        }
        // The memo's hold on the list is let go while it changes (ids stay as they were).
        let known = memo?.take(items)
        for entry in changed { items[entry.index] = entry.new }
        if let known { memo?.remember(items, ids: known.ids, set: known.set) }
    }
}
