import StoreHost
package import StoreValue

/// Where an action in the history came from.
package enum ActionSource: String, Sendable, CaseIterable {
    case typed, script, effect
}

/// One accepted action of a session.
package struct HistoryEntry: Sendable, Equatable {
    /// The action's index in the model's schema: only actions the model's own parser reads
    /// are recorded (an effect's action it cannot read is a note, `History.unreplayable`).
    package let action: Int32
    package let arguments: [Value]
    package let source: ActionSource
    package var changed: Bool
    package var skipped: Bool

    /// The action as `model` writes it (`add("milk")`), as logs and reports show it.
    func text(in model: ModelDescriptor) -> String {
        model.actions[Int(action)].text(with: arguments)
    }
}

/// A session's actions, the position in them (actions past it are undone and can be
/// redone), and snapshots of the state every `interval` actions so a jump replays at most
/// `interval - 1` actions (Elm's debugger keeps one every 64 as well). A class: it is
/// changed in place, once per action, and must never be copied.
@MainActor
package final class History {
    @exclusivity(unchecked) package private(set) var entries: [HistoryEntry] = []
    /// The diff each entry made, when the shell worked it out as the action was applied
    /// (the newest `keptDiffs` actions) or `:why` worked it out since. Kept apart from
    /// `entries`, whose equality says which timelines share actions.
    @exclusivity(unchecked) private var diffs = RecordedDiffs(window: History.keptDiffs)
    /// How many entries are applied; entries from here on are undone.
    @exclusivity(unchecked) package private(set) var position = 0
    /// State after entry `index` (0: the initial state), for indexes that are multiples
    /// of `interval`, valid for the current timeline.
    @exclusivity(unchecked) package private(set) var snapshots: [Int: Value] = [:]
    package let interval: Int
    /// How many actions at most are kept (`--history-limit`); nil: all of them.
    package let limit: Int?
    /// Actions dropped from the front to keep within `limit`: entry 0 is action
    /// `dropped + 1` as the user counts, and `initial` is the state after `dropped`.
    package private(set) var dropped = 0
    /// Whether the model can restore a snapshot, which dropping actions needs (the state
    /// they led to is then the start); nil until a trim first asks.
    var restorable: Bool?
    /// At most this many snapshots are kept: older ones are thinned evenly, so a jump far
    /// back replays more actions but memory stays bounded.
    nonisolated package static let maximumSnapshots = 1024
    /// Older snapshots are kept only at multiples of this (`interval` until there are
    /// too many).
    private lazy var snapshotSpacing = interval
    /// How many of the newest actions keep the diff they made as they are recorded. A diff
    /// holds old and new values: a counter's takes about 200 bytes, so 100,000 of them were
    /// 20 MB, and writing them made `--format json` 7% slower than before `:why` kept any.
    /// `:why` works out older ones when asked (and keeps them).
    nonisolated static let keptDiffs = 10_000
    /// The limit storesh uses unless told otherwise: about 85 MB of actions.
    nonisolated package static let defaultLimit = 1_000_000

    package init(initial: Value, interval: Int = 64, limit: Int? = nil, dropped: Int = 0) {
        self.interval = interval
        self.limit = limit
        self.dropped = dropped
        snapshots[0] = initial
    }

    /// Whether actions should be dropped now to keep within the limit (checked after each
    /// action). It waits for an eighth of the limit past it, so it drops in chunks and
    /// moving the kept entries costs a few copies per action, not one per action.
    var wantsTrim: Bool {
        guard let limit, restorable != false else { return false }
        return entries.count > limit + max(interval, limit / 8) && entries.count >= retryTrimAt
    }

    /// After a trim that found no snapshot to cut at, the next try waits for this count.
    private var retryTrimAt = 0

    /// Drops the oldest actions down to the limit, to the latest snapshot at or before
    /// the cut (and never past the current position): that snapshot becomes the start.
    /// Branches that left the timeline before the cut go with it. Returns how many
    /// actions were dropped.
    @discardableResult
    func trim() -> Int {
        guard let limit else { return 0 }
        let latest = min(entries.count - limit, position)
        guard let cut = snapshots.keys.filter({ $0 > 0 && $0 <= latest }).max() else {
            retryTrimAt = entries.count + interval
            return 0
        }
        entries.removeFirst(cut)
        position -= cut
        dropped += cut
        diffs.forget(before: dropped)
        var moved: [Int: Value] = [:]
        for (key, state) in snapshots where key >= cut { moved[key - cut] = state }
        snapshots = moved
        incidents = incidents.filter { $0.position >= cut }.map { Incident(position: $0.position - cut, note: $0.note) }
        unreplayable = unreplayable.filter { $0.position >= cut }.map {
            Incident(position: $0.position - cut, note: $0.note)
        }
        branches = branches.filter { $0.fork >= cut }.map {
            Branch(
                entries: Array($0.entries.dropFirst(cut)), fork: $0.fork - cut,
                unreplayable: $0.unreplayable.filter { $0.position >= cut }.map {
                    Incident(position: $0.position - cut, note: $0.note)
                })
        }
        return cut
    }

    /// Actions that never made it into the history because they took the model's worker
    /// down (crashed, hung, interrupted): `:log` shows them where they happened.
    package private(set) var incidents: [Incident] = []

    /// Something that happened between two actions of the history.
    package struct Incident: Sendable, Equatable {
        /// How many actions had been applied when it happened.
        package let position: Int
        package let note: String
    }

    func noteIncident(_ note: String) {
        incidents.append(Incident(position: position, note: note))
    }

    /// Actions an effect applied that the model's own parser cannot read back, so they are
    /// in neither the history nor the journal: a replay through one of these positions
    /// gives a state without it. `:log` shows them where they happened.
    package private(set) var unreplayable: [Incident] = []

    func noteUnreplayable(_ note: String) {
        unreplayable.append(Incident(position: position, note: note))
    }

    /// The unreplayable actions a replay from `start` to `target` leaves out.
    func unreplayable(from start: Int, to target: Int) -> [Incident] {
        unreplayable.filter { $0.position >= start && $0.position <= target }
    }

    /// The unreplayable actions a state rebuilt from position `base` (a snapshot's, or the
    /// start) up to `position` lacks: one after an action from `base` on and before
    /// `position`, or after the last action when `position` is the end of the history.
    func unreplayable(rebuiltFrom base: Int, at position: Int) -> [Incident] {
        unreplayable.filter {
            $0.position >= base && ($0.position < position || ($0.position == position && position == entries.count))
        }
    }

    /// The unreplayable actions that states worked out by replaying the first `end` actions
    /// lack: one between two of those actions, or one after the last of them when that is
    /// the end of the history (the session's live state held it; a state rebuilt at an
    /// earlier position never did).
    func unreplayable(replayingUpTo end: Int) -> [Incident] {
        unreplayable.filter { $0.position < end || ($0.position == end && end == entries.count) }
    }

    /// Carries notes over to a history whose entries are this one's, bound anew, with some
    /// left out: `kept(n)` is how many of the first `n` entries the new one has.
    func carryUnreplayable(to other: History, kept: (Int) -> Int) {
        other.unreplayable = unreplayable.map { Incident(position: kept($0.position), note: $0.note) }
    }

    /// Timelines set aside: when an action is added after a jump back, the timeline with
    /// its undone actions is kept here (an undo tree, as Emacs and Vim keep one), so
    /// `:branch N` can bring it back.
    package private(set) var branches: [Branch] = []

    /// A timeline set aside: all its actions, and how many undone ones it had past the
    /// point where the current timeline left it.
    package struct Branch: Sendable {
        package let entries: [HistoryEntry]
        /// Where the current timeline went another way (actions before it were shared).
        package let fork: Int
        /// The timeline's notes of effect actions that cannot be replayed (`unreplayable`).
        let unreplayable: [Incident]
        package var undone: Int { entries.count - fork }
    }

    /// Adds an action at the position. Undone actions past it are not lost: the timeline
    /// holding them is set aside as a branch. Returns that branch's number (1-based), or
    /// nil when nothing was undone.
    @discardableResult
    func record(_ entry: HistoryEntry) -> Int? {
        var branch: Int?
        if position < entries.count {
            branches.append(Branch(entries: entries, fork: position, unreplayable: unreplayable))
            branch = branches.count
            entries.removeSubrange(position...)
            unreplayable.removeAll { $0.position > position }
            diffs.forget(from: dropped + position, newestNow: dropped + position - 1)
            snapshots = snapshots.filter { $0.key <= position }
        }
        entries.append(entry)
        // Diffs are kept for the newest actions only; `:why` works older ones out again.
        diffs.recorded(dropped + entries.count - 1)
        position += 1
        return branch
    }

    /// Makes branch `number` (1-based) the timeline, at its end; the current timeline is
    /// set aside in its place. The caller recomputes the state.
    func switchToBranch(_ number: Int) {
        let chosen = branches[number - 1]
        let shared = zip(entries, chosen.entries).prefix { $0 == $1 }.count
        branches[number - 1] = Branch(entries: entries, fork: shared, unreplayable: unreplayable)
        entries = chosen.entries
        unreplayable = chosen.unreplayable
        diffs.forget(from: dropped + shared, newestNow: dropped + entries.count - 1)
        position = entries.count
        snapshots = snapshots.filter { $0.key <= shared }
    }

    func move(to position: Int) {
        self.position = position
    }

    /// Whether a snapshot is due after the current position.
    var wantsSnapshot: Bool { position % interval == 0 && snapshots[position] == nil }

    package func remember(_ state: Value, at index: Int) {
        snapshots[index] = state
        guard snapshots.count > Self.maximumSnapshots else { return }
        // Thin all but the newest 32 evenly: keep those at multiples of the spacing,
        // doubling it while that is still too many. A jump replays fewer than `spacing`
        // actions, and a cut for the limit finds a snapshot near where it wants one.
        let keys = snapshots.keys.filter { $0 > 0 }.sorted()
        let older = keys.dropLast(32)
        while true {
            for key in older where key % snapshotSpacing != 0 { snapshots[key] = nil }
            guard snapshots.count > Self.maximumSnapshots else { return }
            snapshotSpacing *= 2
        }
    }

    /// The latest snapshot at or before `index`.
    package func snapshot(atOrBefore index: Int) -> (index: Int, state: Value) {
        var candidate = index - index % interval
        while candidate > 0 {
            if let state = snapshots[candidate] { return (candidate, state) }
            candidate -= interval
        }
        return (0, snapshots[0]!)
    }

    /// Action `number` as the user counts them (from 1, dropped ones included) as an
    /// index into `entries`, or a position (0 = the start) as stored.
    /// Below every stored position for a number that low (a client's, a typed one): the
    /// lowest Int less the dropped actions would overflow.
    func stored(_ number: Int) -> Int { number < Int.min + dropped ? Int.min : number - dropped }
    /// A stored position as the user counts it.
    func shown(_ position: Int) -> Int { position + dropped }

    /// Marks entry `index` (0-based) skipped or not; snapshots after it are invalid.
    func setSkipped(_ skipped: Bool, at index: Int) {
        entries[index].skipped = skipped
        snapshots = snapshots.filter { $0.key <= index }
        diffs.forget(from: dropped + index, newestNow: dropped + entries.count - 1)
    }

    func setChanged(_ changed: Bool, at index: Int) {
        entries[index].changed = changed
        diffs[dropped + index] = nil
    }

    /// Keeps the diff entry `index` (0-based) made.
    func setDiff(_ changes: [StateChange], at index: Int) {
        diffs[dropped + index] = changes
    }

    /// The diff entry `index` (0-based) made, when known.
    func diff(at index: Int) -> [StateChange]? {
        diffs[dropped + index]
    }

    /// The state before anything happened.
    var initial: Value { snapshots[0]! }
}
