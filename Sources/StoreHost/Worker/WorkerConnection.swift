package import StoreValue

/// A store of a model in a worker process (docs/worker-protocol.md): each call is one
/// request to the worker, which runs the store through an `InProcessConnection` of its
/// own. States come back whole or as the changes since the last state sent.
@MainActor
package final class WorkerConnection: StoreConnection, ObservedBatching {
    let plugin: WorkerPlugin
    let model: ModelDescriptor
    package var onEvent: ((ConnectionEvent) -> Void)?
    package var callsAreRoundTrips: Bool { true }
    package var containsCrashes: Bool { true }
    /// Answers come in order on one pipe: no read can be asked while an event that came
    /// with a request's answer is delivered.
    package var readsDuringEvents: Bool { false }
    /// The worker this store lives in; after it is gone, so is the store.
    private let process: WorkerProcess?
    private var id: UInt32 = 0
    /// The shell's copies of the stubs, by service index: they count the worker's calls.
    private var scripts: [Int: StubScript] = [:]
    /// The number of the last state the worker sent, which its next changes apply to (the
    /// session holds that state and applies them); nil when the two are out of step (the
    /// next read asks for the whole state).
    var held: UInt64?
    /// What the plugin's table of stores holds (weakly), so the store is never weakly
    /// referenced: it is retained on every action (see `WeakRoute`).
    private lazy var route = WeakRoute(self)

    /// A connection to a new store of `model` in `plugin`'s worker; `create` makes it.
    init(plugin: WorkerPlugin, model: ModelDescriptor) {
        self.plugin = plugin
        self.model = model
        process = plugin.process
        id = plugin.register(route)
    }

    package func create() throws(SessionError) -> StateUpdate {
        var body = try start()
        body.u32(UInt32(model.indexInPlugin))
        var reply = try call(.create, body, doing: "creating a store")
        let state = try decode("creating a store") { () throws(WireError) in try reply.state() }
        guard let read = take(state) else { return try read(whole: true) }
        return read
    }

    /// A state from the worker for the session to apply: a whole one, or changes to the
    /// state the session holds. Nil when they are changes to another state (the next read
    /// then asks for the whole state).
    func take(_ state: StateUpdate) -> StateUpdate? {
        switch state {
        case .whole(let number, _):
            held = number
        case .changes(let number, let base, _):
            guard held == base else {
                held = nil
                return nil
            }
            held = number
        }
        return state
    }

    /// The session could not apply the changes it was given: the next read asks for the
    /// whole state.
    package func outOfStep() {
        held = nil
    }

    /// Reads the state: the changes since the last state the worker sent, or with `whole`
    /// (or when out of step) the whole state.
    package func read(whole: Bool) throws(SessionError) -> StateUpdate {
        var body = try start()
        body.bool(whole || held == nil)
        // A read is not the plugin's action: a large state takes as long as it takes (a
        // 10M-element state was called hung at the action timeout). Ctrl-C stops it.
        var reply = try call(.snapshot, body, doing: "making a snapshot of its state", timed: false)
        let state = try decode("making a snapshot") { () throws(WireError) in try reply.state() }
        if let read = take(state) { return read }
        guard !whole else {
            throw plugin.malformed(
                WireError(description: "a whole state was asked for, changes came"), model: model.qualifiedName,
                doing: "making a snapshot")
        }
        return try read(whole: true)
    }

    package func destroy() {
        plugin.unregister(id)
        guard plugin.isCurrent(process) else { return }
        var body = plugin.requestBody()
        body.u32(id)
        plugin.post(.destroy, body)
    }

    package func send(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendSummary {
        let outcome = try send(action, arguments: arguments, wantState: false)
        return SendSummary(changed: outcome.changed, effectsStarted: outcome.effectsStarted)
    }

    package func sendReadingState(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendOutcome {
        try send(action, arguments: arguments, wantState: true)
    }

    /// One `send` request; with `wantState`, the answer brings the state when it changed.
    private func send(_ action: ActionDescriptor, arguments: [Value], wantState: Bool) throws(SessionError)
        -> SendOutcome
    {
        var body = try start()
        body.u32(UInt32(action.index))
        body.values(arguments)
        body.bool(wantState)
        var reply = try call(.send, body, doing: "handling '\(action.text(with: arguments))'")
        return try outcome(from: &reply, doing: "handling '\(action.name)'")
    }

    /// Reads what the worker answers for one sent action (`send`, and each action of a
    /// `sendObserved` batch).
    func outcome(from reply: inout WireReader, doing what: String) throws(SessionError) -> SendOutcome {
        let reported = try decode(what) { () throws(WireError) in try Self.sendAnswer(&reply) }
        var outcome = SendOutcome(changed: reported.changed, effectsStarted: reported.effects)
        switch reported.state {
        case .success(let state?):
            // Changes the shell cannot apply: ask for the whole state instead.
            if let taken = take(state) {
                outcome.state = taken
            } else {
                do {
                    outcome.state = try self.read(whole: true)
                } catch {
                    outcome.stateError = error.message
                }
            }
        case .success(nil): break
        case .failure(let error): outcome.stateError = error.message
        }
        return outcome
    }

    /// What the worker answers for one sent action, as it is on the wire.
    nonisolated static func sendAnswer(_ reply: inout WireReader) throws(WireError) -> (
        changed: Bool, effects: Int, state: Result<StateUpdate?, SessionError>
    ) {
        try reply.sendAnswer()
    }

    /// The messages one action of an observed batch caused, and whether the model refused
    /// it (why), as they are on the wire; its answer follows when it was not refused.
    nonisolated static func observedPrologue(_ reply: inout WireReader) throws(WireError) -> (
        messages: [(type: UInt8, body: [UInt8])], refusal: String?
    ) {
        var messages: [(type: UInt8, body: [UInt8])] = []
        for _ in 0..<(try reply.u32()) {
            messages.append((try reply.u8(), try reply.counted()))
        }
        let refusal = try reply.u8() != 0 ? try reply.string() : nil
        return (messages, refusal)
    }

    /// Replays `actions` (updates only) in one request, stopping at the first refused.
    package func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (
        changed: [Bool], error: SessionError?
    ) {
        var body = try start()
        body.u32(UInt32(actions.count))
        for (name, arguments) in actions {
            body.string(name)
            body.values(arguments)
        }
        let what = actions.count == 1 ? "replaying '\(actions[0].0)'" : "replaying \(actions.count) actions"
        var reply = try call(.replayBatch, body, doing: what)
        return try decode("replaying a batch") { () throws(WireError) in
            var changed: [Bool] = []
            let count = Int(try reply.u32())
            changed.reserveCapacity(count)
            for _ in 0..<count { changed.append(try reply.u8() & 1 != 0) }
            let error = try reply.bool() ? SessionError(message: try reply.string()) : nil
            return (changed, error)
        }
    }

    package func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        var body = try start()
        body.string(name)
        body.values(arguments)
        var reply = try call(.replay, body, doing: "replaying '\(name)'")
        return try decode("replaying '\(name)'") { () throws(WireError) in try reply.bool() }
    }

    package func restore(_ state: Value) throws(SessionError) -> Bool {
        var body = try start()
        body.value(state)
        var reply = try call(.restore, body, doing: "restoring a snapshot")
        return try decode("restoring a snapshot") { () throws(WireError) in try reply.bool() }
    }

    package func check(_ index: Int) throws(SessionError) -> CheckVerdict {
        var body = try start()
        body.u32(UInt32(index))
        let what = "checking \(model.checks.indices.contains(index) ? "\"\(model.checks[index].name)\"" : "#\(index)")"
        var reply = try call(.check, body, doing: what)
        return try decode(what) { () throws(WireError) in
            CheckVerdict(holds: try reply.bool(), message: try reply.optionalString())
        }
    }

    package func takeCoverage() throws(SessionError) -> [UInt32] {
        let what = "reading which code it ran"
        switch try plugin.call(.coverage, plugin.requestBody(), model: model.qualifiedName, doing: what, timed: false) {
        case .success(var reply):
            return try decode(what) { () throws(WireError) in
                let count = Int(try reply.u32())
                guard count <= (reply.byteCount - reply.offset) / 4 else {
                    throw WireError(description: "\(count) edges in a body of \(reply.byteCount) bytes")
                }
                return try (0..<count).map { _ throws(WireError) in try reply.u32() }
            }
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
    }

    /// Makes the worker answer the service at `index` as `script` says (nil: its own).
    package func stub(service index: Int, _ script: StubScript?) throws(SessionError) {
        var body = try start()
        body.u32(UInt32(index))
        body.bool(script != nil)
        if let script {
            body.u32(UInt32(script.answers.count))
            for answer in script.answers {
                switch answer {
                case .value(let value):
                    body.u8(0)
                    body.value(value)
                case .fail(let message):
                    body.u8(1)
                    body.string(message)
                }
            }
        }
        _ = try call(.stub, body, doing: "stubbing a service")
        scripts[index] = script
    }

    package func effectsIdle() throws(SessionError) -> Bool? {
        guard plugin.isLatest(process) else { return nil }
        return plugin.effectsIdle(store: id)
    }

    func stubCalled(service index: Int) {
        _ = scripts[index]?.next()
    }

    /// An effect event the worker reported for this store.
    func receiveEffect(kind: UInt32, effect: UInt64, label: String?, action: String?, message: String?) {
        onEvent?(
            .effect(
                kind: EffectEventRecord.Kind(rawValue: kind) ?? .failed, effect: effect, label: label, action: action,
                message: message))
    }

    /// An effect's action the worker applied, with the state after it when it could be
    /// read (changes to another state than the one held are dropped: the next read asks
    /// for the whole state).
    func receiveApplied(_ action: String, state: StateUpdate?, changed: Bool?) {
        onEvent?(.applied(action: action, state: state.flatMap { take($0) }, changed: changed))
    }

    /// A request body for this store, or an error when its worker was replaced. A worker
    /// that died and is not replaced yet is asked all the same: the request fails with its
    /// loss (the crash, and the effect to blame), as any request to it does, and the
    /// caller recovers it. (Refused here, such a request said only "its worker is gone",
    /// and the crash went unreported: seen when the shell noticed an effect's crash between
    /// two lines of a script.)
    func start() throws(SessionError) -> WireWriter {
        guard plugin.isLatest(process) else {
            throw SessionError(message: "\(model.qualifiedName): its worker is gone (the session is being recovered)")
        }
        var body = plugin.requestBody()
        body.u32(id)
        return body
    }

    /// Sends a request; a refusal is the plugin's error, worded by the worker's host as the
    /// in-process host words it.
    /// `what` is worded only when the worker is lost: the usual answer costs no text.
    func call(
        _ type: WorkerProtocol.Request, _ body: WireWriter, doing what: @autoclosure () -> String, timed: Bool = true
    ) throws(SessionError) -> WireReader {
        switch try plugin.call(type, body, model: model.qualifiedName, doing: what(), timed: timed) {
        case .success(let reader): return reader
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
    }

    func decode<T>(_ what: String, _ read: () throws(WireError) -> T) throws(SessionError) -> T {
        do {
            return try read()
        } catch {
            throw plugin.malformed(error, model: model.qualifiedName, doing: what)
        }
    }
}
