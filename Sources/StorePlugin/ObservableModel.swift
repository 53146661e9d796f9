import CStorePlugin
public import ObservableStore

extension PluginModel {
    /// Exports an ObservableStore model. Its state is snapshotted with `Encodable`; its
    /// actions are built from `actions` (see `ActionSchema`); `environment` makes the
    /// model's environment from what the host provides (clock, scheduler, services).
    @inlinable
    public static func observable<Model: ModelProtocol & Encodable>(
        _ name: String,
        doc: String,
        initial: @escaping @MainActor () -> Model,
        actions: [ActionSchema<Model.Action>],
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel {
        PluginModel(
            name: name, doc: doc,
            actions: actions.map { ($0.name, $0.doc, $0.params) },
            services: services, stateType: Model.self, actionType: Model.Action.self,
            makeStore: { context throws(PluginFailure) in
                let box = ObservableStoreBox(
                    store: Store(state: initial(), environment: environment(PluginEnvironment(context: context))),
                    actions: actions, context: context
                )
                var restore: (@MainActor (Value) throws(PluginFailure) -> Void)?
                if box.canRestore {
                    restore = { value throws(PluginFailure) in try box.restore(value) }
                }
                return PluginStore(
                    dispatch: { index, arguments throws(PluginFailure) in
                        try box.dispatch(action: index, arguments: arguments)
                    },
                    snapshot: { try box.snapshot() },
                    dispose: { box.dispose() },
                    replay: { index, arguments throws(PluginFailure) in
                        try box.replay(action: index, arguments: arguments)
                    },
                    restore: restore,
                    changes: { try box.changes() },
                    encodedSnapshot: { box.encodedSnapshot() },
                    checked: { box.checked() }
                )
            }
        )
    }
}

/// An ObservableStore `Store` behind the ABI: decodes actions, counts the effects each
/// starts, reports effect events and the actions effects apply.
@usableFromInline
@MainActor
final class ObservableStoreBox<Model: ModelProtocol & Encodable>: DiagnosticsSource {
    @exclusivity(unchecked) @usableFromInline var store: Store<Model>
    /// The state replays and restores have built, not yet in a store (see `replay`).
    @exclusivity(unchecked) @usableFromInline var pending: Model?
    @usableFromInline let actions: [ActionSchema<Model.Action>]
    /// Actions without parameters, decoded once, by action index.
    @exclusivity(unchecked) @usableFromInline var constants: [Model.Action?]
    @usableFromInline let context: StoreContext
    /// The state as last reported to the host, to report only what changed since.
    @usableFromInline let tracker = ChangeTracker(rootType: "\(Model.self)")
    @exclusivity(unchecked) @usableFromInline var dispatching: String?
    @exclusivity(unchecked) @usableFromInline var effectsStarted = 0
    /// The last action dispatched and the state before it, for postconditions in code
    /// (kept only when the model has some: `StoreContext.recordsSteps`).
    @usableFromInline var lastStep: (old: Model, action: Model.Action)?

    // Unchecked exclusivity on the fields read per dispatch: the box lives on the main
    // actor, and no access to them spans a call (an effect event during `send` reads
    // and counts, it never holds an access open).

    @usableFromInline
    init(store: Store<Model>, actions: [ActionSchema<Model.Action>], context: StoreContext) {
        self.store = store
        self.actions = actions
        self.constants = Array(repeating: nil, count: actions.count)
        self.context = context
        wire(store)
        DiagnosticsRoute.install()
    }

    private func wire(_ store: Store<Model>) {
        store.onEffectEvent = { [unowned self] event in
            // An effect's action is about to be applied: remember the state it starts from.
            if case .emitted = event {
                self.beforeEffectAction = self.store.state
                DiagnosticsRoute.collectForEffectAction()
            }
            if self.context.forward(event, dispatching: self.dispatching), self.dispatching != nil {
                self.effectsStarted += 1
            }
        }
        store.onEffectAction = { [unowned self] effect, action in
            let changed = self.beforeEffectAction.map { $0 != self.store.state } ?? true
            self.beforeEffectAction = nil
            self.context.effectAction(effect, action, changed: changed)
            DiagnosticsRoute.showEffectReports(self.context, action: ActionText.render(action))
        }
    }

    /// The state just before an effect's action, to tell whether it changed anything.
    private var beforeEffectAction: Model?

