public import CStorePlugin
public import StoreValue

/// One store of one model, driven through the plugin ABI: send actions, read the state,
/// watch effects. The state is re-read from the plugin after every observed action, or on
/// the next read of `state` after unobserved ones (`--quiet` runs).
@MainActor
public final class Session {
    public let model: ModelDescriptor
    /// The current state, as the plugin last reported it. When it cannot be read (a tree
    /// nested past the limit) this is the last state that could be, and
    /// `currentState()` says why; code that shows the state to a user asks that instead.
    public var state: Value {
        if isStale { _ = try? read() }
        return knownState
    }

    /// The current state, or why it cannot be read.
    public func currentState() throws(SessionError) -> Value {
        if isStale { try read() }
        return knownState
    }

    /// The state as the plugin last reported it. After a read a worker passed on as the
    /// plugin wrote it (`readEncodedWhole`), it is decoded from those bytes when first used.
    var knownState: Value {
        get {
            decodeKnownState()
            return knownStateValue
        }
        set {
            knownStateEncoding = nil
            knownStateValue = newValue
        }
        _modify {
            decodeKnownState()
            yield &knownStateValue
        }
    }
    @exclusivity(unchecked) private var knownStateValue: Value
    /// The known state's bytes when `knownStateValue` is not it yet: checked when read, so
    /// they decode (a worker that only passes its plugin's state on never decodes it).
    @exclusivity(unchecked) var knownStateEncoding: [UInt8]?

    private func decodeKnownState() {
        guard let bytes = knownStateEncoding else { return }
        knownStateEncoding = nil
        var reader = WireReader(bytes)
        // Checked by `skipValue` when they were read: this cannot fail.
        knownStateValue = (try? reader.value()) ?? .null
    }
    @exclusivity(unchecked) var isStale = false
    /// The last read of the state: what it was, and what changed since the read before.
    /// Made when asked for: the session keeps only the state itself, so that it is the
    /// state's only holder and a plugin's changes apply to it in place.
    package var lastRead: StateRead? {
        lastReadKept.map { StateRead(state: knownState, previous: nil, patches: $0.patches, number: $0.number) }
    }
    /// The last read's number and changes.
    @exclusivity(unchecked) var lastReadKept: (number: UInt64, patches: [StatePatch]?)?
    /// True while `send` waits for the plugin's dispatch: a read then (an effect's action
    /// the plugin applied meanwhile) keeps the state before it in `sendBase` for the send's
    /// diff, which can no longer be worked out from the send's own read alone.
    @exclusivity(unchecked) var sendInFlight = false
    @exclusivity(unchecked) var sendBase: Value?
    /// True while `knownState` is the state the plugin last reported, so the plugin can be
    /// asked for what changed since (`snapshot_changes`) instead of for all of it.
    @exclusivity(unchecked) var pluginBaseline = false
    /// The plugin had no changes to report (`snapshot_changes` said NULL, as the SDK does
    /// for a small state) and the whole state it gave instead was small: reads go straight
    /// to a snapshot, one call each, until a snapshot is big again. Only the cost changes:
    /// a snapshot is always right.
    var snapshotsSmallState = false
    /// The plugin once told what changed in a small state: it is always asked (it may
    /// answer what a snapshot cannot, and a test plugin may say anything).
    var reportsSmallChanges = false
    /// Fewer values than this make a small state (the SDK's change tracker's bound).
    static let smallState = 64
    /// The bytes of the last `snapshot_encoded`, kept to reuse their memory.
    @exclusivity(unchecked) var encodedState: [UInt8] = []
    /// The last whole read was `encodedState`.
    @exclusivity(unchecked) var encodedStateIsCurrent = false
    /// Whole reads keep the bytes the plugin wrote (`StateRead.encoded`), for a worker to
    /// send on.
    package var keepsEncodedState = false
    /// The ids of long lists in the state, kept between diffs.
    let identityMemo = IdentityMemo()
    /// The host's `readsChanges` and `checksChanges` when the session was made.
    let readsChanges: Bool
    let checksChanges: Bool
    /// For warnings; sessions may outlive their host in tests and tools.
    weak var logHost: PluginHost?
    /// Called for every effect event and every action an effect applied.
    public var onEvent: ((SessionEvent) -> Void)?
    /// Service implementations passed to the store, in the model's declaration order.
    public private(set) var services: [sp_typed_entry]

    private unowned let host: PluginHost
    /// The store in a worker process, when the model runs in one.
    var remote: RemoteStore?
    /// The stubs made in this process (a model in a worker has its stubs made there).
    private var localStubs: [String: ServiceStub] = [:]
    var store: UnsafeMutableRawPointer?
    private let context: UnsafeMutablePointer<sp_store_context>
    private let servicePointers: UnsafeMutablePointer<sp_typed_entry?>
    private let startTime: Int64

