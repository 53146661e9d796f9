package import CStorePlugin
package import StoreValue

/// A store of a model whose plugin is loaded in this process: each call goes straight to
/// the plugin's C entry points (typed actions through libffi). storesh uses it with
/// `--in-process`, and every worker process uses it for the stores it hosts.
@MainActor
package final class InProcessConnection: StoreConnection {
    package let model: ModelDescriptor
    package var onEvent: ((ConnectionEvent) -> Void)?
    package var callsAreRoundTrips: Bool { false }
    package var containsCrashes: Bool { false }
    package var readsDuringEvents: Bool { true }

    /// For the plugin's services table and the log; a store may outlive its host in
    /// tests and tools.
    weak var host: PluginHost?
    /// Service implementations passed to the store, in the model's declaration order.
    private var services: [sp_typed_entry]
    /// The stubs made for this store, by service name.
    private var stubs: [String: ServiceStub] = [:]
    private(set) var store: UnsafeMutableRawPointer?
    private let context: UnsafeMutablePointer<sp_store_context>
    private let servicePointers: UnsafeMutablePointer<sp_typed_entry?>
    /// The host's `readsChanges` when the store was made.
    let readsChanges: Bool
    /// With the host's `checksChanges` (`--check-changes`): the state as last handed out,
    /// to which the plugin's changes are applied and then compared with a whole snapshot.
    var checkedState: Value?

    /// The number of the last state update handed out (whole or changes).
    var lastUpdate: UInt64 = 0
    /// True while the plugin's last report is the last update handed out, so the plugin
    /// can be asked for what changed since (`snapshot_changes_encoded` or
    /// `snapshot_changes`) instead of for all of it.
    var pluginBaseline = false
    /// The plugin had no changes to report (`snapshot_changes` said NULL, or its encoded
    /// form a code other than SP_OK, as the SDK does
    /// for a small state) and the whole state it gave instead was small: reads go straight
    /// to a snapshot, one call each, until a snapshot is big again. Only the cost changes:
    /// a snapshot is always right.
    var snapshotsSmallState = false
    /// The plugin once told what changed in a small state: it is always asked (it may
    /// answer what a snapshot cannot, and a test plugin may say anything).
    var reportsSmallChanges = false
    /// The last whole state read was small (changes the plugin reports then are changes of
    /// a small state).
    var lastWholeWasSmall = false
    /// Fewer values than this make a small state (the SDK's change tracker's bound).
    static let smallState = 64
    /// The bytes of the last `snapshot_encoded`, kept to reuse their memory.
    @exclusivity(unchecked) package internal(set) var encodedState: [UInt8] = []
    /// The bytes of the last `snapshot_changes_encoded`, kept to reuse their memory.
    var encodedChanges: [UInt8] = []
    /// The error sends and replays pass: zero-filled without a 1 KB memset per call.
    private let sendError = ReusableError()
    /// Whether the last emitted effect action changed the state, as the plugin said.
    private var lastEmittedChanged: Bool?

    /// A connection to a new store of `model`, with `overrides` in place of the plugin's
    /// own services; `create` makes the store.
    package init(model: ModelDescriptor, host: PluginHost, services overrides: [String: sp_typed_entry] = [:]) {
        self.model = model
        self.host = host
        self.readsChanges = host.readsChanges
        self.checkedState = host.checksChanges ? .null : nil
        services = model.services.compactMap { overrides[$0.name] ?? $0.defaultImplementation }
        servicePointers = .allocate(capacity: max(1, services.count))
        for (index, service) in services.enumerated() { servicePointers[index] = service }
        context = .allocate(capacity: 1)
        context.initialize(
            to: sp_store_context(
                struct_size: UInt32(MemoryLayout<sp_store_context>.size),
                user_data: nil,
                effect_event: InProcessConnection.effectEvent,
                action_applied: InProcessConnection.actionApplied,
                services: UnsafePointer(servicePointers),
                service_count: UInt32(services.count)
            ))
    }

    isolated deinit {
        if let store { model.destroy(store) }
        context.deallocate()
        servicePointers.deallocate()
    }

    package func create() throws(SessionError) -> StateUpdate {
        context.pointee.user_data = Unmanaged.passUnretained(self).toOpaque()
        var error = sp_error.empty()
        var handle: UnsafeMutableRawPointer?
        let status = model.create(model.modelData, context, &handle, &error)
        Heartbeat.beat()
        guard status == Int32(SP_OK), let handle else {
            throw SessionError(
                message: "\(model.qualifiedName): could not create a store (\(ErrorCode.name(status))): \(error.text)")
        }
        store = handle
        return try read(whole: true)
    }

    package func destroy() {
        guard let store else { return }
        self.store = nil
        model.destroy(store)
        Heartbeat.beat()
    }

    package func send(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendSummary {
        guard let store else { throw SessionError(message: "the store is gone") }
        let result = try dispatching(action.name) { result, error in
            if let typed = action.typed {
                return FFICall.call(typed, store: store, arguments: arguments, result: result, error: error)
            }
            return callWithValueTree(
                model.dispatch, action.name, arguments: arguments, store: store, result: result, error: error)
        }
        return SendSummary(changed: result.state_changed != 0, effectsStarted: Int(result.effects_started))
    }

    package func sendReadingState(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendOutcome {
        let summary = try send(action, arguments: arguments)
        // The state is read after every action whose result is watched, even one the
        // plugin says changed nothing: what it reports is then checked all the same. The
        // outcome is made once, with its state (not made, then changed: a copy).
        do {
            return SendOutcome(
                changed: summary.changed, effectsStarted: summary.effectsStarted, state: try read(whole: false))
        } catch {
            return SendOutcome(
                changed: summary.changed, effectsStarted: summary.effectsStarted, stateError: error.message)
        }
    }

    package func effectsIdle() throws(SessionError) -> Bool? {
        guard let store else { throw SessionError(message: "the store is gone") }
        defer { Heartbeat.beat() }
        return model.effectsIdle.map { $0(store) != 0 }
    }

    package func takeCoverage() throws(SessionError) -> [UInt32] {
        PluginHost.inProcessWorld?.takeCoverage() ?? []
    }

    package func check(_ index: Int) throws(SessionError) -> CheckVerdict {
        guard let store else { throw SessionError(message: "the store is gone") }
        guard let check = model.check, model.checks.indices.contains(index) else {
            throw SessionError(message: "\(model.qualifiedName) has no check #\(index)")
        }
        var holds: Int32 = 1
        var error = sp_error.empty()
        let status = check(store, UInt32(index), &holds, &error)
        Heartbeat.beat()
        let message = error.written
        guard status == Int32(SP_OK) else {
            throw SessionError(
                message: "check \"\(model.checks[index].name)\" could not be evaluated: \(message ?? "error \(status)")"
            )
        }
        return CheckVerdict(holds: holds != 0, message: holds != 0 ? nil : message)
    }

    /// Sends through the plugin's value-tree entry point even when the action has a typed
    /// one (benchmarks compare the two); the state is not read. Not part of
    /// `StoreConnection`: only a model in this process has two entry points to choose from.
    package func sendThroughValueTree(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError)
        -> SendSummary
    {
        guard let store else { throw SessionError(message: "the store is gone") }
        let result = try dispatching(action.name) { result, error in
            callWithValueTree(
                model.dispatch, action.name, arguments: arguments, store: store, result: result, error: error)
        }
        return SendSummary(changed: result.state_changed != 0, effectsStarted: Int(result.effects_started))
    }

    /// Makes one dispatch-shaped call (a send or a replay) with a fresh result and the
    /// reused zero-filled error; a failure is an error naming the action `name`. Always
    /// inlined: called through its two closures, a send was 30 % slower.
    @inline(__always)
    private func dispatching(
        _ name: String,
        _ call: (UnsafeMutablePointer<sp_dispatch_result>, UnsafeMutablePointer<sp_error>) -> Int32
    ) throws(SessionError) -> sp_dispatch_result {
        var result = sp_dispatch_result.empty()
        let outcome = sendError.calling { error in call(&result, error) }
        Heartbeat.beat()
        if let message = outcome.message {
            throw SessionError(message: "\(name): \(ErrorCode.explain(outcome.status, message))")
        }
        return result
    }

    /// Runs the batch at once, one action after another.
    package func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool)
        throws(SessionError) -> BatchTicket
    {
        var outcomes: [Result<SendSummary, SessionError>] = []
        for (action, arguments) in actions {
            do {
                let outcome = try send(action, arguments: arguments)
                outcomes.append(.success(outcome))
            } catch {
                outcomes.append(.failure(error))
                if stopAtFailure { break }
            }
        }
        return .done(outcomes: outcomes, stateAfter: stateAfter ? try? read(whole: false) : nil)
    }

    package func finishBatch(_ ticket: BatchTicket) throws(SessionError) -> (
        outcomes: [Result<SendSummary, SessionError>], stateAfter: StateUpdate?
    ) {
        guard case .done(let outcomes, let stateAfter) = ticket else {
            throw SessionError(
                message: "\(model.qualifiedName): a batch sent elsewhere cannot be answered in this process")
        }
        return (outcomes, stateAfter)
    }

    package func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        guard let store, let replay = model.replay else {
            throw SessionError(
                message: "\(model.qualifiedName) cannot replay actions (its plugin has no replay entry point)")
        }
        let result = try dispatching(name) { result, error in
            callWithValueTree(replay, name, arguments: arguments, store: store, result: result, error: error)
        }
        return result.state_changed != 0
    }

    package func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (
        changed: [Bool], error: SessionError?
    ) {
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

    package func restore(_ state: Value) throws(SessionError) -> Bool {
        guard let store, let restore = model.restore else { return false }
        let table = ValueFunctions.table
        guard let tree = state.build(with: table) else { throw SessionError(message: "out of memory") }
        defer { table.value_free(tree) }
        var error = sp_error.empty()
        let status = restore(store, tree, &error)
        guard status == Int32(SP_OK) else {
            throw SessionError(message: "\(model.qualifiedName): cannot restore a snapshot: \(error.text)")
        }
        // The restored state is the session's; what the plugin reports next is whole.
        pluginBaseline = false
        return true
    }

    package func stub(service index: Int, _ script: StubScript?) throws(SessionError) {
        let service = model.services[index]
        var implementation = service.defaultImplementation!
        stubs[service.name] = nil
        if let script {
            guard let context = host?.plugins.first(where: { $0.name == model.plugin })?.context else {
                throw SessionError(message: "the plugin of \(model.qualifiedName) is not loaded")
            }
            do {
                let stub = try ServiceStub(script: script, context: context)
                stubs[service.name] = stub
                implementation = stub.entry!
            } catch {
                throw SessionError(message: error.message)
            }
        }
        // The plugin reads the service array at each call: the change takes effect at once.
        services[index] = implementation
        servicePointers[index] = implementation
    }

    /// The stub made for the service `name`, if any (a worker reports its calls).
    package func stub(named name: String) -> ServiceStub? { stubs[name] }

    /// Calls `dispatch` or `replay` (same C signature) with the arguments as a value-tree
    /// array built with the host's value functions, and frees it afterwards.
    private func callWithValueTree(
        _ entry:
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
                UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
            ) -> Int32,
        _ name: String, arguments: [Value], store: UnsafeMutableRawPointer,
        result: UnsafeMutablePointer<sp_dispatch_result>, error: UnsafeMutablePointer<sp_error>
    ) -> Int32 {
        let table = ValueFunctions.table
        guard let tree = Value.array(arguments).build(with: table) else { return Int32(SP_ERR_NO_MEMORY) }
        defer { table.value_free(tree) }
        return name.withCString { entry(store, $0, tree, result, error) }
    }

    // MARK: Events from the plugin

    private func receive(_ event: sp_effect_event) {
        let hasChangedFlag = event.struct_size >= UInt32(MemoryLayout<sp_effect_event>.size)
        if event.kind == SP_EFFECT_EMITTED.rawValue {
            lastEmittedChanged = hasChangedFlag ? event.state_changed != 0 : nil
        }
        onEvent?(
            .effect(
                kind: EffectEventRecord.Kind(rawValue: event.kind) ?? .failed,
                effect: event.effect_id,
                label: event.label.map { String(cString: $0) },
                action: event.action.map { String(cString: $0) },
                message: event.message.map { String(cString: $0) }
            ))
    }

    private func applied(_ action: String) {
        let changed = lastEmittedChanged
        lastEmittedChanged = nil
        onEvent?(.applied(action: action, state: try? read(whole: false), changed: changed))
    }

    private static func connection(_ userData: UnsafeMutableRawPointer?) -> InProcessConnection {
        Unmanaged<InProcessConnection>.fromOpaque(userData!).takeUnretainedValue()
    }

    private static let effectEvent: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_effect_event>?) -> Void =
        { userData, event in
            guard let event else { return }
            let args = Unchecked((userData, event.pointee))
            MainActor.assumeIsolated { connection(args.value.0).receive(args.value.1) }
        }

    private static let actionApplied: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = {
        userData, text in
        let action = text.map { String(cString: $0) } ?? "?"
        let userData = Unchecked(userData)
        MainActor.assumeIsolated { connection(userData.value).applied(action) }
    }
}
