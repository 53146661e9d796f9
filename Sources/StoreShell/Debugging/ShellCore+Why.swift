import StoreHost
import StoreValue

/// `:why PATH` (which actions changed a part of the state) and `:find TEXT` (where in
/// the state a key or a value is).
extension ShellCore {
    func why(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current, let history = recorder.histories[session.model.qualifiedName] else {
            return fail(noCurrentModel, origin: origin)
        }
        var words = arguments.typedWords.map(\.text)
        let all = words.last == "all"
        if all { words.removeLast() }
        guard words.count == 1 else { return fail("usage: :why PATH [all]", origin: origin) }
        let path = words[0]
        let segments: [PathSyntax.Segment]
        do {
            segments = try PathSyntax.parse(path)
        } catch {
            return fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        let identity = session.model.stateDiff
        let wanted = Self.keyed(segments, in: session.state, identity: identity)
        do throws(ShellError) {
            try workOutDiffs(of: history, upTo: history.position, session: session)
        } catch {
            return fail(error.message, origin: origin)
        }
        // Diffs worked out by a replay past one of these lack what it did, and it has no
        // place in the history to be listed at: said every time, as a rebuild says it.
        for lost in history.unreplayable(replayingUpTo: history.position) {
            output(
                .error(
                    ShellError(
                        "\(session.model.qualifiedName): after action \(history.shown(lost.position)) \(lost.note): :why cannot list what it changed, and the changes of later actions worked out by replaying lack it",
                        origin: .prompt)))
        }
        var found: [(index: Int, changes: [StateChange])] = []
        var parsed: [String: [PathSyntax.Segment]] = [:]
        for index in stride(from: history.position - 1, through: 0, by: -1) where !history.entries[index].skipped {
            guard let diff = history.diff(at: index), !diff.isEmpty else { continue }
            let touching = diff.filter { change in
                let changed = parsed[change.path] ?? ((try? PathSyntax.parse(change.path)) ?? [])
                parsed[change.path] = changed
                return Self.overlaps(changed, wanted)
            }
            if !touching.isEmpty { found.append((index, touching)) }
        }
        let shown = all ? found[...] : found.prefix(20)
        var lines: [String] = []
        for (index, changes) in shown {
            let entry = history.entries[index]
            lines.append(
                "#\(history.shown(index + 1)) \(text(of: entry, in: session.model)) (\(entry.source.rawValue))")
            lines += changes.map { "  " + $0.description }
        }
        if found.isEmpty {
            lines = [
                "no action changed \(path) (in \(history.shown(history.position)) action\(history.position == 1 ? "" : "s"))"
            ]
        } else if shown.count < found.count {
            lines.append(
                "… \(found.count - shown.count) older action\(found.count - shown.count == 1 ? "" : "s") (:why \(path) all shows them)"
            )
        }
        let records: [Value] = shown.map { index, changes in
            let entry = history.entries[index]
            return .record([
                "action": .int(Int64(history.shown(index + 1))), "text": .string(text(of: entry, in: session.model)),
                "source": .string(entry.source.rawValue), "diff": .array(changes.map(\.record)),
            ])
        }
        output(
            .report(
                kind: "why", lines: lines,
                data: .record(["path": .string(path), "count": .int(Int64(found.count)), "actions": .array(records)])))
        return true
    }

    /// Works out the diffs the history does not know yet (actions run quietly) among the
    /// first `end`, by replaying them in a store of their own, and keeps them.
    func workOutDiffs(of history: History, upTo end: Int, session: Session) throws(ShellError) {
        let missing = (0..<end).filter { history.diff(at: $0) == nil && !history.entries[$0].skipped }
        guard !missing.isEmpty else { return }
        let past = PastStates(core: self, history: history, upTo: end) { () throws(ShellError) in
            try self.detachedSession(of: session.model)
        }
        let identity = session.model.stateDiff
        for index in missing where history.diff(at: index) == nil {
            guard history.entries[index].changed else {
                history.setDiff([], at: index)
                continue
            }
            let before = try past.state(after: index)
            let after = try past.state(after: index + 1)
            history.setDiff(identity.changes(from: before, to: after), at: index)
        }
    }

    /// Whether a change at `changed` touches `wanted`: one is the other or under it.
    static func overlaps(_ changed: [PathSyntax.Segment], _ wanted: [PathSyntax.Segment]) -> Bool {
        zip(changed, wanted).allSatisfy { $0 == $1 }
    }

    /// `segments` as a diff names them: an index into a list whose elements have ids
    /// becomes the element's id (`todos[0]` → `todos["t1"]`), as far as `state` has them.
    static func keyed(_ segments: [PathSyntax.Segment], in state: Value, identity: StateDiff) -> [PathSyntax.Segment] {
        var current: Value? = state
        return segments.map { segment in
            defer {
                current = current.flatMap {
                    try? PathSyntax.lookup(PathSyntax.text(of: [segment]), in: $0, identity: identity)
                }
            }
            guard case .index(let index) = segment, case .array(let items)? = current, items.indices.contains(index),
                let id = identity.identity(items[index])
            else { return segment }
            return .field(id)
        }
    }

    func find(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let words = arguments.words
        guard words.count == 1, !words[0].isEmpty else {
            return fail("usage: :find TEXT (in quotes when it has spaces)", origin: origin)
        }
        let needle = words[0]
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return fail(error.message, origin: origin)
        }
        let matches = Self.paths(in: state, matching: needle, identity: session.model.stateDiff)
        let limit = 100
        var lines = matches.prefix(limit).map { "\($0.path): \($0.value.brief(items: 5))" }
        if matches.isEmpty { lines = ["nothing in the state has '\(needle)' in a key or a value"] }
        if matches.count > limit { lines.append("… \(matches.count - limit) more") }
        output(
            .report(
                kind: "find", lines: lines,
                data: .record([
                    "text": .string(needle), "count": .int(Int64(matches.count)),
                    "matches": .array(
                        matches.prefix(limit).map { .record(["path": .string($0.path), "value": $0.value]) }),
                ])))
        return true
    }

