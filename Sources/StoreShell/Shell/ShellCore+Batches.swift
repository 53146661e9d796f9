import StoreHost
import StoreValue

/// Scripts whose action results nobody sees (`--quiet`, no journal) send their actions in
/// batches: to a model in a worker, one request per batch instead of one per action; in
/// process, one call without the per-line work of `execute`. The outcome is the same as
/// line by line: the same history, the same errors at the same FILE:LINE, the same stop
/// with `--bail`.
extension ShellCore {
    /// Whether `executeActions` may batch now: nothing is shown per action and nothing is
    /// journaled ahead of it.
    package var batchesActions: Bool {
        !reportActions && !watchesStateWhenQuiet && recorder.journal == nil && current != nil
    }

    /// Runs action lines (no `:commands`) in order as `execute` would — quiet ones in
    /// batches (`BatchRun`), shown ones as `ObservedRun` says; returns how many failed, and stops after the first failure when `stopAtFailure`, or when Ctrl-C is
    /// pressed (checked between batches).
    ///
    /// While no effect can send events, one batch stays in flight: the next is parsed and
    /// sent before the answer to the last is taken, so storesh and a worker work at once.
    /// A refused action is reported at its line and the rest go on (the worker goes past
    /// refusals too, so the order of what is applied is the order of the lines).
    package func executeActions(_ lines: [(text: String, origin: LineOrigin)], stopAtFailure: Bool) -> (
        failures: Int, stopped: Bool
    ) {
        // Lost workers are replaced inside, as each batch or line meets them.
        let inProcessWorld = beginLine()
        defer { if inProcessWorld { reportUncontrolledWorld() } }
        if batchesActions {
            var run = BatchRun(core: self, lines: lines, stopAtFailure: stopAtFailure)
            return run.execute()
        }
        var run = ObservedRun(core: self, lines: lines, stopAtFailure: stopAtFailure)
        return run.execute()
    }

    /// Whether a script may hand its action lines to `executeActions` as a group now:
    /// nothing is journaled ahead of them (a journal writes each before it is sent).
    /// Nor while watches, breakpoints or the timer look at each action.
    package var groupsActions: Bool { recorder.journal == nil && current != nil && !debugging.checksEachAction }

}

/// One `executeActions` call: the lines, the batch being gathered, the one in flight.
@MainActor
private struct BatchRun {
    typealias Item = (action: ActionDescriptor, arguments: [Value], line: Int)

    let core: ShellCore
    let lines: [(text: String, origin: LineOrigin)]
    let stopAtFailure: Bool
    var failures = 0
    var gathering: [Item] = []
    var inFlight: (items: [Item], batch: Session.Batch, session: Session)?
    /// Whether a batch may be left in flight: never with --bail (a refusal must stop
    /// what follows), and not once effects are about (their events must not pass a batch).
    var pipelining: Bool

    init(core: ShellCore, lines: [(text: String, origin: LineOrigin)], stopAtFailure: Bool) {
        self.core = core
        self.lines = lines
        self.stopAtFailure = stopAtFailure
        pipelining = !stopAtFailure
    }

    mutating func execute() -> (failures: Int, stopped: Bool) {
        var model: Session?
        var history: History?
        for (index, line) in lines.enumerated() {
            guard let session = core.current else { break }
            if model !== session {
                model = session
                history = core.recorder.history(of: session)
            }
            do {
                let bound = try ActionBinding.bind(ActionCall.parse(line.text), to: session.model)
                gathering.append((bound.0, bound.1, index))
                // Batches end where the history keeps a snapshot (the state is read only
                // between batches), and hold at most 4096 actions.
                let position = (history?.position ?? 0) + (inFlight?.items.count ?? 0) + gathering.count
                if gathering.count >= 4096 || (gathering.count >= 1024 && position % (history?.interval ?? 64) == 0),
                    !send()
                {
                    return (failures, true)
                }
            } catch {
                guard send(), finish() else { return (failures, true) }
                core.fail(error.message, origin: line.origin, text: line.text, offset: error.offset)
                failures += 1
                if stopAtFailure { return (failures, true) }
            }
        }
        guard send(), finish() else { return (failures, true) }
        return (failures, false)
    }

    /// Sends what was gathered; takes the answer to the batch before it (or to this one,
    /// when nothing may stay in flight). False when the run should stop.
    mutating func send() -> Bool {
        guard !gathering.isEmpty, let session = core.current else { return true }
        if core.takeInterrupt() {
            _ = finish()
            core.fail(
                "interrupted (Ctrl-C): the script stops before this line", origin: lines[gathering[0].line].origin)
            failures += 1
            gathering = []
            return false
        }
        if core.allEffectsInFlight > 0 { pipelining = false }
        if !pipelining, !finish() { return false }
        let items = gathering
        gathering = []
        // The state after the batch comes with its answer when the history keeps a
        // snapshot there (read then, it would be the state after the batch in flight).
        let history = core.recorder.history(of: session)
        let end = (history?.position ?? 0) + (inFlight?.items.count ?? 0) + items.count
        let batch: Session.Batch
        do {
            batch = try session.startBatch(
                items.map { ($0.action, $0.arguments) }, stopAtFailure: stopAtFailure,
                stateAfter: end % (history?.interval ?? 64) == 0)
        } catch {
            // The worker died during the batch in flight, or after it: that batch's answer
            // (when it came) is taken first, and what it did not answer is sent again.
            if error.workerLoss != nil, !finish() { return false }
            return resendOneByOne(after: error, items)
        }
        let previous = inFlight
        inFlight = (items, batch, session)
        if let previous {
            // This batch is in flight: a trim's first question waits (see `firstTrimIsDue`).
            core.recorder.isTakingBatch = true
            defer { core.recorder.isTakingBatch = false }
            if !finish(previous) { return false }
        }
        if pipelining, !core.firstTrimIsDue(session) { return true }
        guard finish() else { return false }
        core.trimIfDue(session)
        return true
    }

