import StoreHost

/// The diffs a history's actions made, by action number (counted from the session's
/// start, dropped actions included, so a trim moves nothing).
///
/// The newest `window` actions keep theirs in a ring that grows to the window and no
/// further; a diff worked out later for an older action (`:why`, `:bisect`) is kept in a
/// table beside it. So an action recorded past the window costs no memory here: a slot
/// per action, kept for the whole history, cost 20 bytes per recorded action of resident
/// memory (the slot and the copies a growing array leaves behind).
struct RecordedDiffs {
    private struct Slot {
        /// The action whose diff this is; -1: none.
        var number = -1
        var changes: [StateChange]?
    }

    /// How many of the newest actions keep the diff they made as they are recorded.
    let window: Int
    /// A power of two, at most the first one at or above `window`.
    private var ring: [Slot] = []
    /// Diffs of actions older than the window, worked out when asked for.
    private var older: [Int: [StateChange]] = [:]
    /// The newest action recorded; the window is the `window` numbers up to it.
    private var newest = -1

    init(window: Int) {
        precondition(window > 0, "a window of at least one action")
        self.window = window
    }

    /// The diff action `number` made, when known.
    subscript(number: Int) -> [StateChange]? {
        get {
            if number > newest - window, !ring.isEmpty {
                let slot = ring[number & (ring.count - 1)]
                if slot.number == number { return slot.changes }
            }
            return older[number]
        }
        set {
            guard number <= newest else { return }
            guard number > newest - window else {
                older[number] = newValue
                // A slot it had in the ring (from when it was in the window) is out of date.
                if !ring.isEmpty, ring[number & (ring.count - 1)].number == number {
                    ring[number & (ring.count - 1)] = Slot()
                }
                return
            }
            if !older.isEmpty { older[number] = nil }
            makeRoom(for: number)
            ring[number & (ring.count - 1)] = Slot(number: number, changes: newValue)
        }
    }

    /// Action `number` is recorded, the newest now, its diff not known yet. The ring's
    /// slot for it is the one of an action that left the window, or the ring grows.
    mutating func recorded(_ number: Int) {
        newest = number
        makeRoom(for: number)
        ring[number & (ring.count - 1)] = Slot(number: number, changes: nil)
    }

    /// Forgets the diffs of actions `number` and later (they were undone, skipped, or
    /// replaced by another timeline's); the history's newest action is now `newestNow`
    /// (earlier than `number` after an undo, later when another timeline came back).
    mutating func forget(from number: Int, newestNow: Int) {
        if number <= newest, !ring.isEmpty {
            if newest - number + 1 >= ring.count {
                for index in ring.indices where ring[index].number >= number { ring[index] = Slot() }
            } else {
                for forgotten in number...newest where ring[forgotten & (ring.count - 1)].number == forgotten {
                    ring[forgotten & (ring.count - 1)] = Slot()
                }
            }
        }
        if !older.isEmpty { older = older.filter { $0.key < number } }
        newest = newestNow
    }

    /// Forgets the diffs of actions before `number` (dropped from the history).
    mutating func forget(before number: Int) {
        if !older.isEmpty { older = older.filter { $0.key >= number } }
    }

    /// Makes the slot of `number` (in the window) free of any other action still in the
    /// window: the ring doubles, each diff moving to its place for the new size, until it
    /// is, or until it holds the whole window (where no two of its actions share a slot).
    private mutating func makeRoom(for number: Int) {
        if ring.isEmpty { ring = Array(repeating: Slot(), count: 64) }
        while ring.count < window {
            let taken = ring[number & (ring.count - 1)].number
            guard taken >= 0, taken != number, taken > newest - window else { return }
            var larger = Array(repeating: Slot(), count: ring.count * 2)
            for slot in ring where slot.number > newest - window {
                larger[slot.number & (larger.count - 1)] = slot
            }
            ring = larger
        }
    }
}
