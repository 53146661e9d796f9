public import StoreValue

// What a session does for a model in a worker process: each call is a request, answered
// with what the action did and the state (or its changes) when it is watched. The session
// applies those to its own state as it does a plugin's in this process (Session.swift).

extension Session {
    /// `send` for a model in a worker: the worker sends the state back with the result
    /// when it changed and is watched, so one round trip does it all.
    func sendRemote(_ action: ActionDescriptor, arguments: [Value], observe: Bool, remote: RemoteStore) throws(SessionError) -> SendResult {
        if observe, isStale { _ = try? read() }
        sendInFlight = observe
        sendBase = nil
        defer { (sendInFlight, sendBase) = (false, nil) }
        let outcome = try remote.send(action, arguments: arguments, wantState: observe)
        sendInFlight = false
        return result(of: action.name, outcome, observe: observe, remote: remote)
    }

    /// What an action the worker applied did, with its diff from the state before it when
    /// observed (from `sendBase` when effects' actions changed it meanwhile); the state it
    /// sent becomes the known state.
    private func result(of action: String, _ outcome: RemoteStore.Outcome, observe: Bool, remote: RemoteStore) -> SendResult {
        let result = SendResult(action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [])
        guard observe else {
            isStale = isStale || outcome.changed
            return result
        }
        switch outcome.state {
        case .failure(let error):
            isStale = true
            return SendResult(action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [], stateError: error.message)
        case .success(let state?):
            let fresh: StateRead
            do {
                fresh = try accept(state, from: remote, diffing: sendBase == nil)
            } catch {
                isStale = true
                return SendResult(action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [], stateError: error.message)
            }
            let changes = sendBase.map { model.stateDiff.changes(from: $0, to: fresh.state) } ?? fresh.changes ?? []
            return SendResult(action: action, stateChanged: true, effectsStarted: outcome.effectsStarted, changes: changes)
        case .success(nil):
            return result
        }
    }

    /// For a model in a worker: sends `actions` in one request and returns before the
    /// worker is done; each is then taken with `nextObserved`, with its diff when
    /// `observe`, as `send` would give it. Nil for a model in this process (a batch gains
    /// nothing there: send them one by one).
    /// `continuing`: sent while the batch before is in flight, to be run after it unless
    /// the worker cut that one short (then this one comes back with nothing done).
    /// `stateAfter` (when not `observe`): the answer brings the state after the last action
    /// taken, which becomes the session's state (`ObservedResults.stateAfter`): a history
    /// snapshot there needs no read, which would wait for any later batch in flight.
    public func startObserved(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, observe: Bool, continuing: Bool = false, stateAfter: Bool = false) throws(SessionError) -> ObservedBatch? {
        guard let remote else { return nil }
        // The first diff needs the state before (not read with a batch in flight: the
        // worker would answer with the state after it).
        if observe, isStale, observedInFlight == 0 { _ = try? read() }
        let ticket = try remote.startObserved(actions, stopAtFailure: stopAtFailure, wantState: observe, continuing: continuing, stateAfter: stateAfter && !observe)
        observedInFlight += 1
        return ObservedBatch(ticket: ticket, names: actions.map(\.0.name), observe: observe)
    }

    /// Waits for the answer to an observed batch.
    public func observedResults(_ batch: ObservedBatch) throws(SessionError) -> ObservedResults {
        guard let remote else { throw SessionError(message: "\(model.qualifiedName): its worker is gone") }
        observedInFlight = max(0, observedInFlight - 1)
        return ObservedResults(answers: try remote.observedAnswers(batch.ticket, sent: batch.names.count), names: batch.names, observe: batch.observe)
    }

    /// Waits for the answer to a continuing batch sent after one the worker cut short: it
    /// must have done nothing. If it did, the worker is not keeping order: it is stopped,
    /// and the error says so (a lost worker).
    public func expectSkipped(_ batch: ObservedBatch) throws(SessionError) {
        let results = try observedResults(batch)
        guard let remote, !results.isEmpty else { return }
        throw remote.outOfOrder()
    }

    /// Takes the next action's answer: `applied` gets its result, `refused` why the model
    /// refused it; false after the last the worker processed. What the action caused
    /// (effect events, effect actions) reaches `onEvent` first, as it does during `send`.
    /// (Handed over rather than returned: a `Result` of these types is copied and
    /// destroyed through value witnesses, once per action of every batch.)
    public func nextObserved(_ results: inout ObservedResults, applied: (SendResult) -> Void, refused: (SessionError) -> Void) throws(SessionError) -> Bool {
        guard let remote else { throw SessionError(message: "\(model.qualifiedName): its worker is gone") }
        sendInFlight = results.observe
        sendBase = nil
        defer { (sendInFlight, sendBase) = (false, nil) }
        if results.observe, let answer = remote.nextWholeState(&results.answers) {
            // What `result(of:)` makes of such an answer, without the wrappers.
            let changes = model.stateDiff.changes(from: knownState, to: answer.state)
            adoptWhole(answer.state, number: answer.number)
            let name = results.names[results.taken]
            results.taken += 1
            applied(SendResult(action: name, stateChanged: true, effectsStarted: answer.effects, changes: changes))
            return true
        }
        guard let outcome = try remote.next(&results.answers) else {
            // Not asked again if it does not fit: a later batch may be in flight, and the
            // worker would answer with the state after that one.
            if let state = results.answers.stateAfter, results.stateAfter == nil {
                results.stateAfter = try? accept(state, from: remote, diffing: false, mayAsk: false).state
            }
            return false
        }
        sendInFlight = false
        let name = results.names[results.taken]
        results.taken += 1
        switch outcome {
        case .failure(let error): refused(error)
        case .success(let outcome): applied(result(of: name, outcome, observe: results.observe, remote: remote))
        }
        return true
    }

    /// An effect's action in a worker was applied; `state` is the state after it (nil when
    /// it could not be read), `changed` what the plugin said (nil: it did not say). Comes
    /// while a request waits for its answer: changes that do not fit are not asked about
    /// again then (the state is stale until the next read).
    func appliedInWorker(_ action: String, state: WireState?, changed pluginSaid: Bool?) {
        var fresh: StateRead?
        if let state, let remote { fresh = try? accept(state, from: remote, diffing: !isStale, mayAsk: false) }
        report(action, read: fresh, changes: fresh?.changes ?? [], changed: pluginSaid)
    }
}
