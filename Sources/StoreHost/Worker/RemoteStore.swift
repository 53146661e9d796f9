import StoreValue

/// A store of a model in a worker process: what `Session` calls instead of the plugin's
/// entry points when the model runs in a worker. Each call is one request.
@MainActor
final class RemoteStore {
    private let plugin: WorkerPlugin
    private let model: ModelDescriptor
    private unowned let session: Session
    /// The worker this store lives in; after it is gone, so is the store.
    private let process: WorkerProcess?
    private var id: UInt32 = 0
    /// The shell's copies of the stubs, by service index: they count the worker's calls.
    private var scripts: [Int: StubScript] = [:]

    init(plugin: WorkerPlugin, model: ModelDescriptor, session: Session) throws(SessionError) {
        self.plugin = plugin
        self.model = model
        self.session = session
        process = plugin.process
        id = plugin.register(self)
    }

    /// Creates the store in the worker; returns its initial state.
    func create() throws(SessionError) -> Value {
        var body = try start()
        body.u32(UInt32(model.indexInPlugin))
        var reply = try call(.create, body, doing: "creating a store")
        return try decode("creating a store") { () throws(WireError) in try reply.value() }
    }

    func destroy() {
        plugin.unregister(id)
        guard plugin.isCurrent(process) else { return }
        var body = plugin.requestBody()
        body.u32(id)
        plugin.post(.destroy, body)
    }

    struct Outcome {
        var changed: Bool
        var effectsStarted: Int
        /// With `wantState`: the new state when it changed (nil when it did not), or why
        /// it cannot be read.
        var state: Result<Value?, SessionError>
    }

    func send(_ action: ActionDescriptor, arguments: [Value], wantState: Bool) throws(SessionError) -> Outcome {
        var body = try start()
        body.u32(UInt32(action.index))
        body.values(arguments)
        body.bool(wantState)
        var reply = try call(.send, body, doing: "handling '\(action.text(with: arguments))'")
        return try decode("handling '\(action.name)'") { () throws(WireError) in
            let changed = try reply.bool()
            let effects = Int(try reply.u32())
            var state: Result<Value?, SessionError> = .success(nil)
            switch try reply.u8() {
            case 1: state = .success(try reply.value())
            case 2: state = .failure(SessionError(message: try reply.string()))
            default: break
            }
            return Outcome(changed: changed, effectsStarted: effects, state: state)
        }
    }

    /// Sends `actions` in one request and returns without waiting (`finishBatch` takes the
    /// answer): the worker applies them in order, past refusals unless `stopAtFailure`.
    func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool) throws(SessionError) -> WorkerProcess.Ticket {
        var body = try start()
        body.bool(stopAtFailure)
        body.bool(stateAfter)
        body.u32(UInt32(actions.count))
        for (action, arguments) in actions {
            body.u32(UInt32(action.index))
            body.values(arguments)
        }
        return try plugin.send(.sendBatch, body, model: model.qualifiedName, doing: "handling a batch of \(actions.count) actions")
    }

    /// What a batch did: per action it processed, what it did or why it was refused; and
    /// the state after it, when asked for.
    func finishBatch(_ ticket: WorkerProcess.Ticket) throws(SessionError) -> Session.BatchResult {
        var reply: WireReader
        switch try plugin.wait(for: ticket, model: model.qualifiedName, doing: "handling a batch of actions") {
        case .success(let reader): reply = reader
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
        return try decode("handling a batch") { () throws(WireError) in
            var outcomes: [Result<Session.BatchOutcome, SessionError>] = []
            let count = Int(try reply.u32())
            outcomes.reserveCapacity(count)
            for _ in 0..<count {
                let flags = try reply.u8()
                outcomes.append(flags & 4 != 0
                    ? .failure(SessionError(message: try reply.string()))
                    : .success(Session.BatchOutcome(changed: flags & 1 != 0, startedEffects: flags & 2 != 0)))
            }
            let state = try reply.bool() ? try reply.value() : nil
            return Session.BatchResult(outcomes: outcomes, stateAfter: state)
        }
    }

    /// Replays `actions` (updates only) in one request, stopping at the first refused.
    func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (changed: [Bool], error: SessionError?) {
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

    func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        var body = try start()
        body.string(name)
        body.values(arguments)
        var reply = try call(.replay, body, doing: "replaying '\(name)'")
        return try decode("replaying '\(name)'") { () throws(WireError) in try reply.bool() }
    }

    func restore(_ state: Value) throws(SessionError) -> Bool {
        var body = try start()
        body.value(state)
        var reply = try call(.restore, body, doing: "restoring a snapshot")
        return try decode("restoring a snapshot") { () throws(WireError) in try reply.bool() }
    }

    func snapshot() throws(SessionError) -> Value {
        var reply = try call(.snapshot, try start(), doing: "making a snapshot of its state")
        return try decode("making a snapshot") { () throws(WireError) in try reply.value() }
    }

    /// Makes the worker answer the service at `index` as `script` says (nil: its own).
    func stub(service index: Int, _ script: StubScript?) throws(SessionError) {
        var body = try start()
        body.u32(UInt32(index))
        body.bool(script != nil)
        if let script {
            body.u32(UInt32(script.answers.count))
            for answer in script.answers {
                switch answer {
                case .value(let value): body.u8(0); body.value(value)
                case .fail(let message): body.u8(1); body.string(message)
                }
            }
        }
        _ = try call(.stub, body, doing: "stubbing a service")
        scripts[index] = script
    }

    func stubCalled(service index: Int) {
        _ = scripts[index]?.next()
    }

    func receiveEffect(kind: UInt32, effect: UInt64, label: String?, action: String?, message: String?) {
        session.receive(EffectEventRecord(
            kind: EffectEventRecord.Kind(rawValue: kind) ?? .failed, effect: effect,
            label: label, action: action, message: message, elapsedMilliseconds: session.elapsed
        ))
    }

    func receiveApplied(_ action: String, state: Value?, changed: Bool?) {
        session.applied(action, state: state, changed: changed)
    }

    /// A request body for this store, or an error when its worker is gone.
    private func start() throws(SessionError) -> WireWriter {
        guard plugin.isCurrent(process) else {
            throw SessionError(message: "\(model.qualifiedName): its worker is gone (the session is being recovered)")
        }
        var body = plugin.requestBody()
        body.u32(id)
        return body
    }

    /// Sends a request; a refusal is the plugin's error, worded by the worker's host as the
    /// in-process host words it.
    private func call(_ type: WorkerProtocol.Request, _ body: WireWriter, doing what: String) throws(SessionError) -> WireReader {
        switch try plugin.call(type, body, model: model.qualifiedName, doing: what) {
        case .success(let reader): return reader
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
    }

    private func decode<T>(_ what: String, _ read: () throws(WireError) -> T) throws(SessionError) -> T {
        do {
            return try read()
        } catch {
            throw plugin.malformed(error, model: model.qualifiedName, doing: what)
        }
    }
}
