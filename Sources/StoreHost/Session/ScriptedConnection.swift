package import StoreValue

/// A store that lives in memory and runs a model written in Swift: what tests give a
/// `Session` — and so a `ShellCore` — when they need neither a plugin nor a process, as
/// SwiftNIO's `EmbeddedChannel` stands in for a network channel. It records every call
/// (`calls`), answers reads with the whole state, and lets a test play the model's effects
/// by hand (`emitEffect`, `applyFromEffect`).
@MainActor
package final class ScriptedConnection: StoreConnection {
    /// The model: applies an action to the state; returns whether the state changed, or
    /// throws the model's refusal.
    package typealias Update =
        @MainActor @Sendable (_ state: inout Value, _ action: String, _ arguments: [Value]) throws(SessionError) -> Bool

    /// A call the session made, in order.
    package enum Call: Equatable {
        case create
        case send(String, [Value])
        case replay(String, [Value])
        /// One request with these actions' updates.
        case replayBatch([String])
        case restore(Value)
        case read(whole: Bool)
        case stub(service: Int, stubbed: Bool)
        case destroy
    }

    package var onEvent: ((ConnectionEvent) -> Void)?
    package let callsAreRoundTrips: Bool
    package var readsDuringEvents: Bool { true }
    /// A scripted model whose calls are round trips stands for a model in a worker.
    package var containsCrashes: Bool { callsAreRoundTrips }
    /// The model's state.
    package private(set) var state: Value
    /// Every call so far.
    package private(set) var calls: [Call] = []
    /// While set, reads fail with it (a model whose state cannot be read, a worker gone).
    package var failingReads: SessionError?
    private let update: Update
    private let canRestore: Bool
    private var number: UInt64 = 0

    /// A store starting at `initial`, run by `update`. `callsAreRoundTrips` makes the shell
    /// treat it as a model in another process (it then sends larger time-travel batches).
    package init(initial: Value, callsAreRoundTrips: Bool = false, canRestore: Bool = true, update: @escaping Update) {
        self.state = initial
        self.callsAreRoundTrips = callsAreRoundTrips
        self.canRestore = canRestore
        self.update = update
    }

    package func create() throws(SessionError) -> StateUpdate {
        calls.append(.create)
        return whole()
    }

    package func send(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendSummary {
        calls.append(.send(action.name, arguments))
        return SendSummary(changed: try update(&state, action.name, arguments), effectsStarted: 0)
    }

    package func sendReadingState(_ action: ActionDescriptor, arguments: [Value]) throws(SessionError) -> SendOutcome {
        var outcome = SendOutcome(try send(action, arguments: arguments))
        calls.append(.read(whole: false))
        if let failingReads { outcome.stateError = failingReads.message } else { outcome.state = whole() }
        return outcome
    }

    package func effectsIdle() throws(SessionError) -> Bool? { nil }

    /// A scripted model declares no checks in code.
    package func check(_ index: Int) throws(SessionError) -> CheckVerdict {
        throw SessionError(message: "a scripted model has no checks in code")
    }

    package func takeCoverage() throws(SessionError) -> [UInt32] { [] }

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
        return .done(outcomes: outcomes, stateAfter: stateAfter ? whole() : nil)
    }

    package func finishBatch(_ ticket: BatchTicket) throws(SessionError) -> (
        outcomes: [Result<SendSummary, SessionError>], stateAfter: StateUpdate?
    ) {
        guard case .done(let outcomes, let stateAfter) = ticket else {
            throw SessionError(message: "not a batch of this store")
        }
        return (outcomes, stateAfter)
    }

    package func replay(_ name: String, arguments: [Value]) throws(SessionError) -> Bool {
        calls.append(.replay(name, arguments))
        return try update(&state, name, arguments)
    }

    package func replayBatch(_ actions: [(String, [Value])]) throws(SessionError) -> (
        changed: [Bool], error: SessionError?
    ) {
        calls.append(.replayBatch(actions.map(\.0)))
        var changed: [Bool] = []
        for (name, arguments) in actions {
            do {
                changed.append(try update(&state, name, arguments))
            } catch {
                return (changed, error)
            }
        }
        return (changed, nil)
    }

    package func restore(_ state: Value) throws(SessionError) -> Bool {
        calls.append(.restore(state))
        guard canRestore else { return false }
        self.state = state
        return true
    }

    package func read(whole: Bool) throws(SessionError) -> StateUpdate {
        calls.append(.read(whole: whole))
        if let failingReads { throw failingReads }
        return self.whole()
    }

    package func outOfStep() {}

    package func stub(service index: Int, _ script: StubScript?) throws(SessionError) {
        calls.append(.stub(service: index, stubbed: script != nil))
    }

    package func destroy() {
        calls.append(.destroy)
    }

    /// Plays an effect event of the model: started, emitted, finished, failed, cancelled.
    package func emitEffect(
        _ kind: EffectEventRecord.Kind, effect: UInt64, label: String? = nil, action: String? = nil,
        message: String? = nil
    ) {
        onEvent?(.effect(kind: kind, effect: effect, label: label, action: action, message: message))
    }

    /// Plays an effect's action: applies it as the model would, then reports it with the
    /// state after it, as a plugin does through `action_applied`.
    package func applyFromEffect(_ action: String, arguments: [Value] = []) throws(SessionError) {
        let changed = try update(&state, action, arguments)
        onEvent?(.applied(action: action, state: whole(), changed: changed))
    }

    private func whole() -> StateUpdate {
        number += 1
        return .whole(number: number, state: state)
    }
}

/// A model scripted in Swift, for tests: its schema, and a `ScriptedConnection` for each
/// store made of it (`latest` is the newest: the one a shell works with).
@MainActor
package final class ScriptedModel {
    /// The model, as a plugin's would be listed.
    package private(set) var descriptor: ModelDescriptor!
    /// The connections made, oldest first.
    package private(set) var connections: [ScriptedConnection] = []
    /// The newest connection.
    package var latest: ScriptedConnection? { connections.last }

    /// A model `plugin.name` with `actions`, each store starting at `initial` and run by
    /// `update`.
    package init(
        plugin: String, name: String, actions: [(name: String, params: [ParamDescriptor])],
        timeTravel: Bool = true, callsAreRoundTrips: Bool = false, initial: Value,
        update: @escaping ScriptedConnection.Update
    ) {
        descriptor = ModelDescriptor(
            plugin: plugin, name: name, doc: nil,
            actions: actions.enumerated().map {
                ActionDescriptor(
                    index: $0.offset, name: $0.element.name, doc: nil, params: $0.element.params, typed: nil)
            },
            services: [], timeTravel: timeTravel,
            scripted: { [weak self] in
                let connection = ScriptedConnection(
                    initial: initial, callsAreRoundTrips: callsAreRoundTrips, canRestore: timeTravel, update: update)
                self?.connections.append(connection)
                return connection
            }
        )
    }
}

extension PluginHost {
    /// Lists a plugin whose models are scripted in memory (tests): the shell finds and
    /// uses them as it does a loaded plugin's.
    @discardableResult
    package func addScripted(plugin name: String, version: String = "1.0.0", models: [ScriptedModel])
        throws(PluginError) -> LoadedPlugin
    {
        if let twin = plugins.first(where: { $0.name == name }) {
            throw .nameTaken(path: "(scripted)", name: name, loadedFrom: twin.path)
        }
        let plugin = LoadedPlugin(
            name: name, version: version, path: "(scripted \(name))", toolchain: nil, models: models.map(\.descriptor),
            context: nil, worker: nil)
        add(plugin)
        return plugin
    }
}
