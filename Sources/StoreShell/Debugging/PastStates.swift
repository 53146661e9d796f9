import StoreHost
import StoreValue

/// States of a model's past, worked out in a store of their own so the session is left
/// as it is: the state after action k is the history's snapshot at or before k, restored,
/// and the actions from there replayed (updates only). `:bisect` and `:why` ask for them.
@MainActor
final class PastStates {
    let history: History
    private let makeStore: () throws(ShellError) -> Session
    private var store: Session?
    /// The position the store is at, when it is at one of the history's.
    private var storeAt: Int?
    /// States already known: the snapshots, and those worked out.
    private var known: [Int: Value] = [:]
    /// For each known state that is not exactly the session's (a snapshot, or worked
    /// out), the position it was rebuilt from: a snapshot's own, or the one the replay
    /// that made it started at (`rebuiltFrom(_:)`).
    private var bases: [Int: Int] = [:]
    /// The position the store's state was last restored at (or started from).
    private var storeBase = 0
    /// How many times the history was replayed into the store.
    private(set) var replays = 0

    /// `makeStore`: a new store of the model (in the session's host, or in a host of its
    /// own when a probe may crash its worker).
    init(history: History, upTo position: Int, makeStore: @escaping () throws(ShellError) -> Session) {
        self.history = history
        self.makeStore = makeStore
        for (index, state) in history.snapshots where index <= position {
            known[index] = state
            bases[index] = index
        }
    }

    /// Where the state after `position` was rebuilt from (nil: it is exactly the
    /// session's, or not known yet): what an effect did between there and `position`
    /// that the history could not keep is missing from it.
    func rebuiltFrom(_ position: Int) -> Int? { bases[position] }

    /// The positions whose states are known without a replay, in order.
    var knownPositions: [Int] { known.keys.sorted() }

    /// Adds a state known otherwise (the session's current one).
    func note(_ state: Value, at position: Int) {
        known[position] = state
        bases[position] = nil
    }

    /// The state after `position` actions (0: the start).
    func state(after position: Int) throws(ShellError) -> Value {
        if let state = known[position] { return state }
        let store = try move(to: position)
        let state: Value
        do {
            state = try store.currentState()
        } catch {
            throw ShellError(error.message, origin: .prompt)
        }
        known[position] = state
        bases[position] = storeBase
        return state
    }

    /// The store, at the state after `position` actions: from where it is when that is on
    /// the way, else from the nearest snapshot (or from the start, for a model that cannot
    /// restore one).
    func move(to position: Int) throws(ShellError) -> Session {
        let snapshot = history.snapshot(atOrBefore: position)
        var live = try currentStore()
        var from: Int
        if let storeAt, storeAt <= position, storeAt >= snapshot.index {
            from = storeAt
        } else if (try? live.restore(snapshot.state)) == true {
            from = snapshot.index
            storeBase = snapshot.index
        } else {
            guard history.dropped == 0 else {
                throw ShellError(
                    "\(live.model.qualifiedName) cannot restore a snapshot, and the actions before #\(history.dropped + 1) were dropped (--history-limit)",
                    origin: .prompt)
            }
            store = try makeStore()
            live = store!
            from = 0
            storeBase = 0
        }
        if from < position {
            replays += 1
            do throws(ReplayStop) {
                try history.replay(into: live, from: from, to: position)
            } catch {
                forget()
                throw ShellError(error.message, origin: .prompt)
            }
        }
        storeAt = position
        return live
    }

    /// The store was used for something else (a probe): where it is is no longer known.
    func moved() {
        storeAt = nil
    }

    /// The store is gone (its worker was lost): the next state is worked out in a new one.
    func forget() {
        store = nil
        storeAt = nil
    }

    private func currentStore() throws(ShellError) -> Session {
        if let store { return store }
        let made = try makeStore()
        store = made
        storeAt = history.dropped == 0 ? 0 : nil
        storeBase = 0
        return made
    }
}

extension CommandContext {
    /// Says, for each effect action the history could not keep before position `end`, that
    /// `command` compared states replayed without it: its answer may not be where the
    /// session changed.
    func sayUnreplayable(upTo end: Int, in history: History, of model: String, command: String) {
        for lost in history.unreplayable(replayingUpTo: end) {
            output(
                .error(
                    ShellError(
                        "\(model): after action \(history.shown(lost.position)) \(lost.note); \(command) compared states replayed without it, so its answer may not be where the session changed",
                        origin: .prompt)))
        }
    }
}

extension StateChange {
    /// The change as a record for JSON, as an action's `diff` lists it: `op`, `path`,
    /// `old` and `new` when there is one, `from` and `to` for a move.
    var record: Value {
        var fields: [Value.Field] = [Value.Field("op", .string(kind.rawValue)), Value.Field("path", .string(path))]
        if let old { fields.append(Value.Field("old", old)) }
        if let new { fields.append(Value.Field("new", new)) }
        if let from { fields.append(Value.Field("from", .int(Int64(from)))) }
        if let to { fields.append(Value.Field("to", .int(Int64(to)))) }
        return .record(type: nil, fields: fields)
    }
}
