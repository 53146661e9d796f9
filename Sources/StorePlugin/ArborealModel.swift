public import Arboreal
import CStorePlugin

extension PluginModel {
    /// Exports an Arboreal model. Reference models are not `Encodable` by synthesis, so
    /// `state` says what to show of one; `environment` makes the model's environment.
    public static func arboreal<Model: ArborealModel, State: Encodable>(
        _ name: String,
        doc: String,
        initial: @escaping @MainActor () -> Model,
        state: @escaping @MainActor (Model) -> State,
        actions: [ActionSchema<Model.Action>],
        services: [ServiceDeclaration] = [],
        environment: @escaping @MainActor (PluginEnvironment) -> Model.Environment
    ) -> PluginModel {
        PluginModel(
            name: name, doc: doc,
            actions: actions.map { ($0.name, $0.doc, $0.params) },
            services: services, stateType: State.self, actionType: Model.Action.self,
            makeStore: { context throws(PluginFailure) in
                let box = ArborealStoreBox(
                    model: initial(), environment: environment(PluginEnvironment(context: context)),
                    state: state, actions: actions, context: context
                )
                return PluginStore(
                    dispatch: { index, arguments throws(PluginFailure) in
                        try box.dispatch(action: index, arguments: arguments)
                    },
                    snapshot: { try box.snapshot() },
                    dispose: { box.dispose() },
                    replay: { index, arguments throws(PluginFailure) in
                        try box.replay(action: index, arguments: arguments)
                    },
                    restore: nil,  // a reference model has no snapshot to decode from: the host replays from the start
                    checked: { box.checked() }
                )
            }
        )
    }
}

/// An Arboreal store behind the ABI.
@MainActor
final class ArborealStoreBox<Model: ArborealModel, State: Encodable> {
    private let store: Arboreal.Store<Model>
    private let state: (Model) -> State
    private let actions: [ActionSchema<Model.Action>]
    private let context: StoreContext
    /// The state just before an effect's action, to tell whether it changed anything.
    private var beforeEffectAction: Value?
    private var dispatching: String?
    private var effectsStarted = 0
    /// The last action dispatched and the shown state before it, for postconditions in
    /// code (kept only when the model has some).
    private var lastStep: (old: State, action: Model.Action)?

    init(
        model: Model, environment: Model.Environment, state: @escaping (Model) -> State,
        actions: [ActionSchema<Model.Action>], context: StoreContext
    ) {
        store = Arboreal.Store(state: model, environment: environment)
        self.state = state
        self.actions = actions
        self.context = context
        store.onEffectEvent = { [unowned self] event in
            if case .emitted = event { self.beforeEffectAction = try? self.snapshot() }
            if self.context.forward(event, dispatching: self.dispatching), self.dispatching != nil {
                self.effectsStarted += 1
            }
        }
        store.onEffectAction = { [unowned self] effect, action in
            let changed = (try? self.snapshot()) != self.beforeEffectAction
            self.beforeEffectAction = nil
            self.context.effectAction(effect, action, changed: changed)
        }
    }

    func dispatch(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome {
        lastStep = nil
        let action = try decode(index, arguments)
        let before = try? snapshot()
        if context.recordsSteps { lastStep = (state(store.state), action) }
        dispatching = actions[index].name
        effectsStarted = 0
        store.send(action)
        dispatching = nil
        return DispatchOutcome(stateChanged: (try? snapshot()) != before, effectsStarted: effectsStarted)
    }

    /// The action at schema position `index` built from `arguments`.
    private func decode(_ index: Int, _ arguments: [Value]) throws(PluginFailure) -> Model.Action {
        guard actions.indices.contains(index) else { throw .unknownAction("#\(index)") }
        let schema = actions[index]
        do {
            return try schema.make(arguments)
        } catch {
            throw .badArguments("\(schema.name): \(describe(error))")
        }
    }

    /// Time travel: the model's update alone; the effects it returns are dropped.
    func replay(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome {
        lastStep = nil
        let action = try decode(index, arguments)
        let before = try? snapshot()
        _ = store.state.update(action: action, environment: store.environment)
        return DispatchOutcome(stateChanged: (try? snapshot()) != before, effectsStarted: 0)
    }

    func snapshot() throws -> Value {
        try ValueEncoder().encode(state(store.state)).named("\(Model.self)")
    }

    /// What checks in code see: the shown state now, and the last step.
    func checked() -> (state: Any, step: CodeCheck.Step?) {
        (state(store.state), lastStep.map { CodeCheck.Step(old: $0.old, action: $0.action) })
    }

    func dispose() {
        store.onEffectEvent = nil
        store.onEffectAction = nil
    }
}