    /// Time travel: runs only the update function, so no effect starts. The states it
    /// builds are kept aside and put into a new store (releasing the old one cancels its
    /// effects) only when the store is next used, so a jump of many actions costs one store.
    @inlinable
    func replay(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome {
        guard actions.indices.contains(index) else { throw .unknownAction("#\(index)") }
        let action = try decode(index, arguments)
        let current = pending ?? store.state
        let next = Model.update(state: current, action: action, environment: store.environment).state
        pending = next
        lastStep = nil
        return DispatchOutcome(stateChanged: next != current, effectsStarted: 0)
    }

    /// Whether `restore` can rebuild a state from a snapshot: the model is Decodable, and
    /// (for glue `storesh-glue` wrote) every stored property is. Otherwise the host replays.
    @usableFromInline var canRestore: Bool {
        Model.self is any Decodable.Type && ((Model.self as? any GeneratedModelFacts.Type)?.generatedRestorable ?? true)
    }

    @usableFromInline
    func restore(_ value: Value) throws(PluginFailure) {
        guard let type = Model.self as? any Decodable.Type else {
            throw PluginFailure(
                code: Int32(SP_ERR_REJECTED),
                message: "\(Model.self) is not Decodable, so it cannot be restored from a snapshot")
        }
        lastStep = nil
        do {
            pending = try Self.decode(type, from: value)
        } catch {
            throw PluginFailure(
                code: Int32(SP_ERR_BAD_ARGUMENTS), message: "cannot restore \(Model.self): \(describe(error))")
        }
        // storeplugin.h: a restore cancels the effects in flight. Left to the store's
        // release at the next action, they could still answer into the state jumped to.
        store.cancelAllEffects()
    }

    private static func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> Model {
        try ValueDecoder().decode(T.self, from: value) as! Model
    }

    /// Moves a replayed or restored state into a new store.
    @usableFromInline
    func commit() {
        guard let state = pending else { return }
        pending = nil
        store.onEffectEvent = nil
        store.onEffectAction = nil
        let fresh = Store(state: state, environment: store.environment)
        wire(fresh)
        store = fresh
    }

    @inlinable
    func dispatch(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome {
        if pending != nil { commit() }
        lastStep = nil
        guard actions.indices.contains(index) else { throw .unknownAction("#\(index)") }
        let action = try decode(index, arguments)
        let before = store.state
        if context.recordsSteps { lastStep = (before, action) }
        dispatching = actions[index].name
        effectsStarted = 0
        DiagnosticsRoute.current = .init(source: self, index: index, arguments: arguments)
        store.send(action)
        DiagnosticsRoute.current = nil
        dispatching = nil
        return DispatchOutcome(stateChanged: store.state != before, effectsStarted: effectsStarted)
    }

    @usableFromInline
    func diagnosedAction(at index: Int) -> (context: StoreContext, name: String, params: [Param]) {
        (context, actions[index].name, actions[index].params)
    }

    @inlinable
    func decode(_ index: Int, _ arguments: [Value]) throws(PluginFailure) -> Model.Action {
        if let constant = constants[index] { return constant }
        let schema = actions[index]
        do {
            let action = try schema.make(arguments)
            if schema.params.isEmpty { constants[index] = action }
            return action
        } catch {
            throw .badArguments("\(schema.name): \(describe(error))")
        }
    }

    // Inlinable, as the state is read after every shown action: the plugin's copy is
    // specialized for its model, with no generic metadata looked up per read.
    @inlinable
    func snapshot() throws -> Value {
        if pending != nil { commit() }
        return try tracker.snapshot(of: store.state)
    }

    /// The state's wire encoding, written straight from `Encodable` when it is small (see
    /// `ChangeTracker.encodeSnapshot`); nil when `snapshot` must build the value tree.
    @inlinable
    func encodedSnapshot() -> UnsafeRawBufferPointer? {
        if pending != nil { commit() }
        return tracker.encodeSnapshot(of: store.state) ? tracker.encodedSnapshot : nil
    }

    /// What changed since the last snapshot or call, as patches; nil when there was none.
    @inlinable
    func changes() throws -> [StatePatch]? {
        if pending != nil { commit() }
        return try tracker.changes(of: store.state)
    }

    /// What checks in code see: the state now, and the last step.
    @usableFromInline
    func checked() -> (state: Any, step: CodeCheck.Step?) {
        if pending != nil { commit() }
        return (store.state, lastStep.map { CodeCheck.Step(old: $0.old, action: $0.action) })
    }

    @usableFromInline
    func dispose() {
        store.onEffectEvent = nil
        store.onEffectAction = nil
    }
}

extension Value {
    /// The same record with its type name set.
    func named(_ type: String) -> Value {
        if case .record(_, let fields) = self { return .record(type: type, fields: fields) }
        return self
    }
}

/// A decoding error in words a user can act on.
@usableFromInline
func describe(_ error: any Error) -> String {
    switch error as? DecodingError {
    case .dataCorrupted(let context):
        return unknownRawValue(context.debugDescription) + at(context.codingPath)
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return context.debugDescription + at(context.codingPath)
    case .keyNotFound(let key, let context):
        return "missing \(key.stringValue)" + at(context.codingPath)
    default:
        return "\(error)"
    }
}

/// The standard library's "Cannot initialize Shipping from invalid String value bogus"
/// (a raw-value enum that is not `CaseIterable`, so the host could not check it against the
/// cases first) as what to do about it; any other text as it is.
private func unknownRawValue(_ text: String) -> String {
    let prefix = "Cannot initialize "
    guard text.hasPrefix(prefix), let from = text.range(of: " from invalid "),
        let value = text.range(of: " value ", range: from.upperBound..<text.endIndex)
    else { return text }
    let type = text[text.index(text.startIndex, offsetBy: prefix.count)..<from.lowerBound]
    let raw = text[value.upperBound...]
    return
        "\(raw) is not a \(type) value; storesh cannot list \(type)'s values: declare it CaseIterable and :actions, :help, completion and errors show them"
}

private func at(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "" : " (at \(path.map(\.stringValue).joined(separator: ".")))"
}
