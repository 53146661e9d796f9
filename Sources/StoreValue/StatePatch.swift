/// One change to a state tree, as a plugin reports what changed since its last snapshot
/// (`sp_model.snapshot_changes` in storeplugin.h), so a host need not read a large state
/// whole after every action. Patches apply in order.
public enum StatePatch: Hashable, Sendable {
    /// The value at `path` is now `value` (an empty path: the whole state).
    case set(path: [Segment], value: Value)
    /// In the array at `path`, `removing` elements from index `at` on were replaced by
    /// `inserting`.
    case splice(path: [Segment], at: Int, removing: Int, inserting: [Value])

    /// One step of a path: a record's field or an array's index.
    public enum Segment: Hashable, Sendable {
        /// The field with this name.
        case field(String)
        /// The element at this index.
        case index(Int)
    }

    /// Where the patch applies.
    public var path: [Segment] {
        switch self {
        case .set(let path, _), .splice(let path, _, _, _): path
        }
    }

    /// A patch that does not fit the value it is applied to.
    public struct Mismatch: Error, CustomStringConvertible {
        /// What did not fit, and where.
        public let description: String
    }

    /// Applies the patch to `value`. Throws, leaving `value` as it was, when the path does
    /// not exist or a splice's range is outside its array.
    public func apply(to value: inout Value) throws(Mismatch) {
        // Validate first, so a bad patch changes nothing.
        try check(against: value)
        Self.modify(&value, path[...]) { target in
            switch self {
            case .set(_, let replacement):
                target = replacement
            case .splice(_, let at, let removing, let inserting):
                Self.splice(&target, at: at, removing: removing, inserting: inserting)
            }
        }
    }

    /// In the array `value` is, replaces `removing` elements from `at` on with `inserting`,
    /// in place: the array is taken out of `value` first, so it is not copied unless
    /// something else holds it. The splice must fit (`spliceFits`); a value that is not
    /// an array is left as it is.
    package static func splice(_ value: inout Value, at: Int, removing: Int, inserting: [Value]) {
        guard case .array(var items) = value else { return }
        value = .null
        items.replaceSubrange(at..<(at + removing), with: inserting)
        value = .array(items)
    }

    /// Whether a splice of `removing` elements from `at` on fits an array of `count`.
    package static func spliceFits(at: Int, removing: Int, count: Int) -> Bool {
        at >= 0 && removing >= 0 && at <= count && removing <= count - at
    }

    /// Throws unless the patch fits `value`. A function of its own, so nothing it looked
    /// at is still held when the patch is applied (which would make every level a copy).
    private func check(against value: Value) throws(Mismatch) {
        guard path.count <= Value.maxDepth else {
            throw Mismatch(description: "a change's path is longer than \(Value.maxDepth) steps")
        }
        var target = value
        for segment in path { target = try Self.child(of: target, at: segment) }
        if case .splice(_, let at, let removing, _) = self {
            guard case .array(let items) = target else {
                throw Mismatch(description: "a splice at \(Self.text(path)), which is not an array")
            }
            guard Self.spliceFits(at: at, removing: removing, count: items.count) else {
                throw Mismatch(
                    description:
                        "a splice of \(removing) at \(at) in \(Self.text(path)), which has \(items.count) elements")
            }
        }
    }

    private static func child(of value: Value, at segment: Segment) throws(Mismatch) -> Value {
        switch (value, segment) {
        case (.record(_, let fields), .field(let label)):
            if let field = fields.first(where: { $0.label == label }) { return field.value }
        case (.array(let items), .index(let index)):
            if items.indices.contains(index) { return items[index] }
        default: break
        }
        throw Mismatch(description: "a change at \(text([segment])), which the state does not have")
    }

    /// Changes the value at `path` in place; the path was checked to exist. Each level is
    /// taken out of its parent first so that, unless something else holds it, it is
    /// changed without a copy.
    private static func modify(_ value: inout Value, _ path: ArraySlice<Segment>, _ change: (inout Value) -> Void) {
        guard let segment = path.first else { return change(&value) }
        // Bound with `guard case` on the value alone: a switch over `(value, segment)`
        // would hold a second reference to it for the whole switch, and every level would
        // be copied after all.
        switch segment {
        case .field(let label):
            guard case .record(let type, var fields) = value,
                let index = fields.firstIndex(where: { $0.label == label })
            else { return }
            value = .null
            modify(&fields[index].value, path.dropFirst(), change)
            value = .record(type: type, fields: fields)
        case .index(let index):
            guard case .array(var items) = value else { return }
            value = .null
            modify(&items[index], path.dropFirst(), change)
            value = .array(items)
        }
    }

