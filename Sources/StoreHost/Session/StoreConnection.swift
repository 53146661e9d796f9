package import StoreValue

/// A running store of one model, wherever it runs: what `Session` drives. Three kinds
/// implement it — `InProcessConnection` (the plugin loaded in this process, called through
/// the C ABI), `WorkerConnection` (the plugin in a worker process, one request per call,
/// docs/worker-protocol.md) and `ScriptedConnection` (in memory, for tests) — and
/// `Session` never asks which kind it has.
///
/// States travel as `StateUpdate`s: whole, or the changes since the last update the
/// connection gave. The session applies every update it is given, in order; when changes
/// do not fit the state it holds it calls `outOfStep()`, and the next read is whole.
@MainActor
package protocol StoreConnection: AnyObject {
    /// Receives what happens in the store outside a call's answer: effect events, and the
    /// actions effects applied (with the state after them). May be called during a call.
    var onEvent: ((ConnectionEvent) -> Void)? { get set }
    /// True when every call is a round trip to another process, so batches pay off
    /// (`Session.startObserved`, larger time-travel batches).
    var callsAreRoundTrips: Bool { get }
    /// True when a crash in the model ends only the connection, not this process, so a
    /// crash can be replayed on purpose (`:bisect --crash`).
    var containsCrashes: Bool { get }
    /// True when the state may be read while an event is being delivered (a connection
    /// whose answers come in order on one channel cannot be asked then).
    var readsDuringEvents: Bool { get }

    /// Makes the store, in its initial state, and returns that state (whole). Called once,
    /// first.
    func create() throws(SessionError) -> StateUpdate
    /// Sends one action without reading the state (quiet runs: the hot path, so what it
    /// returns is two words).
    func send(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendSummary
    /// Sends one action and reads the state after it (one round trip for a worker).
    func sendReadingState(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendOutcome
    /// Sends `actions` without reading the state; `finishBatch` takes the answer. A
    /// connection that crosses processes returns before the other side is done.
    func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool)
        throws(SessionError) -> BatchTicket
    /// The answer to a batch: per action processed, what it did or why it was refused; and
    /// the state after the batch when it was asked for and could be read.
    func finishBatch(_ ticket: BatchTicket) throws(SessionError) -> (
        outcomes: [Result<SendSummary, SessionError>], stateAfter: StateUpdate?
    )
    /// Applies an action's update alone (its effects are dropped): time travel.
    func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool
    /// Replays several actions in order, stopping at the first the model refuses.
    func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (changed: [Bool], error: SessionError?)
    /// Puts back a state the model reported; false when the model cannot restore.
    func restore(_ state: Value) throws(SessionError) -> Bool
    /// Reads the state: its changes since the last update, or the whole state (`whole`,
    /// or when the changes cannot be had).
    func read(whole: Bool) throws(SessionError) -> StateUpdate
    /// The session could not apply the last changes: the next read is whole.
    func outOfStep()
    /// Answers calls of the service at `index` as `script` says (nil: the model's own).
    func stub(service index: Int, _ script: StubScript?) throws(SessionError)
    /// Whether the model's effect work can go on without the host (storeplugin.h's
    /// `effects_idle`): true when it cannot, so a virtual clock may move; false when work
    /// is running, queued or waiting on something else; nil when the plugin cannot say.
    func effectsIdle() throws(SessionError) -> Bool?
    /// Evaluates the model's check in code at `index` (`ModelDescriptor.checks`) on the
    /// store now.
    func check(_ index: Int) throws(SessionError) -> CheckVerdict
    /// The edges of plugin code taken in the model's process since the last take (plugins
    /// built with SanitizerCoverage's trace-pc-guard; none for others), in the order first
    /// taken: what `storesh explore`'s guidance counts as new code reached.
    func takeCoverage() throws(SessionError) -> [UInt32]
    /// Sends `actions` and checks `checks` after each, keeping only hashes of the states
    /// (`Session.probe`); nil when the connection cannot (the caller then sends them as
    /// usual). A worker answers a probe in one round trip.
    func probe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) throws(SessionError) -> ProbeOutcome?
    /// Ends the store. Called once, when the session goes.
    func destroy()
}

