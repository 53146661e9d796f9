import StoreHost
import StoreValue

/// Scripts whose results are shown (`--format json`, the tree output) send a model in a
/// worker its actions in batches too: the worker applies them one by one and answers
/// each as it answers a single action — its result, the state after it, and what it
/// caused (effect events, effect actions, log lines) — so the shell shows exactly what
/// line-by-line sending shows, for one round trip per batch instead of per action.
///
/// A batch is cut short after an action that starts effects: their events could come
/// before the next action's, so from there lines go one at a time until no effect is in
/// flight. While the shell shows one batch the worker runs the next (sent as continuing
/// it); the worker skips a continuing batch after one it cut short, and its lines go again.
/// A model in this process gains nothing from a batch; its lines go one by one.
@MainActor
struct ObservedRun {
    /// A bound action and the index of its line. (A struct: a tuple of these is copied
    /// through value witnesses, and one is read per action shown.)
    struct Item {
        let action: ActionDescriptor
        let arguments: [Value]
        let line: Int
    }

    let core: ShellCore
    let lines: [(text: String, origin: LineOrigin)]
    let stopAtFailure: Bool
    var failures = 0
    /// How many actions the next batch may hold: grows while answers stay small, so a
    /// big state sent whole after every action does not pile up in memory.
    var batchLimit = 16
    static let maxBatch = 256
    static let maxAnswerBytes = 4 << 20

    init(core: ShellCore, lines: [(text: String, origin: LineOrigin)], stopAtFailure: Bool) {
        self.core = core
        self.lines = lines
        self.stopAtFailure = stopAtFailure
    }

    /// A batch sent and not yet shown.
    private struct Flight {
        let items: [Item]
        let batch: Session.ObservedBatch
        let session: Session
    }

    mutating func execute() -> (failures: Int, stopped: Bool) {
        var index = 0
        var flights: [Flight] = []
        // Ctrl-C while batches are in flight: they were applied, so they are shown first.
        var interrupted = false
        defer { core.recorder.isTakingBatch = false }
        while index < lines.count || !flights.isEmpty {
            if !interrupted, core.takeInterrupt() { interrupted = true }
            if flights.isEmpty {
                if interrupted {
                    core.fail("interrupted (Ctrl-C): the script stops before this line", origin: lines[index].origin)
                    return (failures + 1, true)
                }
                let items = gather(from: index, ahead: 0)
                guard let session = core.current, !items.isEmpty else {
                    // One line on its own: no model in a worker, effects in flight, or a
                    // line that does not parse (sending it reports why, as for any line).
                    let line = lines[index]
                    index += 1
                    if !core.sendLine(line.text, origin: line.origin, followedByAnAction: index < lines.count) {
                        failures += 1
                        if stopAtFailure { return (failures, true) }
                    }
                    continue
                }
                switch start(items, in: session, continuing: false, ahead: 0) {
                case .success(let flight): flights.append(flight)
                case .failure(let error):
                    guard let taken = recover(after: error, items[...]) else { return (failures, true) }
                    index = next(after: items, taken: taken)
                    continue
                }
            }
            // While the shell shows one batch, the worker runs the next.
            if flights.count == 1, !interrupted, pipelines, let first = flights.first, core.current === first.session,
                !core.firstTrimIsDue(first.session)
            {
                let more = gather(from: first.items[first.items.count - 1].line + 1, ahead: first.items.count)
                if !more.isEmpty,
                    case .success(let flight) = start(
                        more, in: first.session, continuing: true, ahead: first.items.count)
                {
                    flights.append(flight)
                }
            }
            let flight = flights.removeFirst()
            core.recorder.isTakingBatch = true
            guard let taken = take(flight, laterInFlight: !flights.isEmpty) else { return (failures, true) }
            index = next(after: flight.items, taken: taken)
            if taken < flight.items.count {
                // The worker skips a batch sent after one it cut short: its lines go again.
                // (One cut after its last action, which started effects, comes back empty.)
                for later in flights where !expectSkipped(later) {
                    return (failures, true)
                }
                flights = []
            }
            if flights.isEmpty {
                core.recorder.isTakingBatch = false
                core.trimIfDue(flight.session)
            }
        }
        if interrupted, let last = lines.last {
            core.fail("interrupted (Ctrl-C): the script stops after this line", origin: last.origin)
            return (failures + 1, true)
        }
        return (failures, false)
    }

    /// The line after what a batch processed: its first unprocessed line, or the line
    /// after its last.
    private func next(after items: [Item], taken: Int) -> Int {
        taken < items.count ? items[taken].line : items[items.count - 1].line + 1
    }

    /// Whether the next batch may be sent before this one is shown: nothing must stop at a
    /// failure, and no effect is in flight. (A history snapshot then comes with the batch
    /// that ends where it is kept: read after the batch, it would be the worker's later
    /// state.)
    private var pipelines: Bool {
        !stopAtFailure && core.allEffectsInFlight == 0
    }

    /// The lines from `start` that can go in one batch: none when the current model is in
    /// this process or has effects in flight, else up to the first line that does not bind.
    /// `ahead`: actions sent and not yet taken, which come first.
    private func gather(from start: Int, ahead: Int) -> [Item] {
        guard let session = core.current, session.callsAreRoundTrips, core.allEffectsInFlight == 0 else { return [] }
        var limit = batchLimit
        if !core.observesActions, let history = core.recorder.history(of: session) {
            // The state is not sent back with each action: a batch ends where the history
            // keeps a snapshot, and brings the state there.
            let interval = history.interval
            limit = min(limit, interval - (history.position + ahead) % interval)
        }
        var items: [Item] = []
        var index = start
        while index < lines.count, items.count < limit {
            guard let bound = try? ActionBinding.bind(ActionCall.parse(lines[index].text), to: session.model) else {
                break
            }
            items.append(Item(action: bound.0, arguments: bound.1, line: index))
            index += 1
        }
        return items
    }

