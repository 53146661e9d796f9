package import CStorePlugin
package import StoreValue

/// One store of one model: send actions, read the state, watch effects. The session keeps
/// what every model shares — the state as the model last reported it, sending, and the
/// diff after a send — and reaches the store through a `StoreConnection`, wherever the
/// model runs (in this process, in a worker process, or scripted in memory). The state is
/// re-read after every observed action, or on the next read of `state` after unobserved
/// ones (`--quiet` runs).
@MainActor
package final class Session {
    package let model: ModelDescriptor
    /// The running store.
    package let connection: any StoreConnection
    /// The connection's observed batches, when it has them.
    let batching: (any ObservedBatching)?

    /// The current state, as the model last reported it. When it cannot be read (a tree
    /// nested past the limit) this is the last state that could be, and
    /// `currentState()` says why; code that shows the state to a user asks that instead.
    package var state: Value {
        if isStale { _ = try? read() }
        return knownState
    }

    /// Whether `state` is the model's state without a read (no unobserved send since).
    package var stateIsKnown: Bool { !isStale }

    /// The current state, or why it cannot be read.
    package func currentState() throws(SessionError) -> Value {
        if isStale { try read() }
        return knownState
    }

    /// The state as the model last reported it: the only copy this process holds, so the
    /// model's changes apply to it in place.
    @exclusivity(unchecked) var knownState: Value = .null
    /// The model's state has moved past `knownState` (unobserved sends): the next read of
    /// `state` reads it.
    @exclusivity(unchecked) var isStale = false
    /// The last read of the state: what it was, and what changed since the read before.
    /// Made when asked for: the session keeps only the state itself, so that it is the
    /// state's only holder and a model's changes apply to it in place.
    package var lastRead: StateRead? {
        lastReadKept.map { StateRead(state: knownState, previous: nil, patches: $0.patches, number: $0.number) }
    }
    /// The last read's number and changes.
    @exclusivity(unchecked) var lastReadKept: (number: UInt64, patches: [StatePatch]?)?
    /// True while `send` waits for the model's answer: a read then (an effect's action the
    /// model applied meanwhile) keeps the state before it in `sendBase` for the send's
    /// diff, which can no longer be worked out from the send's own read alone.
    @exclusivity(unchecked) var sendInFlight = false
    @exclusivity(unchecked) var sendBase: Value?
    /// Observed batches sent and not yet answered.
    var observedInFlight = 0
    /// The ids of long lists in the state, kept between diffs.
    let identityMemo = IdentityMemo()
    /// For warnings; sessions may outlive their host in tests and tools.
    weak var logHost: PluginHost?
    /// Called for every effect event and every action an effect applied.
    package var onEvent: ((SessionEvent) -> Void)?
    let clock: any ShellClock
    private let startTime: Int64
    /// How the connection's events reach the session (see `WeakRoute`).
    private lazy var route = WeakRoute(self)

    /// Creates a store of `model` in its initial state, where the model runs (`services`:
    /// implementations in place of the plugin's own, for a model in this process).
    package convenience init(
        model: ModelDescriptor, host: PluginHost, services overrides: [String: sp_typed_entry] = [:]
    ) throws(SessionError) {
        try self.init(model: model, connection: model.connect(host: host, services: overrides), host: host)
    }

    /// Creates a store of `model` through `connection`.
    package init(model: ModelDescriptor, connection: any StoreConnection, host: PluginHost) throws(SessionError) {
        self.model = model
        self.connection = connection
        self.batching = connection as? any ObservedBatching
        self.logHost = host
        self.clock = host.clock
        self.startTime = host.clock.now
        connection.onEvent = { [weak route] event in route?.target.handle(event) }
        try apply(connection.create(), diffing: false)
    }

    isolated deinit {
        connection.destroy()
    }

    /// True when every call to the model is a round trip to another process (each action
    /// of a batch costs less than one on its own). The shell asks this, never where a
    /// model runs.
    package var callsAreRoundTrips: Bool { connection.callsAreRoundTrips }
    /// True when a crash in the model ends only its connection, so one can be replayed.
    package var containsCrashes: Bool { connection.containsCrashes }

    /// Milliseconds on the host clock since the session started.
    package var elapsed: Int64 { (clock.now - startTime) / 1_000_000 }

    /// Sends an action by name with arguments in schema order, already checked by
    /// `ActionBinding`. With `observe: false` the state is not re-read and no diff is made
    /// (fast batch runs).
    package func send(_ action: ActionDescriptor, arguments: [Value], observe: Bool = true) throws(SessionError)
        -> SendResult
    {
        // Answers held until the next action arrive after this one (when effects settle);
        // the ones this action's calls hold wait for the action after it.
        clock.actionSent()
        guard observe else {
            let summary = try connection.send(action, arguments: arguments)
            isStale = isStale || summary.changed
            return SendResult(
                action: action.name, stateChanged: summary.changed, effectsStarted: summary.effectsStarted, changes: [])
        }
        // The diff is from the state as it is now (read first when stale, as `state` does);
        // the read after the action works it out from the changes it applies.
        if isStale { _ = try? read() }
        sendInFlight = true
        sendBase = nil
        defer { (sendInFlight, sendBase) = (false, nil) }
        let outcome = try connection.sendReadingState(action, arguments: arguments)
        sendInFlight = false
        return result(of: action.name, outcome, observe: true)
    }

    /// What a sent action did, with its diff from the state before it when observed (from
    /// `sendBase` when effects' actions changed it meanwhile); the state it brought becomes
    /// the known state.
    func result(of action: String, _ outcome: SendOutcome, observe: Bool) -> SendResult {
        guard observe else {
            isStale = isStale || outcome.changed
            return SendResult(
                action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [])
        }
        if let problem = outcome.stateError {
            // The action was applied; only showing its result failed.
            isStale = true
            return SendResult(
                action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [],
                stateError: problem)
        }
        guard let update = outcome.state else {
            return SendResult(
                action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [])
        }
        var changes: [StateChange]
        do {
            changes = try apply(update, diffing: outcome.changed && sendBase == nil)
        } catch {
            isStale = true
            return SendResult(
                action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: [],
                stateError: error.message)
        }
        if !outcome.changed {
            changes = []
        } else if let sendBase {
            changes = model.stateDiff.changes(from: sendBase, to: knownState)
        }
        return SendResult(
            action: action, stateChanged: outcome.changed, effectsStarted: outcome.effectsStarted, changes: changes)
    }

    /// Sends through the plugin's value-tree entry point, even for typed actions
    /// (benchmarks compare the two paths). The state is not re-read.
    /// Whether the model's effect work can go on without the host: true when it cannot (a
    /// virtual clock may move), false when it can, nil when the plugin cannot say or the
    /// store cannot be asked.
    package func effectsIdle() -> Bool? {
        (try? connection.effectsIdle()) ?? nil
    }

    /// Evaluates the model's check in code at `index` (`ModelDescriptor.checks`) on the
    /// store now: for a postcondition, of the last action sent (it holds when there is
    /// none, or the model refused it).
    /// The edges of plugin code taken since the last take (`StoreConnection.takeCoverage`).
    package func takeCoverage() throws(SessionError) -> [UInt32] { try connection.takeCoverage() }

    package func check(_ index: Int) throws(SessionError) -> CheckVerdict {
        try connection.check(index)
    }

    package func sendThroughValueTree(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendResult
    {
        // Elsewhere (a worker) the other side chooses the entry point: a plain send.
        let summary: SendSummary
        if let inProcess = connection as? InProcessConnection {
            summary = try inProcess.sendThroughValueTree(action, arguments: arguments)
        } else {
            summary = try connection.send(action, arguments: arguments)
        }
        isStale = isStale || summary.changed
        return SendResult(
            action: action.name, stateChanged: summary.changed, effectsStarted: summary.effectsStarted, changes: [])
    }

    /// Time travel: applies an action's update alone (its effects are dropped). The
    /// state is not re-read; `state` reads it when next asked.
    package func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        let changed = try connection.replay(name, arguments: arguments)
        isStale = isStale || changed
        return changed
    }

    /// Time travel: replays several actions' updates in order (one request for a model in
    /// a worker), stopping at the first the model refuses.
    package func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (
        changed: [Bool], error: SessionError?
    ) {
        let outcome = try connection.replayBatch(actions)
        isStale = isStale || outcome.changed.contains(true)
        return outcome
    }

    /// Time travel: puts back a state the model reported earlier. Returns false when the
    /// model cannot restore (the caller then replays from a new store).
    package func restore(_ state: Value) throws(SessionError) -> Bool {
        guard try connection.restore(state) else { return false }
        knownState = state
        isStale = false
        return true
    }

    /// Answers calls of the service `name` as `script` says (nil: the model's own
    /// implementation again), from the next call on.
    package func useStub(_ script: StubScript?, for name: String) throws(SessionError) {
        guard let index = model.services.firstIndex(where: { $0.name == name }) else {
            throw SessionError(message: "\(model.qualifiedName) has no service '\(name)'")
        }
        try connection.stub(service: index, script)
    }

    /// An effect event that did not come from the model: the shell's word for effects that
    /// ended with their worker or were dropped by a reload.
    package func receive(_ record: EffectEventRecord) {
        onEvent?(.effect(record))
    }

    /// An event from the connection: effect events are stamped with the session's time;
    /// an effect's action brings the state after it, which is applied and diffed.
    private func handle(_ event: ConnectionEvent) {
        switch event {
        case .effect(let kind, let effect, let label, let action, let message):
            onEvent?(
                .effect(
                    EffectEventRecord(
                        kind: kind, effect: effect, label: label, action: action, message: message,
                        elapsedMilliseconds: elapsed)))
        case .applied(let action, let update, let pluginSaid):
            // A stale state (after unobserved sends) cannot give a faithful diff: report no
            // diff then, and take "changed" from the model when it says.
            var changes: [StateChange]?
            if let update { changes = try? apply(update, diffing: !isStale, mayAsk: connection.readsDuringEvents) }
            if changes == nil { isStale = true }  // `:state` will say why it cannot be read
            onEvent?(.applied(action: action, changes: changes ?? [], changed: pluginSaid ?? !(changes ?? []).isEmpty))
        }
    }
}
