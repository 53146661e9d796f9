import StoreHost
import StoreValue

/// Where accepted actions go: each model's history (for `:log`, `:goto`, recovery) and
/// the journal written ahead of them (`--journal`, `--resume`). It holds what recording
/// needs to know of the moment — a jump replaying history, a batch being taken after the
/// model ran it — so no other part of the shell keeps a flag for it.
@MainActor
package final class Recorder {
    /// Each model's history of actions, by qualified name.
    package internal(set) var histories: [String: History] = [:] {
        didSet { cache = nil }
    }
    /// How many actions each model's history keeps at most (`--history-limit`); nil: all.
    /// Applies to histories made from then on.
    package var historyLimit: Int? = History.defaultLimit
    /// Appends every accepted action (and history change) before its result is printed.
    package var journal: Journal?
    /// Journal writes that failed after the fact (an effect's action that could not be
    /// recorded): a run with any must not exit 0.
    package internal(set) var journalFailures = 0
    /// True while a jump replays history: the replayed actions are in it already.
    private(set) var isReplaying = false
    /// True while the results of a batch the model has already run are being recorded:
    /// the model's state is then past the one being recorded, so no snapshot or restore
    /// may be taken of it now.
    var isTakingBatch = false
    /// The last history looked up, by session: one session records action after action,
    /// and a dictionary lookup per action shows in batch runs.
    private var cache: (session: Session, history: History)?

    package init() {}

    /// The history of `session`'s model.
    func history(of session: Session) -> History? {
        if let cache, cache.session === session { return cache.history }
        let found = histories[session.model.qualifiedName]
        cache = found.map { (session, $0) }
        return found
    }

    /// A history for a new session, with the shell's `--history-limit`.
    func newHistory(initial: Value) -> History {
        History(initial: initial, limit: historyLimit)
    }

    /// Runs `body` (a replay of history) with recording off.
    func replaying<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        isReplaying = true
        defer { isReplaying = false }
        return try body()
    }

    /// Adds `entry` to `session`'s history, unless a replay is under way. Returns the
    /// history and, when undone actions were set aside by it, the branch they became.
    func record(_ entry: HistoryEntry, diff: [StateChange]?, in session: Session) -> (
        history: History, branch: Int?
    )? {
        guard !isReplaying, let history = history(of: session) else { return nil }
        let branch = history.record(entry)
        if let diff { history.setDiff(diff, at: history.position - 1) }
        return (history, branch)
    }

    // MARK: The journal

    /// Writes `record` ahead of doing what it says, so nothing is reported as done before
    /// it is in the journal; the caller must not do it when this throws.
    /// `retract()` takes it back if the deed fails.
    func writeAhead(_ record: JournalRecord) throws(ShellError) {
        guard let journal else { return }
        do {
            try journal.append(record)
        } catch {
            throw ShellError("\(error.message); nothing was done", origin: .prompt)
        }
    }

    /// Takes back the record `writeAhead` wrote, after the deed itself failed. Returns the
    /// error to report when even that failed (counted as a journal failure).
    func retract() -> ShellError? {
        guard let journal else { return nil }
        do {
            try journal.retractLast()
            return nil
        } catch {
            journalFailures += 1
            return ShellError(error.message, origin: .prompt)
        }
    }

    /// Journals something that already happened (an effect's action, a jump). If the
    /// write fails the journal no longer matches the session: it is closed, the failure is
    /// counted, and every later journaled deed is refused. Returns the error to report.
    func recordDone(_ record: JournalRecord) -> ShellError? {
        guard let journal else { return nil }
        do {
            try journal.append(record)
            return nil
        } catch {
            journal.markClosed(because: "a record of something already done could not be written (\(error.message))")
            journalFailures += 1
            return ShellError(
                "\(error.message); the journal no longer matches the session, so it is closed and later actions are refused",
                origin: .prompt)
        }
    }
}
