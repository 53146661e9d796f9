package import StoreValue

/// One difference between two states.
package struct StateChange: Equatable, Sendable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case added, removed, changed, moved
    }

    package let kind: Kind
    /// Where, written as a path `:state` accepts: `todos[2].done`, `todos["t3"]`.
    package let path: String
    package let old: Value?
    package let new: Value?
    /// For `moved`: the element's index before and after.
    package var from: Int?
    package var to: Int?

    package init(kind: Kind, path: String, old: Value?, new: Value?, from: Int? = nil, to: Int? = nil) {
        self.kind = kind
        self.path = path
        self.old = old
        self.new = new
        self.from = from
        self.to = to
    }

    /// `- path: old`, `+ path: new`, or `~ path: old → new`; long values cut short
    /// (`:state PATH --all` shows one whole).
    package var description: String {
        switch kind {
        case .added: "+ \(path): \(new?.brief(items: 20) ?? "")"
        case .removed: "- \(path): \(old?.brief(items: 20) ?? "")"
        case .changed: "~ \(path): \(old?.brief(items: 20) ?? "") → \(new?.brief(items: 20) ?? "")"
        case .moved: "↕ \(path): moved from [\(from ?? 0)] to [\(to ?? 0)]"
        }
    }
}

/// Structural diff of value trees: records by field name, enum cases by name then payload,
/// arrays of records with a unique string `id` by identity (moves, inserts, removes, as
/// Redux DevTools' jsondiffpatch does with an object hash), other arrays by index. Equal
/// subtrees are skipped without descending.
package struct StateDiff: Sendable {
    /// The fields that identify the elements of a list of records, tried in order: `id`,
    /// and before it any a model declares (`sku`).
    package let identityFields: [String]

    /// A diff that identifies list elements by `identityFields` (plus `id`).
    package init(identityFields: [String] = []) {
        self.identityFields = identityFields.contains("id") ? identityFields : identityFields + ["id"]
    }

    /// The changes from `old` to `new`, list elements identified by `id`.
    package static func changes(from old: Value, to new: Value) -> [StateChange] {
        StateDiff().changes(from: old, to: new)
    }

    /// The changes from `old` to `new`.
    package func changes(from old: Value, to new: Value) -> [StateChange] {
        var changes: [StateChange] = []
        diff(old, new, path: "", into: &changes)
        return changes
    }

    /// Compares children before descending into them, so each unchanged subtree is
    /// compared once, by its parent, and never walked again.
    func diff(_ old: Value, _ new: Value, path: String, into changes: inout [StateChange]) {
        switch (old, new) {
        case (.record(let oldType, let oldFields), .record(let newType, let newFields)) where oldType == newType:
            diffFields(oldFields, newFields, path: path, into: &changes)
        case (.enumCase(let oldName, let oldPayload), .enumCase(let newName, let newPayload))
        where oldName == newName && oldPayload.count == newPayload.count:
            for (index, (a, b)) in zip(oldPayload, newPayload).enumerated() where a.value != b.value {
                diff(a.value, b.value, path: PathSyntax.append(a.label ?? "\(index)", to: path), into: &changes)
            }
        case (.array(let oldItems), .array(let newItems)):
            if diffByPosition(oldItems, newItems, path: path, into: &changes) { return }
            if let matching = IdentityMatching(oldItems, newItems, by: self) {
                diffByIdentity(oldItems, newItems, matching, path: path, into: &changes)
                return
            }
            diffBySequence(oldItems, newItems, path: path, into: &changes)
        default:
            if old != new {
                changes.append(.init(kind: .changed, path: path.isEmpty ? "." : path, old: old, new: new))
            }
        }
    }

    /// The common case: the same elements in the same places (a toggle in a long list),
    /// told apart without hashing every id. False, having reported nothing, when the
    /// lengths or an element's id differ.
    private func diffByPosition(_ old: [Value], _ new: [Value], path: String, into changes: inout [StateChange]) -> Bool
    {
        guard old.count == new.count else { return false }
        var changed: [Int] = []
        for index in old.indices where old[index] != new[index] {
            guard let id = identity(old[index]), id == identity(new[index]) else { return false }
            changed.append(index)
        }
        for index in changed {
            diff(old[index], new[index], path: Self.keyedPath(path, identity(old[index])!), into: &changes)
        }
        return true
    }

    /// At most this many cells of longest-common-subsequence work per list (4 MB); past it
    /// the changed middle of a list is compared place by place.
    static let sequenceLimit = 1_000_000

    /// Plain lists (no ids): the common start and end are skipped; in between, a longest
    /// common subsequence says what stayed. In each gap between elements that stayed, the
    /// removed and added elements are paired in order and each pair is diffed into (an
    /// element edited in place), and the rest are removals (at their old index) and
    /// additions (at their new one) — so taking the first of two elements is one removal,
    /// not a change and a removal. Past `sequenceLimit` the middle goes place by place.
    private func diffBySequence(_ old: [Value], _ new: [Value], path: String, into changes: inout [StateChange]) {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        { suffix += 1 }
        let oldCount = old.count - prefix - suffix
        let newCount = new.count - prefix - suffix
        guard oldCount * newCount <= Self.sequenceLimit else {
            gap(old, prefix..<(prefix + oldCount), new, prefix..<(prefix + newCount), path: path, into: &changes)
            return
        }
        // common[i][j]: the longest common subsequence of the middles from i and j on.
        let width = newCount + 1
        var common = [Int32](repeating: 0, count: (oldCount + 1) * width)
        for i in stride(from: oldCount - 1, through: 0, by: -1) {
            for j in stride(from: newCount - 1, through: 0, by: -1) {
                common[i * width + j] =
                    old[prefix + i] == new[prefix + j]
                    ? common[(i + 1) * width + j + 1] + 1
                    : max(common[(i + 1) * width + j], common[i * width + j + 1])
            }
        }
        var i = 0
        var j = 0
        var gapOld = 0
        var gapNew = 0
        while i < oldCount || j < newCount {
            if i < oldCount, j < newCount, old[prefix + i] == new[prefix + j] {
                gap(
                    old, (prefix + gapOld)..<(prefix + i), new, (prefix + gapNew)..<(prefix + j), path: path,
                    into: &changes)
                i += 1
                j += 1
                gapOld = i
                gapNew = j
            } else if j == newCount || (i < oldCount && common[(i + 1) * width + j] >= common[i * width + j + 1]) {
                i += 1
            } else {
                j += 1
            }
        }
        gap(old, (prefix + gapOld)..<(prefix + i), new, (prefix + gapNew)..<(prefix + j), path: path, into: &changes)
    }

    /// One gap of a plain list: `old[removed]` became `new[added]`. Pairs in order are
    /// diffed into (named by their new index), the rest removed or added.
    private func gap(
        _ old: [Value], _ removed: Range<Int>, _ new: [Value], _ added: Range<Int>, path: String,
        into changes: inout [StateChange]
    ) {
        let paired = min(removed.count, added.count)
        for offset in 0..<paired where old[removed.lowerBound + offset] != new[added.lowerBound + offset] {
            diff(
                old[removed.lowerBound + offset], new[added.lowerBound + offset],
                path: path + "[\(added.lowerBound + offset)]", into: &changes)
        }
        for index in removed.dropFirst(paired) {
            changes.append(.init(kind: .removed, path: path + "[\(index)]", old: old[index], new: nil))
        }
        for index in added.dropFirst(paired) {
            changes.append(.init(kind: .added, path: path + "[\(index)]", old: nil, new: new[index]))
        }
    }

    /// Lists whose elements are records with unique string ids are compared by id:
    /// removed ids, then in the new order each added, moved (not in the longest run kept
    /// in order) or changed element.
    func diffByIdentity(
        _ old: [Value], _ new: [Value], _ matching: IdentityMatching, path: String, into changes: inout [StateChange]
    ) {
        for index in old.indices where !matching.kept[index] {
            changes.append(
                .init(kind: .removed, path: Self.keyedPath(path, matching.oldIDs[index]), old: old[index], new: nil))
        }
        var staying = [Bool](repeating: false, count: old.count)
        for index in Self.longestIncreasingRun(matching.oldIndex.filter { $0 >= 0 }) { staying[index] = true }
        for (index, before) in matching.oldIndex.enumerated() {
            guard before >= 0 else {
                changes.append(
                    .init(kind: .added, path: Self.keyedPath(path, matching.newIDs[index]), old: nil, new: new[index]))
                continue
            }
            if !staying[before] {
                changes.append(
                    .init(
                        kind: .moved, path: Self.keyedPath(path, matching.newIDs[index]), old: nil, new: nil,
                        from: before, to: index))
            }
            if old[before] != new[index] {
                diff(old[before], new[index], path: Self.keyedPath(path, matching.newIDs[index]), into: &changes)
            }
        }
    }

    /// The elements of `values` in a longest strictly increasing subsequence, found in
    /// O(n log n) (patience sorting): the elements that need not move.
    package static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // index into values of the last element of each run length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.append(values[cursor])
            cursor = previous[cursor]
        }
        return run.reversed()
    }

    /// A list element's id: the string value of its first identity field, for a record.
    package func identity(_ value: Value) -> String? {
        guard case .record(_, let fields) = value else { return nil }
        for key in identityFields {
            if let field = fields.first(where: { $0.label == key }) {
                if case .string(let id) = field.value { return id }
                return nil
            }
        }
        return nil
    }

    /// Every element's id, when each has one and none repeats; else nil.
    func identities(_ items: [Value]) -> [String]? {
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        var seen = Set<String>()
        for item in items {
            guard let id = identity(item), seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids
    }

    /// `todos["t3"]`: an element by its id, as `:state` and keyed actions name it.
    static func keyedPath(_ path: String, _ id: String) -> String {
        path + "[" + Value.quoted(id) + "]"
    }

    private func diffFields(_ old: [Value.Field], _ new: [Value.Field], path: String, into changes: inout [StateChange])
    {
        // The usual case, a record of the same type: the same labels in the same order.
        if old.count == new.count, zip(old, new).allSatisfy({ $0.label == $1.label }) {
            for (before, after) in zip(old, new) where before.value != after.value {
                diff(before.value, after.value, path: PathSyntax.append(before.label ?? "", to: path), into: &changes)
            }
            return
        }
        var newByLabel: [String: Value] = [:]
        for field in new { newByLabel[field.label ?? ""] = field.value }
        var oldLabels = Set<String>()
        for field in old {
            let label = field.label ?? ""
            oldLabels.insert(label)
            let fieldPath = PathSyntax.append(label, to: path)
            if let replacement = newByLabel[label] {
                if field.value != replacement { diff(field.value, replacement, path: fieldPath, into: &changes) }
            } else {
                changes.append(.init(kind: .removed, path: fieldPath, old: field.value, new: nil))
            }
        }
        for field in new where !oldLabels.contains(field.label ?? "") {
            changes.append(
                .init(kind: .added, path: PathSyntax.append(field.label ?? "", to: path), old: nil, new: field.value))
        }
    }
}
