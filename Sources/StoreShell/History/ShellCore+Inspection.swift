import StoreHost
package import StoreValue

/// Reads for a client that looks at a model's past without moving the session (the
/// inspector's page): a page of the history, and the state after any action with the diff
/// that action made. Past states are worked out as `:why` works them out (`PastStates`: a
/// snapshot restored, the actions after it replayed, in a store of its own), and the store
/// is kept while the history only grows.
extension ShellCore {
    /// Actions `from` to `from + count - 1` (counting from 1, as `:log` does) of `model`'s
    /// history as a record: `entries` (each as `:log` lists it), `count`, `position`,
    /// `dropped`, `from`, `to` and `incidents` (actions that took the worker down, each
    /// `after` an action). Nil when the model has no history.
    package func historyPage(of model: String, from: Int, count: Int) -> Value? {
        guard let history = recorder.histories[model], let descriptor = sessions[model]?.model else { return nil }
        let first = max(0, min(history.stored(max(from, 1)) - 1, history.entries.count))
        let end = min(history.entries.count, first + max(0, min(count, 1_000)))
        let records = (first..<end).map { logRecord(at: $0, of: history, in: descriptor) }
        return .record([
            "model": .string(model), "entries": .array(records),
            "count": .int(Int64(history.shown(history.entries.count))),
            "position": .int(Int64(history.shown(history.position))),
            "dropped": .int(Int64(history.dropped)), "from": .int(Int64(history.shown(first) + 1)),
            "to": .int(Int64(history.shown(end))),
            "incidents": .array(
                history.incidents.map {
                    .record(["after": .int(Int64(history.shown($0.position))), "note": .string($0.note)])
                }),
        ])
    }

    /// The state of `model` after action `number` (counting from 1 as `:log` does; the
    /// history's first kept position for anything before it), the diff that action made
    /// (empty for the start), and what that state lacks: a state rebuilt by replaying has
    /// nothing of an effect's action the history could not keep (`History.unreplayable`),
    /// and says so (`lacking`, each with the action it came after, as `:log` counts).
    /// The session does not move.
    package func pastState(of model: String, after number: Int) throws(ShellError) -> (
        state: Value, diff: [Value], position: Int, lacking: [History.Incident]
    ) {
        guard let history = recorder.histories[model], let session = sessions[model] else {
            throw ShellError("no model \(model) is loaded", origin: .prompt)
        }
        let position = max(0, min(history.stored(number), history.entries.count))
        let past = try inspectionPast(of: history, session: session)
        let state = position == history.position ? session.state : try past.state(after: position)
        var diff: [StateChange] = []
        if position > 0, !history.entries[position - 1].skipped {
            if let known = history.diff(at: position - 1) {
                diff = known
            } else if history.entries[position - 1].changed {
                diff = session.model.stateDiff.changes(from: try past.state(after: position - 1), to: state)
                history.setDiff(diff, at: position - 1)
            }
        }
        let lacking =
            position == history.position
            ? [] : past.rebuiltFrom(position).map { history.unreplayable(rebuiltFrom: $0, at: position) } ?? []
        return (
            state, diff.map(\.record), history.shown(position),
            lacking.map { History.Incident(position: history.shown($0.position), note: $0.note) }
        )
    }

    /// The past states of `history`, kept while it only grew since they were made: the
    /// same history and store, no action dropped, no branch set aside, as many skipped.
    private func inspectionPast(of history: History, session: Session) throws(ShellError) -> PastStates {
        let shape = InspectionState.Shape(
            history: ObjectIdentifier(history), session: ObjectIdentifier(session), dropped: history.dropped,
            branches: history.branches.count, skipped: history.entries.lazy.filter(\.skipped).count)
        // Every state worked out is kept (`PastStates.known`): start afresh now and then,
        // so a slider dragged through a long history does not hold all of them.
        if let kept = inspection.past, kept.shape == shape, kept.uses < 256 {
            inspection.past?.uses += 1
            return kept.past
        }
        let past = PastStates(history: history, upTo: history.entries.count) { () throws(ShellError) in
            try self.detachedSession(of: session.model)
        }
        inspection.past = (shape, 0, past)
        return past
    }
}

/// What the inspection reads keep between calls.
@MainActor
final class InspectionState {
    /// What must not change for kept past states to stay true.
    struct Shape: Equatable {
        let history: ObjectIdentifier
        let session: ObjectIdentifier
        let dropped: Int
        let branches: Int
        let skipped: Int
    }

    var past: (shape: Shape, uses: Int, past: PastStates)?
}