    /// Creates a store of `model` in its initial state.
    public init(model: ModelDescriptor, host: PluginHost, services overrides: [String: sp_typed_entry] = [:]) throws(SessionError) {
        self.model = model
        self.host = host
        self.logHost = host
        self.readsChanges = host.readsChanges
        self.checksChanges = host.checksChanges
        self.knownStateValue = .null
        self.startTime = host.clock.now
        services = model.services.compactMap { overrides[$0.name] ?? $0.defaultImplementation }
        servicePointers = .allocate(capacity: max(1, services.count))
        for (index, service) in services.enumerated() { servicePointers[index] = service }
        context = .allocate(capacity: 1)
        context.initialize(to: sp_store_context(
            struct_size: UInt32(MemoryLayout<sp_store_context>.size),
            user_data: nil,
            effect_event: Session.effectEvent,
            action_applied: Session.actionApplied,
            services: UnsafePointer(servicePointers),
            service_count: UInt32(services.count)
        ))
        context.pointee.user_data = Unmanaged.passUnretained(self).toOpaque()
        if let worker = model.worker {
            let remote = try RemoteStore(plugin: worker, model: model, session: self)
            self.remote = remote
            _ = try accept(remote.create(), from: remote, diffing: false)
            return
        }
        var error = sp_error.empty()
        var handle: UnsafeMutableRawPointer?
        let status = model.create(model.modelData, context, &handle, &error)
        guard status == Int32(SP_OK), let handle else {
            context.deallocate()
            servicePointers.deallocate()
            throw SessionError(message: "\(model.qualifiedName): could not create a store (\(ErrorCode.name(status))): \(error.text)")
        }
        store = handle
        try read()
    }

    isolated deinit {
        remote?.destroy()
        if let store { model.destroy(store) }
        context.deallocate()
        servicePointers.deallocate()
    }

    /// Sends an action by name with arguments in schema order, already checked by
    /// `ActionBinding`. Uses the typed entry point when the action has one. With
    /// `observe: false` the state is not re-read and no diff is made (fast batch runs).
    public func send(_ action: ActionDescriptor, arguments: [Value], observe: Bool = true) throws(SessionError) -> SendResult {
        if let remote { return try sendRemote(action, arguments: arguments, observe: observe, remote: remote) }
        guard let store else { throw SessionError(message: "the store is gone") }
        // The diff is from the state as it is now (read first when stale, as `state` does);
        // the read after the action works it out from the changes it applies.
        if observe, isStale { _ = try? read() }
        sendInFlight = observe
        sendBase = nil
        defer { sendBase = nil }
        var result = sp_dispatch_result.empty()
        var error = sp_error.empty()
        let status: Int32
        if let typed = action.typed {
            status = FFICall.call(typed, store: store, arguments: arguments, result: &result, error: &error)
        } else {
            status = dispatchValueTree(action.name, arguments: arguments, store: store, result: &result, error: &error)
        }
        sendInFlight = false
        guard status == Int32(SP_OK) else {
            throw SessionError(message: "\(action.name): \(ErrorCode.explain(status, error.text))")
        }
        guard observe else {
            isStale = isStale || result.state_changed != 0
            return SendResult(action: action.name, stateChanged: result.state_changed != 0, effectsStarted: Int(result.effects_started), changes: [])
        }
        let changed = result.state_changed != 0
        let fresh: StateRead
        do {
            if changed, sendBase == nil, let changes = try readWholeDiffed() {
                return SendResult(action: action.name, stateChanged: true, effectsStarted: Int(result.effects_started), changes: changes)
            }
            fresh = try read(diffing: changed && sendBase == nil)
        } catch {
            // The action was applied; only showing its result failed.
            isStale = true
            return SendResult(action: action.name, stateChanged: result.state_changed != 0, effectsStarted: Int(result.effects_started), changes: [], stateError: error.message)
        }
        var changes: [StateChange] = []
        if changed { changes = sendBase.map { model.stateDiff.changes(from: $0, to: fresh.state) } ?? fresh.changes ?? [] }
        return SendResult(action: action.name, stateChanged: result.state_changed != 0, effectsStarted: Int(result.effects_started), changes: changes)
    }

    /// A batch of actions sent with `startBatch`: its answer, or the request that will
    /// bring it.
    public struct Batch {
        fileprivate enum State {
            case done(BatchResult)
            case inWorker(WorkerProcess.Ticket)
        }
        fileprivate let state: State
    }

    /// What one action of a batch did.
    public struct BatchOutcome: Sendable {
        public let changed: Bool
        public let startedEffects: Bool
    }

    /// What a batch did, per action processed (in order), and the state after it when
    /// it was asked for.
    public struct BatchResult {
        public let outcomes: [Result<BatchOutcome, SessionError>]
        public let stateAfter: Value?
    }

