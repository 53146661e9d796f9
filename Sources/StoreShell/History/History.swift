import StoreHost
public import StoreValue

/// Where an action in the history came from.
public enum ActionSource: String, Sendable, CaseIterable {
    case typed, script, effect
}

/// One accepted action of a session.
public struct HistoryEntry: Sendable, Equatable {
    /// The action's index in the model's schema, or -1 when it is not in the schema (an
    /// effect sent an action the plugin did not list): such an entry cannot be replayed.
    public let action: Int32
    public let arguments: [Value]
    public let source: ActionSource
    /// The action as text, kept only for actions not in the schema.
    public let text: String?
    public var changed: Bool
    public var skipped: Bool
}

/// A session's actions, the position in them (actions past it are undone and can be
/// redone), and snapshots of the state every `interval` actions so a jump replays at most
/// `interval - 1` actions (Elm's debugger keeps one every 64 as well). A class: it is
/// changed in place, once per action, and must never be copied.
@MainActor
public final class History {
    public private(set) var entries: [HistoryEntry] = []
    /// How many entries are applied; entries from here on are undone.
    public private(set) var position = 0
    /// State after entry `index` (0: the initial state), for indexes that are multiples
    /// of `interval`, valid for the current timeline.
    private(set) var snapshots: [Int: Value] = [:]
    public let interval: Int

    public init(initial: Value, interval: Int = 64) {
        self.interval = interval
        snapshots[0] = initial
    }

    /// Actions that never made it into the history because they took the model's worker
    /// down (crashed, hung, interrupted): `:log` shows them where they happened.
    public private(set) var incidents: [Incident] = []

    /// Something that happened between two actions of the history.
    public struct Incident: Sendable, Equatable {
        /// How many actions had been applied when it happened.
        public let position: Int
        public let note: String
    }

    func noteIncident(_ note: String) {
        incidents.append(Incident(position: position, note: note))
    }

    /// Timelines set aside: when an action is added after a jump back, the timeline with
    /// its undone actions is kept here (an undo tree, as Emacs and Vim keep one), so
    /// `:branch N` can bring it back.
    public private(set) var branches: [Branch] = []

    /// A timeline set aside: all its actions, and how many undone ones it had past the
    /// point where the current timeline left it.
    public struct Branch: Sendable {
        public let entries: [HistoryEntry]
        /// Where the current timeline went another way (actions before it were shared).
        public let fork: Int
        public var undone: Int { entries.count - fork }
    }

    /// Adds an action at the position. Undone actions past it are not lost: the timeline
    /// holding them is set aside as a branch. Returns that branch's number (1-based), or
    /// nil when nothing was undone.
    @discardableResult
    func record(_ entry: HistoryEntry) -> Int? {
        var branch: Int?
        if position < entries.count {
            branches.append(Branch(entries: entries, fork: position))
            branch = branches.count
            entries.removeSubrange(position...)
            snapshots = snapshots.filter { $0.key <= position }
        }
        entries.append(entry)
        position += 1
        return branch
    }

    /// Makes branch `number` (1-based) the timeline, at its end; the current timeline is
    /// set aside in its place. The caller recomputes the state.
    func switchToBranch(_ number: Int) {
        let chosen = branches[number - 1]
        let shared = zip(entries, chosen.entries).prefix { $0 == $1 }.count
        branches[number - 1] = Branch(entries: entries, fork: shared)
        entries = chosen.entries
        position = entries.count
        snapshots = snapshots.filter { $0.key <= shared }
    }

    func move(to position: Int) {
        self.position = position
    }

    /// Whether a snapshot is due after the current position.
    var wantsSnapshot: Bool { position % interval == 0 && snapshots[position] == nil }

    func remember(_ state: Value, at index: Int) {
        snapshots[index] = state
    }

    /// The latest snapshot at or before `index`.
    func snapshot(atOrBefore index: Int) -> (index: Int, state: Value) {
        var candidate = index - index % interval
        while candidate > 0 {
            if let state = snapshots[candidate] { return (candidate, state) }
            candidate -= interval
        }
        return (0, snapshots[0]!)
    }

    /// Marks entry `index` (0-based) skipped or not; snapshots after it are invalid.
    func setSkipped(_ skipped: Bool, at index: Int) {
        entries[index].skipped = skipped
        snapshots = snapshots.filter { $0.key <= index }
    }

    func setChanged(_ changed: Bool, at index: Int) {
        entries[index].changed = changed
    }

    /// The state before anything happened.
    var initial: Value { snapshots[0]! }
}