/// A store's state as a connection hands it over: whole, or as the changes since the last
/// update it gave (`base`, which the session holds). Updates are numbered by the side that
/// read them.
package enum StateUpdate {
    case whole(number: UInt64, state: Value)
    case changes(number: UInt64, base: UInt64, patches: [StatePatch])
}

/// Something a store did outside a call's answer.
package enum ConnectionEvent {
    /// An effect started, emitted an action, finished, failed or was cancelled.
    case effect(kind: EffectEventRecord.Kind, effect: UInt64, label: String?, action: String?, message: String?)
    /// An effect's action was applied: the state after it (nil when it could not be read)
    /// and whether it changed the state, as the model said (nil: it did not say).
    case applied(action: String, state: StateUpdate?, changed: Bool?)
}

/// What one sent action did, as every connection can tell without reading the state.
package struct SendSummary: Sendable {
    /// Whether the action changed the state, as the model said.
    package var changed: Bool
    /// How many effects the action's update started.
    package var effectsStarted: Int

    package init(changed: Bool, effectsStarted: Int) {
        self.changed = changed
        self.effectsStarted = effectsStarted
    }
}

/// What one sent action did (its `SendSummary`), and the state after it.
package struct SendOutcome {
    package var summary: SendSummary
    /// When the state was asked for: the state after the action (nil when it was not
    /// read, or could not be).
    package var state: StateUpdate?
    /// Why the state could not be read, when it was asked for. (Two optionals, not a
    /// `Result`: one is made and dropped per action sent.)
    package var stateError: String?

    /// Whether the action changed the state, as the model said.
    package var changed: Bool { summary.changed }
    /// How many effects the action's update started.
    package var effectsStarted: Int { summary.effectsStarted }

    package init(changed: Bool, effectsStarted: Int, state: StateUpdate? = nil, stateError: String? = nil) {
        self.init(SendSummary(changed: changed, effectsStarted: effectsStarted), state: state, stateError: stateError)
    }

    package init(_ summary: SendSummary, state: StateUpdate? = nil, stateError: String? = nil) {
        self.summary = summary
        self.state = state
        self.stateError = stateError
    }
}

/// A batch a connection was given: its answer, or the request that will bring it.
package enum BatchTicket {
    /// Run already: what it did, and the state after it when asked for.
    case done(outcomes: [Result<SendSummary, SessionError>], stateAfter: StateUpdate?)
    /// Sent, its answer still to be read.
    case pending(PendingAnswer)
}

/// A request a connection sent whose answer is still to be read: opaque to the session,
/// which hands it back to the connection that made it (a worker's request, today).
package struct PendingAnswer {
    let request: WorkerProcess.Ticket
}

/// A connection that can send actions to be applied and answered one by one in one
/// request (a worker's `send observed`), so runs that show every result pay one round
/// trip per batch instead of one per action. See `Session.startObserved`.
@MainActor
package protocol ObservedBatching: AnyObject {
    /// Sends the batch and returns without waiting for its answer. `stopAtBrokenCheck`:
    /// after each action applied, the model's checks in code are asked on the other side,
    /// and the batch stops after one that does not hold (the caller asks them itself then).
    func startObserved(
        _ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, wantState: Bool, continuing: Bool,
        stateAfter: Bool, stopAtBrokenCheck: Bool
    ) throws(SessionError) -> PendingAnswer
    /// Waits for the answer to an observed batch of `sent` actions.
    func observedAnswers(_ ticket: PendingAnswer, sent: Int) throws(SessionError) -> ObservedAnswers
    /// The next action's answer, nil after the last one processed: first the events it
    /// caused are delivered as if they had come on their own, then its outcome or refusal.
    func next(_ answers: inout ObservedAnswers) throws(SessionError) -> Result<SendOutcome, SessionError>?
    /// The next answer when it is the usual one (no events, applied, changed, the state
    /// whole), read without the general answer's wrappers; nil, with nothing read, else.
    func nextWholeState(_ answers: inout ObservedAnswers) -> (effects: Int, number: UInt64, state: Value)?
    /// The error for a batch that should have been skipped and was not (the other side is
    /// not keeping order, and is stopped).
    func outOfOrder() -> SessionError
}