    /// Sends `actions` in order without reading the state; past refusals unless
    /// `stopAtFailure`. A model in a worker gets them in one request, and this returns
    /// before the worker is done (so the next batch can be prepared meanwhile);
    /// `finishBatch` takes the answer. In this process they run at once.
    public func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool) throws(SessionError) -> Batch {
        if let remote { return Batch(state: .inWorker(try remote.startBatch(actions, stopAtFailure: stopAtFailure, stateAfter: stateAfter))) }
        var outcomes: [Result<BatchOutcome, SessionError>] = []
        for (action, arguments) in actions {
            do {
                let result = try send(action, arguments: arguments, observe: false)
                outcomes.append(.success(BatchOutcome(changed: result.stateChanged, startedEffects: result.effectsStarted > 0)))
            } catch {
                outcomes.append(.failure(error))
                if stopAtFailure { break }
            }
        }
        return Batch(state: .done(BatchResult(outcomes: outcomes, stateAfter: stateAfter ? try? currentState() : nil)))
    }

    /// Per action of the batch that was processed: whether it changed the state, or why
    /// it was refused. Throws when the model's worker was lost on the way.
    public func finishBatch(_ batch: Batch) throws(SessionError) -> BatchResult {
        switch batch.state {
        case .done(let result): return result
        case .inWorker(let ticket):
            guard let remote else { throw SessionError(message: "\(model.qualifiedName): its worker is gone") }
            let (outcomes, after) = try remote.finishBatch(ticket)
            if let after { return BatchResult(outcomes: outcomes, stateAfter: try accept(after, from: remote, diffing: false).state) }
            if outcomes.contains(where: { (try? $0.get())?.changed == true }) { isStale = true }
            return BatchResult(outcomes: outcomes, stateAfter: nil)
        }
    }

    /// Time travel: applies an action's update alone (its effects are dropped). The
    /// state is not re-read; `state` reads it when next asked.
    package func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        if let remote {
            let changed = try remote.replay(name, arguments: arguments)
            isStale = isStale || changed
            return changed
        }
        guard let store, let replay = model.replay else {
            throw SessionError(message: "\(model.qualifiedName) cannot replay actions (its plugin has no replay entry point)")
        }
        var result = sp_dispatch_result.empty()
        var error = sp_error.empty()
        let status = callWithValueTree(replay, name, arguments: arguments, store: store, result: &result, error: &error)
        guard status == Int32(SP_OK) else {
            throw SessionError(message: "\(name): \(ErrorCode.explain(status, error.text))")
        }
        isStale = isStale || result.state_changed != 0
        return result.state_changed != 0
    }

    /// True when the model runs in a worker process (each call is a round trip).
    public var runsInWorker: Bool { remote != nil }

    /// Time travel: replays several actions' updates in order (one request for a model in
    /// a worker), stopping at the first the model refuses.
    package func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (changed: [Bool], error: SessionError?) {
        if let remote {
            let outcome = try remote.replayBatch(actions)
            isStale = isStale || outcome.changed.contains(true)
            return outcome
        }
        var changed: [Bool] = []
        for (name, arguments) in actions {
            do {
                changed.append(try replay(name, arguments: arguments))
            } catch {
                return (changed, error)
            }
        }
        return (changed, nil)
    }

    /// Time travel: puts back a state the model reported earlier. Returns false when the
    /// model cannot restore (the caller then replays from a new store).
    package func restore(_ state: Value) throws(SessionError) -> Bool {
        if let remote {
            guard try remote.restore(state) else { return false }
            knownState = state
            isStale = false
            return true
        }
        guard let store, let restore = model.restore else { return false }
        let table = ValueFunctions.table
        guard let tree = state.build(with: table) else { throw SessionError(message: "out of memory") }
        defer { table.value_free(tree) }
        var error = sp_error.empty()
        let status = restore(store, tree, &error)
        guard status == Int32(SP_OK) else {
            throw SessionError(message: "\(model.qualifiedName): cannot restore a snapshot: \(error.text)")
        }
        knownState = state
        isStale = false
        pluginBaseline = false
        return true
    }

    /// Answers calls of the service `name` as `script` says (nil: the plugin's own
    /// implementation again). The plugin reads the service array at each call, so the
    /// change takes effect at once.
    package func useStub(_ script: StubScript?, for name: String) throws(SessionError) {
        guard let index = model.services.firstIndex(where: { $0.name == name }) else {
            throw SessionError(message: "\(model.qualifiedName) has no service '\(name)'")
        }
        if let remote { return try remote.stub(service: index, script) }
        var implementation = model.services[index].defaultImplementation!
        localStubs[name] = nil
        if let script {
            guard let context = host.plugins.first(where: { $0.name == model.plugin })?.context else {
                throw SessionError(message: "the plugin of \(model.qualifiedName) is not loaded")
            }
            do {
                let stub = try ServiceStub(script: script, context: context)
                localStubs[name] = stub
                implementation = stub.entry!
            } catch {
                throw SessionError(message: error.message)
            }
        }
        services[index] = implementation
        servicePointers[index] = implementation
    }

    /// The stub this process made for `name`, if any (a worker reports calls through it).
    func localStub(for name: String) -> ServiceStub? { localStubs[name] }

    /// Sends through `dispatch` with a value-tree argument array, even for typed actions
    /// (benchmarks compare the two paths).
    public func sendThroughValueTree(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendResult {
        if let remote { return try sendRemote(action, arguments: arguments, observe: false, remote: remote) }
        guard let store else { throw SessionError(message: "the store is gone") }
        var result = sp_dispatch_result.empty()
        var error = sp_error.empty()
        let status = dispatchValueTree(action.name, arguments: arguments, store: store, result: &result, error: &error)
        guard status == Int32(SP_OK) else {
            throw SessionError(message: "\(action.name): \(ErrorCode.explain(status, error.text))")
        }
        isStale = isStale || result.state_changed != 0
        return SendResult(action: action.name, stateChanged: result.state_changed != 0, effectsStarted: Int(result.effects_started), changes: [])
    }

    private func dispatchValueTree(
        _ name: String, arguments: [Value], store: UnsafeMutableRawPointer,
        result: UnsafeMutablePointer<sp_dispatch_result>, error: UnsafeMutablePointer<sp_error>
    ) -> Int32 {
        callWithValueTree(model.dispatch, name, arguments: arguments, store: store, result: result, error: error)
    }

    /// Calls `dispatch` or `replay` (same C signature) with the arguments as a value-tree
    /// array built with the host's value functions, and frees it afterwards.
    private func callWithValueTree(
        _ entry: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?, UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?) -> Int32,
        _ name: String, arguments: [Value], store: UnsafeMutableRawPointer,
        result: UnsafeMutablePointer<sp_dispatch_result>, error: UnsafeMutablePointer<sp_error>
    ) -> Int32 {
        let table = ValueFunctions.table
        guard let tree = Value.array(arguments).build(with: table) else { return Int32(SP_ERR_NO_MEMORY) }
        defer { table.value_free(tree) }
        return name.withCString { entry(store, $0, tree, result, error) }
    }

    /// Milliseconds on the host clock since the session started.
    public var elapsed: Int64 { (host.clock.now - startTime) / 1_000_000 }

    private func receive(_ event: sp_effect_event) {
        let hasChangedFlag = event.struct_size >= UInt32(MemoryLayout<sp_effect_event>.size)
        if event.kind == SP_EFFECT_EMITTED.rawValue {
            lastEmittedChanged = hasChangedFlag ? event.state_changed != 0 : nil
        }
        receive(EffectEventRecord(
            kind: EffectEventRecord.Kind(rawValue: event.kind) ?? .failed,
            effect: event.effect_id,
            label: event.label.map { String(cString: $0) },
            action: event.action.map { String(cString: $0) },
            message: event.message.map { String(cString: $0) },
            elapsedMilliseconds: elapsed
        ))
    }

    /// An effect event, from the plugin or from the worker that runs it.
    package func receive(_ record: EffectEventRecord) {
        onEvent?(.effect(record))
    }

    /// Whether the last emitted effect action changed the state, as the plugin said.
    private var lastEmittedChanged: Bool?
    /// Observed batches sent to the worker and not yet answered.
    var observedInFlight = 0

    private func applied(_ action: String) {
        // A stale state (after unobserved sends) cannot give a faithful diff: report no
        // diff then, and take "changed" from the plugin when it says.
        let fresh = try? read(diffing: !isStale)
        report(action, read: fresh, changes: fresh?.changes ?? [], changed: lastEmittedChanged)
        lastEmittedChanged = nil
    }

    func report(_ action: String, read fresh: StateRead?, changes: [StateChange], changed pluginSaid: Bool?) {
        if fresh == nil { isStale = true } // `:state` will say why it cannot be read
        onEvent?(.applied(action: action, changes: changes, changed: pluginSaid ?? !changes.isEmpty))
    }

    private static func session(_ userData: UnsafeMutableRawPointer?) -> Session {
        Unmanaged<Session>.fromOpaque(userData!).takeUnretainedValue()
    }

    private static let effectEvent: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_effect_event>?) -> Void = { userData, event in
        guard let event else { return }
        let args = Unchecked((userData, event.pointee))
        MainActor.assumeIsolated { session(args.value.0).receive(args.value.1) }
    }

    private static let actionApplied: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { userData, text in
        let action = text.map { String(cString: $0) } ?? "?"
        let userData = Unchecked(userData)
        MainActor.assumeIsolated { session(userData.value).applied(action) }
    }
}