    /// The paths (as `:state` takes them) whose last key, or whose value (a string, a
    /// number, a boolean or an enum case's name), contains `needle`, ignoring case; in the
    /// order of the state. Walked with a stack of its own: no recursion on input depth.
    static func paths(in state: Value, matching needle: String, identity: StateDiff) -> [(path: String, value: Value)] {
        var found: [(path: String, value: Value)] = []
        var stack: [(path: String, key: String?, value: Value)] = [(".", nil, state)]
        while let (path, key, value) = stack.popLast() {
            let keyMatches = key.map { $0.range(of: needle, options: .caseInsensitive) != nil } ?? false
            var children: [(path: String, key: String?, value: Value)] = []
            var scalar: String?
            switch value {
            case .record(_, let fields):
                for (offset, field) in fields.enumerated() {
                    let label = field.label ?? String(offset)
                    children.append((PathSyntax.append(label, to: path == "." ? "" : path), label, field.value))
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    let id = identity.identity(item)
                    children.append(
                        ((path == "." ? "" : path) + "[\(id.map(Value.quoted) ?? String(index))]", id, item))
                }
            case .enumCase(let name, let payload):
                scalar = name
                for (offset, field) in payload.enumerated() {
                    let label = field.label ?? String(offset)
                    children.append((PathSyntax.append(label, to: path == "." ? "" : path), label, field.value))
                }
            case .string(let text): scalar = text
            case .null: scalar = nil
            default: scalar = value.compact
            }
            let valueMatches = scalar.map { $0.range(of: needle, options: .caseInsensitive) != nil } ?? false
            if keyMatches || valueMatches { found.append((path, value)) }
            stack += children.reversed()
        }
        return found
    }
}
