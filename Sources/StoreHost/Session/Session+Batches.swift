package import StoreValue

// Sending many actions at once: plain batches (the state is not read; `--quiet` runs) and,
// where the connection has them, observed batches (each action answered as `send` would
// answer it, in one round trip for the lot).
extension Session {
    /// A batch of actions sent with `startBatch`: its answer, or the request that will
    /// bring it.
    package struct Batch {
        let ticket: BatchTicket
    }

    /// What a batch did, per action processed (in order), and the state after it when
    /// it was asked for.
    package struct BatchResult {
        package let outcomes: [Result<SendSummary, SessionError>]
        package let stateAfter: Value?
    }

    /// Sends `actions` in order without reading the state; past refusals unless
    /// `stopAtFailure`. A model in a worker gets them in one request, and this returns
    /// before the worker is done (so the next batch can be prepared meanwhile);
    /// `finishBatch` takes the answer. In this process they run at once.
    package func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool)
        throws(SessionError) -> Batch
    {
        // A batch is one step for answers held until the next action (no store settles
        // inside a batch, so none could arrive between its actions).
        clock.actionSent()
        return Batch(ticket: try connection.startBatch(actions, stopAtFailure: stopAtFailure, stateAfter: stateAfter))
    }

    /// Per action of the batch that was processed: whether it changed the state, or why
    /// it was refused. Throws when the model's worker was lost on the way.
    package func finishBatch(_ batch: Batch) throws(SessionError) -> BatchResult {
        let (outcomes, after) = try connection.finishBatch(batch.ticket)
        if let after {
            try apply(after, diffing: false)
            return BatchResult(outcomes: outcomes, stateAfter: knownState)
        }
        if outcomes.contains(where: { (try? $0.get())?.changed == true }) { isStale = true }
        return BatchResult(outcomes: outcomes, stateAfter: nil)
    }

    /// Actions sent in one request, to be applied and observed one by one
    /// (`startObserved`): each comes back as `send` would give it.
    package struct ObservedBatch {
        let ticket: PendingAnswer
        let names: [String]
        let observe: Bool
    }

    /// The answer to an observed batch, taken one action at a time (`nextObserved`).
    package struct ObservedResults {
        var answers: ObservedAnswers
        let names: [String]
        let observe: Bool
        var taken = 0
        /// The answer's size in bytes (callers size later batches by it).
        package var byteCount: Int { answers.byteCount }
        /// True when the model processed none of the batch's actions.
        package var isEmpty: Bool { answers.isEmpty }
        /// The state after the batch's last action, once all were taken, when the batch
        /// asked for it (`stateAfter`) and the model could read it; the session's state
        /// is then that state.
        package internal(set) var stateAfter: Value?
    }

    /// Sends `actions` in one request and returns before the model is done; each is then
    /// taken with `nextObserved`, with its diff when `observe`, as `send` would give it.
    /// Nil when the connection has no such batches (a model in this process gains nothing
    /// from one: send them one by one).
    /// `continuing`: sent while the batch before is in flight, to be run after it unless
    /// the model's side cut that one short (then this one comes back with nothing done).
    /// `stateAfter` (when not `observe`): the answer brings the state after the last action
    /// taken, which becomes the session's state (`ObservedResults.stateAfter`): a history
    /// snapshot there needs no read, which would wait for any later batch in flight.
    package func startObserved(
        _ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, observe: Bool, continuing: Bool = false,
        stateAfter: Bool = false, stopAtBrokenCheck: Bool = false
    ) throws(SessionError) -> ObservedBatch? {
        guard let batching else { return nil }
        clock.actionSent()  // as `startBatch`
        // The first diff needs the state before (not read with a batch in flight: the
        // answer would be the state after it).
        if observe, isStale, observedInFlight == 0 { _ = try? read() }
        let ticket = try batching.startObserved(
            actions, stopAtFailure: stopAtFailure, wantState: observe, continuing: continuing,
            stateAfter: stateAfter && !observe, stopAtBrokenCheck: stopAtBrokenCheck)
        observedInFlight += 1
        return ObservedBatch(ticket: ticket, names: actions.map(\.0.name), observe: observe)
    }

    /// Waits for the answer to an observed batch.
    package func observedResults(_ batch: ObservedBatch) throws(SessionError) -> ObservedResults {
        guard let batching else { throw SessionError(message: "\(model.qualifiedName) takes no observed batches") }
        observedInFlight = max(0, observedInFlight - 1)
        return ObservedResults(
            answers: try batching.observedAnswers(batch.ticket, sent: batch.names.count), names: batch.names,
            observe: batch.observe)
    }

    /// Waits for the answer to a continuing batch sent after one that was cut short: it
    /// must have done nothing. If it did, the other side is not keeping order: it is
    /// stopped, and the error says so (a lost worker).
    package func expectSkipped(_ batch: ObservedBatch) throws(SessionError) {
        let results = try observedResults(batch)
        guard let batching, !results.isEmpty else { return }
        throw batching.outOfOrder()
    }

    /// Takes the next action's answer: `applied` gets its result, `refused` why the model
    /// refused it; false after the last one processed. What the action caused (effect
    /// events, effect actions) reaches `onEvent` first, as it does during `send`.
    /// (Handed over rather than returned: a `Result` of these types is copied and
    /// destroyed through value witnesses, once per action of every batch.)
    package func nextObserved(
        _ results: inout ObservedResults, applied: (SendResult) -> Void, refused: (SessionError) -> Void
    ) throws(SessionError) -> Bool {
        guard let batching else { throw SessionError(message: "\(model.qualifiedName) takes no observed batches") }
        sendInFlight = results.observe
        sendBase = nil
        defer { (sendInFlight, sendBase) = (false, nil) }
        if results.observe, let answer = batching.nextWholeState(&results.answers) {
            // What `result(of:)` makes of such an answer, without the wrappers.
            let changes = model.stateDiff.changes(from: knownState, to: answer.state)
            knownState = answer.state
            isStale = false
            lastReadKept = (answer.number, nil)
            let name = results.names[results.taken]
            results.taken += 1
            applied(SendResult(action: name, stateChanged: true, effectsStarted: answer.effects, changes: changes))
            return true
        }
        guard let outcome = try batching.next(&results.answers) else {
            // Not asked again if it does not fit: a later batch may be in flight, and the
            // answer would be the state after that one.
            if let state = results.answers.stateAfter, results.stateAfter == nil,
                (try? apply(state, diffing: false, mayAsk: false)) != nil
            {
                results.stateAfter = knownState
            }
            return false
        }
        sendInFlight = false
        let name = results.names[results.taken]
        results.taken += 1
        switch outcome {
        case .failure(let error): refused(error)
        case .success(let outcome): applied(result(of: name, outcome, observe: results.observe))
        }
        return true
    }
}