    /// Takes the answer to the batch in flight, if any.
    mutating func finish() -> Bool {
        guard let flight = inFlight else { return true }
        inFlight = nil
        return finish(flight)
    }

    private mutating func finish(_ flight: (items: [Item], batch: Session.Batch, session: Session)) -> Bool {
        let result: Session.BatchResult
        do {
            result = try flight.session.finishBatch(flight.batch)
        } catch {
            // The batch after this one (if sent) went to the same dead worker.
            let later = inFlight?.items ?? []
            inFlight = nil
            return resendOneByOne(after: error, flight.items + later)
        }
        for (item, outcome) in zip(flight.items, result.outcomes) {
            switch outcome {
            case .success(let did):
                core.noteBatchedAttempt(item.action, item.arguments, in: flight.session, accepted: true)
                if let note = core.record(
                    item.action, item.arguments, source: .script, changed: did.changed, in: flight.session,
                    snapshot: false)
                {
                    core.output(note)
                }
                if did.effectsStarted > 0 { pipelining = false }
            case .failure(let error):
                core.noteBatchedAttempt(item.action, item.arguments, in: flight.session, accepted: false)
                core.fail(error.message, origin: lines[item.line].origin, text: lines[item.line].text)
                failures += 1
                if stopAtFailure { return false }
            }
        }
        if let state = result.stateAfter, let history = core.recorder.history(of: flight.session), history.wantsSnapshot
        {
            history.remember(state, at: history.position)
        }
        return true
    }

    /// The worker died somewhere in these actions: start it again, then send them one at
    /// a time, so the one that kills it is found and reported as any action would be.
    private mutating func resendOneByOne(after error: SessionError, _ items: [Item]) -> Bool {
        guard error.workerLoss != nil else {
            core.fail(error.message, origin: items.first.map { lines[$0.line].origin } ?? .prompt)
            failures += 1
            return !stopAtFailure
        }
        pipelining = false
        let run = core.resendOneByOne(items.map { lines[$0.line] }, after: error, stopAtFailure: stopAtFailure)
        failures += run.failures
        return !run.stopped
    }
}

extension ShellCore {
    /// The worker processes running now, to tell whether one was lost (and replaced).
    private var runningWorkers: [ObjectIdentifier] {
        host.plugins.compactMap(\.processIdentity)
    }

    /// After a worker was lost in the middle of a batch: starts it again, then sends the
    /// batch's lines one at a time, so the one that kills it is found and reported as any
    /// action would be. A worker stopped by Ctrl-C (while a batch was waited for) stops
    /// the script instead, before the first line not shown.
    /// A batched action line was answered: it is now the last action line attempted, as
    /// a line sent alone would be, for `:check-after` (which then cannot read `old(…)`: a
    /// batch reads no state before an action).
    func noteBatchedAttempt(_ action: ActionDescriptor, _ arguments: [Value], in session: Session, accepted: Bool) {
        debugging.lastAttempt = AttemptedAction(
            model: session.model.qualifiedName, action: action.name, arguments: arguments, old: nil,
            accepted: accepted)
    }

    func resendOneByOne(_ lines: [(text: String, origin: LineOrigin)], after loss: SessionError, stopAtFailure: Bool)
        -> (failures: Int, stopped: Bool)
    {
        if loss.workerLoss?.cause == .interrupted {
            recoverLostWorkers()
            fail("interrupted (Ctrl-C): the script stops before this line", origin: lines.first?.origin ?? .prompt)
            return (1, true)
        }
        // Lost here, not in a batch whose loss was already dealt with.
        let freshLoss = recoverLostWorkers(announce: false) > 0
        var failures = 0
        var lostAgain = false
        for line in lines {
            let workers = runningWorkers
            let ok = sendLine(line.text, origin: line.origin)
            recoverLostWorkers()
            if runningWorkers != workers { lostAgain = true }
            if !ok {
                failures += 1
                if stopAtFailure { return (failures, true) }
            }
        }
        if freshLoss, !lostAgain {
            // No line kills the worker on its own: it was stopped from outside (a `kill`,
            // the OOM killer). Said once, after the lines it took with it ran again.
            fail(
                "\(loss.message); none of these \(lines.count) actions stops it when sent alone, so something outside storesh did (a kill, the out-of-memory killer): its worker was restarted, rebuilt from the history, and they were sent again",
                origin: lines.first?.origin ?? .prompt)
            failures += 1
        }
        return (failures, false)
    }
}
