import Foundation
import StoreValue

/// A plugin loaded in a worker process, seen from the shell: starts the worker, loads the
/// plugin there, routes the worker's events to the stores they concern, and keeps the
/// worker's timers on the shell's clock (so virtual time stays with the shell). When the
/// worker dies, `restart` starts another one on the same file.
@MainActor
package final class WorkerPlugin {
    /// The plugin file as the user named it (the worker resolves it the same way).
    package let path: String
    /// The host that loaded it; weak, as the plugin's models may outlive it at exit.
    private weak var host: PluginHost?
    /// The shell's clock, which the worker's timers run on.
    private let clock: any ShellClock
    package private(set) var process: WorkerProcess?
    /// What the worker reported when it loaded the plugin.
    package private(set) var registered: RegisteredPlugin?
    private var stores: [UInt32: Weak<WeakRoute<WorkerConnection>>] = [:]
    private var lastStore: UInt32 = 0
    /// The effects started and not ended in each store, by id: their labels.
    private var effects: [UInt32: [UInt64: String]] = [:]
    /// The worker's timer ids → the shell clock's.
    private var timers: [UInt64: UInt64] = [:]
    /// How the last of this plugin's workers that died ended, and its crash report
    /// (`:crash` shows it whole).
    package private(set) var lastLoss: WorkerLoss?
    /// Milliseconds it took the last worker to start and register its models.
    package private(set) var startMilliseconds: Double = 0

    /// The name its models go by when it was loaded as another (`:load PATH as NAME`).
    let alias: String?

    package init(host: PluginHost, path: String, alias: String? = nil) {
        self.host = host
        self.clock = host.clock
        self.path = path
        self.alias = alias
    }

    /// The plugin as a worker reported it after loading it.
    package struct RegisteredPlugin: Equatable {
        package var name: String
        package var version: String
        package var toolchain: String?
        package var resolvedPath: String
        package var models: [ModelSchema]
    }

    /// A model's schema, as it travels from the worker.
    package struct ModelSchema: Equatable {
        package var name: String
        package var doc: String?
        package var timeTravel: Bool
        package var actions: [(name: String, doc: String?, typed: Bool, params: [ParamDescriptor])]
        package var services: [(name: String, doc: String?, signature: String)]
        package var identityFields: [String]
        package var invariants: [StateCondition]
        package var checks: [ModelCheck]

        package static func == (a: ModelSchema, b: ModelSchema) -> Bool {
            a.name == b.name && a.doc == b.doc && a.timeTravel == b.timeTravel && a.identityFields == b.identityFields
                && a.invariants == b.invariants && a.checks == b.checks
                && a.actions.map(\.name) == b.actions.map(\.name) && a.actions.map(\.params) == b.actions.map(\.params)
                && a.services.map(\.name) == b.services.map(\.name)
                && a.services.map(\.signature) == b.services.map(\.signature)
        }
    }

    /// Starts a worker and loads the plugin in it. The old worker (if any) is stopped
    /// only when the new one has loaded the plugin. Throws what loading said.
    package func start() throws(PluginError) -> RegisteredPlugin {
        let began = DispatchTime.now().uptimeNanoseconds
        let fresh: WorkerProcess
        do {
            fresh = try WorkerProcess(
                executable: try WorkerPlugin.executable(),
                environment: WorkerPlugin.environment(deterministicWorld: host?.worldIsOn ?? false))
        } catch {
            throw .workerFailed(path: path, reason: error.description)
        }
        fresh.onStderr = { [weak self] text in self?.host?.workerOutput?(text) }
        fresh.onEvent = { [weak self] type, body in self?.handle(type, body) }
        var hello = requestBody()
        hello.u32(WorkerProtocol.version)
        hello.bool(clock is VirtualClock)
        hello.bool(host?.checksChanges ?? false)
        writeWorld(into: &hello)
        var load = requestBody()
        load.string(path)
        let registered: RegisteredPlugin
        do {
            var greeting = try fresh.request(.hello, hello.bytes, timeout: timeout, interrupted: interrupted).get()
            let version = try greeting.u32()
            guard version == WorkerProtocol.version else {
                throw PluginError.workerFailed(
                    path: path,
                    reason: "the worker speaks protocol version \(version), storesh \(WorkerProtocol.version)")
            }
            switch try fresh.request(.load, load.bytes, timeout: timeout, interrupted: interrupted) {
            case .failure(let refusal): throw PluginError.inWorker(message: refusal.message)
            case .success(var reader): registered = try Self.readRegistration(&reader)
            }
        } catch let error as PluginError {
            throw error
        } catch let loss as WorkerLoss {
            switch loss.cause {
            case .hung(let seconds):
                throw .workerFailed(
                    path: path,
                    reason:
                        "the plugin did not finish loading within \(WorkerLoss.seconds(seconds)); its worker was stopped (--action-timeout sets the limit)"
                )
            case .interrupted:
                throw .workerFailed(
                    path: path, reason: "interrupted while the plugin was loading; its worker was stopped")
            default:
                throw .workerFailed(path: path, reason: "the worker crashed while loading the plugin (\(loss))")
            }
        } catch let refusal as RemoteRefusal {
            throw .workerFailed(path: path, reason: refusal.message)
        } catch {
            throw .workerFailed(path: path, reason: "the worker's answer does not decode (\(error))")
        }
        if let loss = process?.loss { lastLoss = loss }
        process?.stop()
        abandonTimers()
        stores = [:]
        effects = [:]
        fresh.onLoss = { [weak self] loss in self?.lost(loss) }
        process = fresh
        self.registered = registered
        startMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6
        return registered
    }

    /// The models as descriptors the shell uses.
    package func descriptors(of registered: RegisteredPlugin) -> [ModelDescriptor] {
        registered.models.enumerated().map { index, schema in
            ModelDescriptor(
                plugin: alias ?? registered.name, name: schema.name, doc: schema.doc,
                actions: schema.actions.enumerated().map { position, action in
                    ActionDescriptor(
                        index: position, name: action.name, doc: action.doc, params: action.params, typed: nil,
                        isTyped: action.typed)
                },
                services: schema.services.map {
                    ServiceDescriptor(name: $0.name, doc: $0.doc, signature: $0.signature, defaultImplementation: nil)
                },
                identityFields: schema.identityFields, invariants: schema.invariants, checks: schema.checks,
                worker: self,
                indexInPlugin: index, timeTravel: schema.timeTravel
            )
        }
    }

    /// Seconds before a worker that does not answer counts as hung.
    private var timeout: Double? { host.map(\.actionTimeout) ?? 5 }

    /// Whether the user pressed Ctrl-C (asked while waiting for the worker).
    private var interrupted: () -> Bool { host?.takeInterrupt ?? { false } }

    /// A request's body, starting with the shell clock's time.
    func requestBody() -> WireWriter {
        var writer = WireWriter()
        writer.i64(clock.now)
        return writer
    }

    /// Sends a request; a worker that dies, hangs or is interrupted on the way is reported
    /// as the `SessionError` of `model` doing `what` (and stays dead until restarted).
    /// `timed: false` for what is not the plugin's action (a read of the state): no action
    /// timeout, only Ctrl-C.
    func call(
        _ type: WorkerProtocol.Request, _ body: WireWriter, model: String, doing what: @autoclosure () -> String,
        timed: Bool = true
    ) throws(SessionError) -> Result<WireReader, RemoteRefusal> {
        guard let process else { throw SessionError(message: "\(model): its worker is not running") }
        do {
            return try process.request(type, body.bytes, timeout: timed ? timeout : nil, interrupted: interrupted)
        } catch {
            abandonTimers()
            throw SessionError(lost: error, model: model, doing: what(), effects: effectsRunning)
        }
    }

    /// Sends a request without waiting for its answer (`wait(for:)` takes it).
    func send(_ type: WorkerProtocol.Request, _ body: WireWriter, model: String, doing what: String)
        throws(SessionError) -> WorkerProcess.Ticket
    {
        guard let process else { throw SessionError(message: "\(model): its worker is not running") }
        do {
            return try process.send(type, body.bytes)
        } catch {
            abandonTimers()
            throw SessionError(lost: error, model: model, doing: what, effects: effectsRunning)
        }
    }

    /// The answer to a request sent with `send`.
    func wait(for ticket: WorkerProcess.Ticket, model: String, doing what: String) throws(SessionError) -> Result<
        WireReader, RemoteRefusal
    > {
        do {
            // Asked of the worker the request went to: one lost since answers with its loss.
            return try ticket.process.wait(for: ticket, timeout: timeout, interrupted: interrupted)
        } catch {
            if ticket.process === process { abandonTimers() }
            throw SessionError(lost: error, model: model, doing: what, effects: effectsRunning)
        }
    }

    /// Sends a request whose answer does not matter.
    func post(_ type: WorkerProtocol.Request, _ body: WireWriter) {
        process?.post(type, body.bytes)
    }

    /// A reply that does not decode stops the worker (it is broken).
    func malformed(_ error: WireError, model: String, doing what: String) -> SessionError {
        guard let process else { return SessionError(message: "\(model): \(error)") }
        let loss = process.malformed(error)
        abandonTimers()
        return SessionError(lost: loss, model: model, doing: what, effects: effectsRunning)
    }

    func register(_ store: WeakRoute<WorkerConnection>) -> UInt32 {
        lastStore += 1
        stores[lastStore] = Weak(store)
        return lastStore
    }

    func unregister(_ id: UInt32) {
        stores[id] = nil
    }

    /// True while `process` is the worker that made a store.
    func isCurrent(_ process: WorkerProcess?) -> Bool { isLatest(process) && process?.loss == nil }

    /// Whether `process` is the plugin's latest worker, running or dead (not yet replaced).
    func isLatest(_ process: WorkerProcess?) -> Bool { process != nil && process === self.process }

    /// The worker died while nobody was waiting for it.
    private func lost(_ loss: WorkerLoss) {
        abandonTimers()
        host?.workerDied(self, loss)
    }

    /// A dead worker's timers will never fire.
    private func abandonTimers() {
        for timer in timers.values { clock.cancel(timer) }
        timers = [:]
    }

    /// Handles a message from the worker: as it arrives, or, for one kept in the answer
    /// to an observed batch, when the shell reaches the action that caused it.
    func handle(_ type: UInt8, _ body: [UInt8]) {
        var reader = WireReader(body)
        do {
            switch WorkerProtocol.Message(rawValue: type) {
            case .effect:
                let event = try reader.effectEvent()
                noteEffect(event.store, event.effect, kind: event.kind, label: event.label)
                stores[event.store]?.value?.target.receiveEffect(
                    kind: event.kind, effect: event.effect, label: event.label, action: event.action,
                    message: event.message)
            case .applied:
                let applied = try reader.appliedAction()
                stores[applied.store]?.value?.target.receiveApplied(
                    applied.action, state: applied.state, changed: applied.changed)
            case .wake:
                let timer = try reader.u64()
                let deadline = try reader.i64()
                timers[timer] = clock.wake(at: deadline) { [weak self] in self?.fire(timer) }
            case .answer:
                let timer = try reader.u64()
                let service = try reader.string()
                timers[timer] = clock.answer(from: service) { [weak self] in self?.fire(timer) }
            case .cancel:
                let timer = try reader.u64()
                if let mine = timers.removeValue(forKey: timer) { clock.cancel(mine) }
            case .log:
                let level = LogLevel(rawValue: Int32(truncatingIfNeeded: try reader.i64())) ?? .info
                host?.log?(level, try reader.string())
            case .stubCalled:
                let store = try reader.u32()
                let service = try reader.u32()
                stores[store]?.value?.target.stubCalled(service: Int(service))
            case .reply, nil:
                throw WireError(description: "unexpected message type \(type)")
            }
        } catch {
            if let process { lost(process.malformed(error as? WireError ?? WireError(description: "\(error)"))) }
        }
    }

    /// Keeps `effects` up to date with one effect event.
    private func noteEffect(_ store: UInt32, _ effect: UInt64, kind: UInt32, label: String?) {
        switch EffectEventRecord.Kind(rawValue: kind) {
        case .started: effects[store, default: [:]][effect] = label ?? "effect"
        case .finished, .failed, .cancelled: effects[store]?[effect] = nil
        default: break
        }
    }

    /// The effects running in this worker, as a crash names them ("#1 crashLater").
    private var effectsRunning: [String] {
        effects.keys.sorted().flatMap { store in
            (effects[store] ?? [:]).sorted { $0.key < $1.key }.map { "#\($0.key) \($0.value)" }
        }
    }

    /// Whether the worker's effect work for `store` can go on without the shell (request
    /// 14), nil when the plugin cannot say. A worker lost on the way is reported as the
    /// watcher reports one (a question must not swallow a crash: the effects it ran are
    /// failed, and the session recovered, as after `fire`).
    /// The world's setting as `hello` and `world` carry it: on (u8), seed (u64).
    private func writeWorld(into body: inout WireWriter) {
        body.bool(host?.worldIsOn ?? false)
        body.u64(host?.seed ?? 0)
    }

    /// Tells the worker the host's world setting (its entropy restarts from the seed).
    /// Without `waiting`, posted: the answer says nothing and the next request waits
    /// behind it (`storesh explore` reseeds for every fresh store, and a round trip each
    /// was a tenth of its time in a worker); a worker lost meanwhile is found by that
    /// request. Waiting (`:seed`), a lost worker is reported at once.
    func sendWorld(waiting: Bool = true) {
        guard let process, process.loss == nil else { return }
        var body = requestBody()
        writeWorld(into: &body)
        guard waiting else { return post(.world, body) }
        do {
            _ = try process.request(.world, body.bytes, timeout: timeout, interrupted: interrupted)
        } catch {
            lost(error)
        }
    }

    func effectsIdle(store: UInt32) -> Bool? {
        guard let process, process.loss == nil else { return nil }
        var body = requestBody()
        body.u32(store)
        do {
            guard
                case .success(var reply) = try process.request(
                    .effectsIdle, body.bytes, timeout: timeout, interrupted: interrupted),
                let answer = try? reply.u8(), answer != 2
            else { return nil }
            return answer == 1
        } catch {
            lost(error)
            return nil
        }
    }

    /// A worker timer fell due on the shell's clock: the worker runs its callback.
    private func fire(_ timer: UInt64) {
        timers[timer] = nil
        guard let process, process.loss == nil else { return }
        var body = requestBody()
        body.u64(timer)
        do {
            _ = try process.request(.fire, body.bytes, timeout: timeout, interrupted: interrupted)
        } catch {
            lost(error)
        }
    }

    nonisolated static func readRegistration(_ reader: inout WireReader) throws(WireError) -> RegisteredPlugin {
        try reader.registration()
    }
}