    /// Sends `items` as one batch, `continuing` the one in flight; `ahead` as in `gather`.
    /// Without states per action, a batch that ends where the history keeps a snapshot
    /// (if each action before it is recorded) asks for the state after it.
    private func start(_ items: [Item], in session: Session, continuing: Bool, ahead: Int) -> Result<
        Flight, SessionError
    > {
        let history = core.recorder.history(of: session)
        let stateAfter = history.map { ($0.position + ahead + items.count) % $0.interval == 0 } ?? false
        do throws(SessionError) {
            guard
                let batch = try session.startObserved(
                    items.map { ($0.action, $0.arguments) }, stopAtFailure: stopAtFailure,
                    observe: core.observesActions, continuing: continuing, stateAfter: stateAfter)
            else {
                throw SessionError(message: "\(session.model.qualifiedName) is not in a worker")
            }
            return .success(Flight(items: items, batch: batch, session: session))
        } catch {
            return .failure(error)
        }
    }

    /// A batch sent after one the worker cut short must come back with nothing done; if it
    /// did anything, the worker is not keeping order and is stopped (and its lines go
    /// again after the restart). False when the run should stop.
    private mutating func expectSkipped(_ flight: Flight) -> Bool {
        do throws(SessionError) {
            try flight.session.expectSkipped(flight.batch)
        } catch {
            guard error.workerLoss == nil else {
                core.recoverLostWorkers()
                return true
            }
            core.fail(error.message, origin: lines[flight.items[0].line].origin)
            failures += 1
            return !stopAtFailure
        }
        return true
    }

    /// Shows each result of a batch in order. Returns how many were processed (the rest
    /// go again), nil when the run stops. `laterInFlight`: a batch sent after this one is
    /// in flight, so the state can be read only as this batch's answer brought it.
    private mutating func take(_ flight: Flight, laterInFlight: Bool) -> Int? {
        let (items, session) = (flight.items, flight.session)
        let observe = core.observesActions
        var results: Session.ObservedResults
        do throws(SessionError) {
            results = try session.observedResults(flight.batch)
        } catch {
            return recover(after: error, items[...])
        }
        var taken = 0
        // After a state that could not be read, the shell's copy is behind the model's:
        // no history snapshot is taken from it for the rest of the batch.
        var stateKnown = observe
        while true {
            // Handed over, not returned as a Result: see `nextObserved`.
            var shown = true
            var lost: SessionError?
            let more = core.holdingEffectOutput { () -> Bool in
                do throws(SessionError) {
                    return try session.nextObserved(
                        &results,
                        applied: { result in
                            if result.stateError != nil { stateKnown = false }
                            // Read in place: a copy of the line or the item costs a retain per field.
                            let line = items[taken].line
                            core.noteBatchedAttempt(
                                items[taken].action, items[taken].arguments, in: session, accepted: true)
                            shown = core.reportSent(
                                result, of: items[taken].action, items[taken].arguments, line: lines[line].text,
                                origin: lines[line].origin, in: session, snapshot: stateKnown)
                        },
                        refused: { error in
                            core.noteBatchedAttempt(
                                items[taken].action, items[taken].arguments, in: session, accepted: false)
                            let line = lines[items[taken].line]
                            core.fail(error.message, origin: line.origin, text: line.text)
                            shown = false
                        })
                } catch {
                    lost = error
                    return false
                }
            }
            if let lost { return recover(after: lost, items[taken...]) }
            guard more else {
                adaptLimit(answerBytes: results.byteCount, actions: taken)
                if !observe, let history = core.recorder.history(of: session), history.wantsSnapshot {
                    // A snapshot the batch did not bring (a refused action moved the place
                    // it is kept) is left out while a later batch is in flight.
                    if let state = results.stateAfter {
                        history.remember(state, at: history.position)
                    } else if !laterInFlight {
                        history.rememberState(of: session, at: history.position)
                    }
                }
                return taken
            }
            taken += 1
            if !shown {
                failures += 1
                if stopAtFailure { return nil }
            }
        }
    }

    /// Batches grow while the answer per action is small.
    private mutating func adaptLimit(answerBytes: Int, actions: Int) {
        guard actions > 0 else { return }
        let fits = Self.maxAnswerBytes / max(1, answerBytes / actions)
        batchLimit = max(1, min(Self.maxBatch, min(batchLimit * 2, fits)))
    }

    /// The worker was lost before these actions were shown: start it again, then send
    /// them one at a time, so the one that kills it is found and reported as any action
    /// would be. Another error is reported at the first line, and the rest go again.
    private mutating func recover(after error: SessionError, _ items: ArraySlice<Item>) -> Int? {
        guard let first = items.first else { return items.endIndex }
        guard error.workerLoss != nil else {
            core.fail(error.message, origin: lines[first.line].origin, text: lines[first.line].text)
            failures += 1
            return stopAtFailure ? nil : items.startIndex + 1
        }
        let run = core.resendOneByOne(items.map { lines[$0.line] }, after: error, stopAtFailure: stopAtFailure)
        failures += run.failures
        return run.stopped ? nil : items.endIndex
    }
}