    /// `value` with `patches` applied in order; throws at the first that does not fit.
    public static func apply(_ patches: [StatePatch], to value: Value) throws(Mismatch) -> Value {
        var result = value
        for patch in patches { try patch.apply(to: &result) }
        return result
    }

    /// `todos[3].done`: a path as messages show it.
    public static func text(_ path: [Segment]) -> String {
        path.isEmpty
            ? "."
            : path.map { segment in
                switch segment {
                case .field(let label): "." + label
                case .index(let index): "[\(index)]"
                }
            }.joined()
    }
}

extension StatePatch {
    /// The patch as a value tree, the form `snapshot_changes` returns: a record named
    /// `set` with `path` and `value`, or one named `splice` with `path`, `at`, `remove`
    /// and `insert`. A path is an array of strings (fields) and integers (indices).
    public var value: Value {
        let segments = Value.array(
            path.map { segment in
                switch segment {
                case .field(let label): .string(label)
                case .index(let index): .int(Int64(index))
                }
            })
        switch self {
        case .set(_, let value):
            return .record(type: "set", fields: [.init("path", segments), .init("value", value)])
        case .splice(_, let at, let removing, let inserting):
            return .record(
                type: "splice",
                fields: [
                    .init("path", segments), .init("at", .int(Int64(at))), .init("remove", .int(Int64(removing))),
                    .init("insert", .array(inserting)),
                ])
        }
    }

    /// A list of changes in the form `snapshot_changes` returns it: an array of `set` and
    /// `splice` records. Throws, naming what is wrong, for anything else.
    public static func list(_ value: Value) throws(Mismatch) -> [StatePatch] {
        guard case .array(let items) = value else { throw Mismatch(description: "a \(value.kindName), not an array") }
        var patches: [StatePatch] = []
        patches.reserveCapacity(items.count)
        for item in items { patches.append(try StatePatch(item)) }
        return patches
    }

    /// A list of changes as `snapshot_changes_encoded` writes it: one value in the wire
    /// encoding, with nothing after it. Throws a `WireError` for bytes that do not parse,
    /// a `Mismatch` for a value that is not a list of changes.
    package static func list(encoded bytes: [UInt8]) throws -> [StatePatch] {
        var reader = WireReader(bytes)
        let value = try reader.value()
        try reader.finish(after: "the list")
        return try list(value)
    }

    /// Reads a patch from its value-tree form; throws when the tree is not one.
    public init(_ value: Value) throws(Mismatch) {
        guard case .record(let type, _) = value, let type else {
            throw Mismatch(description: "a change that is not a set or splice record")
        }
        guard case .array(let items)? = value["path"] else { throw Mismatch(description: "a change without a path") }
        var path: [Segment] = []
        path.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .string(let label): path.append(.field(label))
            case .int(let index):
                guard let index = Int(exactly: index) else { throw Mismatch(description: "a path index out of range") }
                path.append(.index(index))
            default: throw Mismatch(description: "a path step that is a \(item.kindName), not a string or an integer")
            }
        }
        switch type {
        case "set":
            guard let replacement = value["value"] else {
                throw Mismatch(description: "a set without a value at \(Self.text(path))")
            }
            self = .set(path: path, value: replacement)
        case "splice":
            guard case .int(let at)? = value["at"], case .int(let removing)? = value["remove"],
                case .array(let inserting)? = value["insert"],
                let at = Int(exactly: at), let removing = Int(exactly: removing)
            else {
                throw Mismatch(description: "a splice at \(Self.text(path)) without at, remove and insert")
            }
            self = .splice(path: path, at: at, removing: removing, inserting: inserting)
        default:
            throw Mismatch(description: "a change named '\(type)', not set or splice")
        }
    }
}
