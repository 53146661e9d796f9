import Foundation
import StoreHost
import StoreValue

/// `:why PATH [all]`: the actions that changed PATH.
struct WhyCommand: ShellCommand {
    let name = "why"
    let readsOnly = true
    let usage = ":why PATH [all]"
    let summary = "the actions that changed PATH (or anything under it), newest first, with their diffs there"
    let detail = [
        "From the diffs the history keeps (an action whose diff was not worked out, in a quiet script, is replayed once in a store of its own). The 20 newest unless 'all'."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        why(arguments, origin: origin, in: core)
    }

    /// Lists the actions whose diffs touch the path, newest first.
    @MainActor private func why(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        var words = arguments.typedWords.map(\.text)
        let all = words.last == "all"
        if all { words.removeLast() }
        guard words.count == 1 else { return context.fail("usage: :why PATH [all]", origin: origin) }
        let path = words[0]
        let segments: [PathSyntax.Segment]
        do {
            segments = try PathSyntax.parse(path)
        } catch {
            return context.fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        let identity = session.model.stateDiff
        let wanted = Self.keyed(segments, in: session.state, identity: identity)
        do throws(ShellError) {
            try Self.workOutDiffs(of: history, upTo: history.position, session: session, in: context)
        } catch {
            return context.fail(error.message, origin: origin)
        }
        // Diffs worked out by a replay past one of these lack what it did, and it has no
        // place in the history to be listed at: said every time, as a rebuild says it.
        for lost in history.unreplayable(replayingUpTo: history.position) {
            context.output(
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
                "#\(history.shown(index + 1)) \(entry.text(in: session.model)) (\(entry.source.rawValue))")
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
                "action": .int(Int64(history.shown(index + 1))), "text": .string(entry.text(in: session.model)),
                "source": .string(entry.source.rawValue), "diff": .array(changes.map(\.record)),
            ])
        }
        context.output(
            .report(
                kind: "why", lines: lines,
                data: .record(["path": .string(path), "count": .int(Int64(found.count)), "actions": .array(records)])))
        return true
    }

    /// Works out the diffs the history does not know yet (actions run quietly) among the
    /// first `end`, by replaying them in a store of their own, and keeps them.
    @MainActor static func workOutDiffs(
        of history: History, upTo end: Int, session: Session, in context: some CommandContext
    ) throws(ShellError) {
        let missing = (0..<end).filter { history.diff(at: $0) == nil && !history.entries[$0].skipped }
        guard !missing.isEmpty else { return }
        let past = PastStates(history: history, upTo: end) { () throws(ShellError) in
            try context.detachedSession(of: session.model)
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
}
