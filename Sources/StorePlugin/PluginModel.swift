import CStorePlugin
import StoreRuntime

/// A model ready to be registered with the host: its schema, and how to make stores.
/// Build one with `PluginModel.observable(…)` or `PluginModel.arboreal(…)`.
public struct PluginModel: @unchecked Sendable {
    /// The model's name as users load it (`:load counter`).
    public let name: String
    /// A line about the model, shown by `:models`.
    public let doc: String
    let actions: [(name: String, doc: String, params: [Param])]
    let services: [ServiceDeclaration]
    let makeStore: @MainActor (StoreContext) throws(PluginFailure) -> PluginStore
    /// Fields that identify the elements of the state's lists (see `identified(by:)`).
    var identityFields: [String] = []
    /// What must hold of the state after every action (see `invariants(_:)`).
    var invariants: [String] = []
    /// Properties written in Swift (see `invariant(_:_:)` and `postcondition(_:_:)`).
    var checks: [CodeCheck] = []
    /// The state and action types the checks' closures must take: the model's state (an
    /// Arboreal model's shown `State`) and its action.
    let stateType: Any.Type
    let actionType: Any.Type
    /// Checks declared with the wrong types, said at registration.
    var checkProblems: [String] = []

    @usableFromInline
    init(
        name: String, doc: String, actions: [(name: String, doc: String, params: [Param])],
        services: [ServiceDeclaration], stateType: Any.Type, actionType: Any.Type,
        makeStore: @escaping @MainActor (StoreContext) throws(PluginFailure) -> PluginStore
    ) {
        self.name = name
        self.doc = doc
        self.actions = actions
        self.services = services
        self.stateType = stateType
        self.actionType = actionType
        self.makeStore = makeStore
    }
}

extension PluginModel {
    /// The model with the fields that identify the elements of its state's lists, tried
    /// in order before `id` (which always counts): a list of `Line`s keyed by `sku` is
    /// then diffed by sku (moves, inserts, removes) and its elements named by it in paths,
    /// `lines["A-1"].quantity`, as lists of records with an `id` are.
    public func identified(by fields: String...) -> PluginModel {
        var model = self
        model.identityFields = fields
        return model
    }
}

extension PluginModel {
    /// The model with checks that must hold of its state after every action, each
    /// `PATH OP VALUE` as storesh's `:expect` reads it (OP one of `==`, `!=`, `<`, `<=`,
    /// `>`, `>=`): `.invariants("balance >= 0", "items[0].quantity > 0")`. `storesh explore`
    /// checks them after every step with no flags; a path that names nothing in a state
    /// (the first item of an empty list) holds there. A check that does not read fails
    /// the plugin's registration, naming it.
    public func invariants(_ checks: String...) -> PluginModel {
        var model = self
        model.invariants = checks
        return model
    }
}

/// An error to report to the host: an ABI code and a message.
@usableFromInline
struct PluginFailure: Error {
    @usableFromInline let code: Int32
    @usableFromInline let message: String

    @usableFromInline init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    @usableFromInline static func badArguments(_ message: String) -> PluginFailure {
        .init(code: Int32(SP_ERR_BAD_ARGUMENTS), message: message)
    }
    @usableFromInline static func unknownAction(_ name: String) -> PluginFailure {
        .init(code: Int32(SP_ERR_UNKNOWN_ACTION), message: "no action named '\(name)'")
    }
}

/// What dispatching one action did.
@usableFromInline
struct DispatchOutcome {
    @usableFromInline let stateChanged: Bool
    @usableFromInline let effectsStarted: Int

    @usableFromInline init(stateChanged: Bool, effectsStarted: Int) {
        self.stateChanged = stateChanged
        self.effectsStarted = effectsStarted
    }
}

/// One store, as the C trampolines see it: closures made where the model's type is
/// known (in the plugin's own module, through `@inlinable` adapters), so the hot path
/// runs code specialized for the model instead of generic code.
@usableFromInline
@MainActor
struct PluginStore {
    @usableFromInline let dispatch:
        @MainActor (_ action: Int, _ arguments: [Value]) throws(PluginFailure) -> DispatchOutcome
    @usableFromInline let snapshot: @MainActor () throws -> Value
    @usableFromInline let dispose: @MainActor () -> Void
    /// The update alone, effects dropped (time travel).
    @usableFromInline let replay:
        @MainActor (_ action: Int, _ arguments: [Value]) throws(PluginFailure) -> DispatchOutcome
    /// Replaces the state with a snapshot; nil when the model cannot be decoded.
    @usableFromInline let restore: (@MainActor (Value) throws(PluginFailure) -> Void)?
    /// What changed since the last snapshot or call (nil: take a snapshot); nil when the
    /// model cannot tell.
    @usableFromInline let changes: (@MainActor () throws -> [StatePatch]?)?
    /// The state's wire encoding (what `snapshot` gives, as `snapshot_encoded` writes it),
    /// valid until the store's next call; nil when the model cannot write it without the
    /// value tree (take `snapshot` then). Nil for models that never can.
    @usableFromInline let encodedSnapshot: (@MainActor () -> UnsafeRawBufferPointer?)?
    /// What checks in code see (`CodeCheck`): the state now, and the last action the
    /// store dispatched with the state before it (nil: none, or it was refused, or a
    /// replay or restore came since).
    @usableFromInline let checked: @MainActor () -> (state: Any, step: CodeCheck.Step?)

