import StoreHost
import StoreValue

extension ShellCore {
    /// Adds an accepted action to its model's history, taking a snapshot every `interval`
    /// actions. The journal is written by the callers: ahead of an action they send, after
    /// one an effect applied.
    /// Returns a note to show when undone actions were set aside as a branch.
    /// `diff`: the changes the action made, when they are known (`:why` reads them).
    @discardableResult
    func record(
        _ action: ActionDescriptor, _ arguments: [Value], source: ActionSource, changed: Bool,
        diff: [StateChange]? = nil, in session: Session, snapshot: Bool = true
    ) -> ShellOutput? {
        guard
            let (history, branch) = recorder.record(
                HistoryEntry(
                    action: Int32(action.index), arguments: arguments, source: source, changed: changed, skipped: false),
                diff: diff, in: session)
        else { return nil }
        if branch != nil || debugging.checksEachAction { noteRecorded(in: session, history: history, branch: branch) }
        // `snapshot: false` when the session's state is already past this action (a batch
        // is recorded after it ran): a snapshot now would be of the wrong state.
        if snapshot, history.wantsSnapshot { history.rememberState(of: session, at: history.position) }
        if history.wantsTrim { trim(history, of: session) }
        return branch.map { branchNote($0, in: history) }
    }

    /// The diff to keep for an action: none when it changed nothing; unknown (nil) when it
    /// changed the state and no diff was worked out (its result was not observed).
    static func knownDiff(changed: Bool, _ changes: [StateChange]) -> [StateChange]? {
        !changed ? [] : (changes.isEmpty ? nil : changes)
    }

    /// Drops the oldest actions of `history` past the limit. Dropping needs a model that
    /// can restore a snapshot (the oldest one kept becomes the start): the first time, the
    /// model is asked to restore its current state; one that cannot keeps its whole
    /// history, and a note says so once.
    func trim(_ history: History, of session: Session) {
        if history.restorable == nil {
            // a restore would cancel them: ask later
            guard inFlight(in: session.model.qualifiedName).isEmpty else { return }
            // Mid-batch, the model is past the state the shell is recording: ask after it.
            guard !recorder.isTakingBatch else { return }
            history.restorable = (try? session.restore(session.state)) == true
            if history.restorable == false {
                output(
                    .info(
                        kind: "history",
                        lines: [
                            "note: \(session.model.qualifiedName) cannot restore a snapshot, so its history is kept whole (--history-limit drops old actions only from models that can)"
                        ]))
            }
        }
        if history.restorable == true { history.trim() }
    }

    /// Whether the first trim of `session`'s history is due. It asks the model whether it
    /// can restore, a request that must wait until no batch is in flight: it would be
    /// answered after that batch, restoring over it. Batch runs send none ahead meanwhile.
    func firstTrimIsDue(_ session: Session) -> Bool {
        guard let history = recorder.history(of: session) else { return false }
        return history.restorable == nil && history.wantsTrim
    }

    /// Trims `session`'s history when it is due (after a batch, which defers the first
    /// trim's question to the model).
    func trimIfDue(_ session: Session) {
        if let history = recorder.history(of: session), history.wantsTrim { trim(history, of: session) }
    }

    /// "The undone actions were set aside": what a user sees instead of losing them.
    func branchNote(_ number: Int, in history: History) -> ShellOutput {
        let branch = history.branches[number - 1]
        let what =
            branch.undone == 1
            ? "the undone action after #\(history.shown(branch.fork)) was"
            : "the \(branch.undone) undone actions after #\(history.shown(branch.fork)) were"
        return .info(
            kind: "branch",
            lines: [
                "note: \(what) set aside as branch \(number); :branch \(number) brings \(branch.undone == 1 ? "it" : "them") back"
            ])
    }

    /// Records an action an effect applied, from the text the plugin reported. A text the
    /// model's own actions cannot read back could not be replayed: it goes into neither
    /// the history nor the journal (where it made every later replay fail), the user is
    /// told, and the history notes it, so a later rebuild says what it lacks.
    func recordEffectAction(_ text: String, changed: Bool, changes: [StateChange] = [], in session: Session) {
        guard !recorder.isReplaying else { return }
        let key = session.model.qualifiedName
        let reason: String
        do throws(TextError) {
            let bound = try ActionBinding.bind(ActionCall.parse(text), to: session.model)
            let note = record(
                bound.0, bound.1, source: .effect, changed: changed, diff: Self.knownDiff(changed: changed, changes),
                in: session)
            journalDone(.action(model: key, source: .effect, text: bound.0.text(with: bound.1)))
            if let note { output(note) }
            return
        } catch {
            reason = error.message
        }
        if changed {
            recorder.histories[key]?.noteUnreplayable(
                "an effect applied '\(text)', which \(key) cannot read back (\(reason))")
        }
        output(
            .error(
                ShellError(
                    "an effect applied '\(text)' to \(key), which its own actions cannot read back (\(reason)): the plugin writes an action text its parser does not take. It is kept in neither the history nor the journal, so an undo, a jump, a recovery after a crash or a resumed journal gives a state without it",
                    origin: .prompt)))
    }

    // MARK: The journal

    /// Writes `record` ahead of doing what it says, so nothing is reported as done before
    /// it is in the journal. False (with the error reported) when the write failed: the
    /// caller must then not do it. `retractJournal()` takes it back if the deed fails.
    func journalAhead(_ record: JournalRecord, origin: LineOrigin, text: String? = nil) -> Bool {
        do throws(ShellError) {
            try recorder.writeAhead(record)
            return true
        } catch {
            return fail(error.message, origin: origin, text: text)
        }
    }

    /// Takes back the record `journalAhead` wrote, after the deed itself failed.
    func retractJournal() {
        if let error = recorder.retract() { output(.error(error)) }
    }

    /// Journals something that already happened (an effect's action, a jump); see
    /// `Recorder.recordDone`. False, with the error reported, when it could not be written.
    @discardableResult
    func journalDone(_ record: JournalRecord) -> Bool {
        guard let error = recorder.recordDone(record) else { return true }
        output(.error(error))
        return false
    }
}

extension History {
    /// Keeps `session`'s state as the snapshot after `index` actions — when it can be read.
    /// `Session.state` falls back to the last state read, which is behind the model when a
    /// read fails (a worker that died between the action and the read): kept as a snapshot
    /// it rebuilt a wrong state later (a recovery restored it, and the actions since it
    /// were lost). With no snapshot here, a rebuild starts from an earlier one.
    func rememberState(of session: Session, at index: Int) {
        guard let state = try? session.currentState() else { return }
        remember(state, at: index)
    }
}
