public import StoreValue

/// The parts of a state that a plugin's changes (`StatePatch`es) may have changed, so a
/// diff looks only there: a toggle in a list of 100,000 compares one element, not all.
public indirect enum StateTouch: Equatable, Sendable {
    /// Anything here may have changed.
    case whole
    /// Only these fields of a record.
    case fields([String: StateTouch])
    /// Only these elements of an array (whose length did not change).
    case elements([Int: StateTouch])

    /// What `patches` touch; `.whole` when one of them replaces the whole state.
    public init(_ patches: [StatePatch]) {
        var touch = StateTouch.fields([:])
        for patch in patches { touch.mark(patch.path[...]) }
        self = touch
    }

    private mutating func mark(_ path: ArraySlice<StatePatch.Segment>) {
        guard let step = path.first else { return self = .whole }
        switch (self, step) {
        case (.whole, _): return
        case (.fields(var map), .field(let label)):
            self = .whole // released while changed, so the map is not copied
            map[label, default: .fields([:])].mark(path.dropFirst())
            self = .fields(map)
        case (.elements(var map), .index(let index)):
            self = .whole
            map[index, default: .fields([:])].mark(path.dropFirst())
            self = .elements(map)
        case (.fields(let map), .index(let index)) where map.isEmpty:
            self = .elements([index: .fields([:])])
            mark(path)
        default:
            self = .whole // a field of an array, an index of a record: let the diff sort it out
        }
    }
}

extension StateDiff {
    /// The changes from `old` to `new` where only the parts `touched` names can differ:
    /// the same list, in the same order, as `changes(from:to:)`, found by looking only
    /// there.
    public static func changes(from old: Value, to new: Value, touched: StateTouch) -> [StateChange] {
        var changes: [StateChange] = []
        diff(old, new, path: "", touched: touched, into: &changes)
        return changes
    }

    private static func diff(_ old: Value, _ new: Value, path: String, touched: StateTouch, into changes: inout [StateChange]) {
        switch (touched, old, new) {
        case (.fields(let map), .record(let oldType, let oldFields), .record(let newType, let newFields)) where oldType == newType:
            var oldLabels = Set<String>()
            for field in oldFields {
                let label = field.label ?? ""
                oldLabels.insert(label)
                guard let inner = map[label] else { continue }
                let fieldPath = PathSyntax.append(label, to: path)
                if let replacement = newFields.first(where: { ($0.label ?? "") == label }) {
                    if field.value != replacement.value { diff(field.value, replacement.value, path: fieldPath, touched: inner, into: &changes) }
                } else {
                    changes.append(.init(kind: .removed, path: fieldPath, old: field.value, new: nil))
                }
            }
            for field in newFields where map[field.label ?? ""] != nil && !oldLabels.contains(field.label ?? "") {
                changes.append(.init(kind: .added, path: PathSyntax.append(field.label ?? "", to: path), old: nil, new: field.value))
            }
        case (.elements(let map), .array(let oldItems), .array(let newItems)) where oldItems.count == newItems.count:
            // As the whole diff does for a list of the same length: elements that keep
            // their ids are named by id; otherwise the whole list is compared.
            var changed: [(Int, String)] = []
            for index in map.keys.sorted() where oldItems.indices.contains(index) && oldItems[index] != newItems[index] {
                guard let id = identity(oldItems[index]), id == identity(newItems[index]) else {
                    return diff(old, new, path: path, into: &changes)
                }
                changed.append((index, id))
            }
            for (index, id) in changed {
                diff(oldItems[index], newItems[index], path: keyedPath(path, id), touched: map[index]!, into: &changes)
            }
        default:
            diff(old, new, path: path, into: &changes)
        }
    }
}