    @usableFromInline
    init(
        dispatch: @escaping @MainActor (Int, [Value]) throws(PluginFailure) -> DispatchOutcome,
        snapshot: @escaping @MainActor () throws -> Value,
        dispose: @escaping @MainActor () -> Void,
        replay: @escaping @MainActor (Int, [Value]) throws(PluginFailure) -> DispatchOutcome,
        restore: (@MainActor (Value) throws(PluginFailure) -> Void)?,
        changes: (@MainActor () throws -> [StatePatch]?)? = nil,
        encodedSnapshot: (@MainActor () -> UnsafeRawBufferPointer?)? = nil,
        checked: @escaping @MainActor () -> (state: Any, step: CodeCheck.Step?)
    ) {
        self.dispatch = dispatch
        self.snapshot = snapshot
        self.dispose = dispose
        self.replay = replay
        self.restore = restore
        self.changes = changes
        self.encodedSnapshot = encodedSnapshot
        self.checked = checked
    }
}

/// The host's per-store callbacks and the services it passed (`sp_store_context`).
@usableFromInline
@MainActor
final class StoreContext {
    private let context: UnsafePointer<sp_store_context>
    /// Whether the store keeps its last action and the state before it: only for a model
    /// with postconditions in code (`CodeCheck.Step`), which read them.
    @usableFromInline var recordsSteps = false
    let serviceNames: [String]
    /// The host table the store's model was registered with.
    let services: HostServices
    /// While an effect's action is applied: the events its update caused (effects it
    /// started or cancelled), reported after the action itself (`effectAction`).
    private var heldEvents: [EffectEvent]?

    init(_ context: UnsafePointer<sp_store_context>, serviceNames: [String], services: HostServices) {
        self.context = context
        self.serviceNames = serviceNames
        self.services = services
    }

    /// The implementation the host passed for `name`, as a raw function pointer.
    func service(_ name: String) -> UnsafeRawPointer? {
        guard let index = serviceNames.firstIndex(of: name), index < Int(context.pointee.service_count),
            let list = context.pointee.services, let entry = list[index]
        else { return nil }
        return unsafeBitCast(entry, to: UnsafeRawPointer.self)
    }

    func report(
        _ kind: sp_effect_kind, effect: UInt64, label: String? = nil, action: String? = nil, message: String? = nil,
        changed: Bool = false
    ) {
        guard let callback = context.pointee.effect_event else { return }
        withOptionalCString(label) { label in
            withOptionalCString(action) { action in
                withOptionalCString(message) { message in
                    var event = sp_effect_event(
                        struct_size: UInt32(MemoryLayout<sp_effect_event>.size), kind: kind.rawValue,
                        effect_id: effect, label: label, action: action, message: message,
                        state_changed: changed ? 1 : 0)
                    callback(context.pointee.user_data, &event)
                }
            }
        }
    }

    /// Reports a store's effect event. `dispatching` is the action the host is sending,
    /// if any: it labels the effects that action starts. Returns true for a start.
    func forward(_ event: EffectEvent, dispatching: String?) -> Bool {
        if case .emitted = event {
            heldEvents = []
            return false
        }
        if heldEvents != nil {
            heldEvents?.append(event)
            return false
        }
        switch event {
        case .started(let id, let cancelID):
            report(SP_EFFECT_STARTED, effect: id, label: dispatching ?? cancelID)
            return true
        case .emitted:
            break  // reported by `effectAction`, with the action in shell syntax
        case .finished(let id):
            report(SP_EFFECT_FINISHED, effect: id)
        case .cancelled(let id):
            report(SP_EFFECT_CANCELLED, effect: id)
        }
        return false
    }

    /// Reports an action an effect sent, once the store has applied it; then what its
    /// update started or cancelled, the effects it started labelled with its name. So an
    /// effect's value reads, in order: emitted, the state change, the effects it started,
    /// and (later) the effect's own end (docs/ARCHITECTURE.md, "The order of events").
    func effectAction(_ effect: UInt64, _ action: Any, changed: Bool) {
        let text = ActionText.render(action)
        report(SP_EFFECT_EMITTED, effect: effect, action: text, changed: changed)
        applied(text)
        let held = heldEvents ?? []
        heldEvents = nil
        let name = String(text.prefix { $0 != " " })
        for event in held { _ = forward(event, dispatching: name) }
    }

    func applied(_ action: String) {
        guard let callback = context.pointee.action_applied else { return }
        action.withCString { callback(context.pointee.user_data, $0) }
    }
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
