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
            services: services,
            makeStore: { context throws(PluginFailure) in
                let box = ArborealStoreBox(
                    model: initial(), environment: environment(PluginEnvironment(context: context)),
                    state: state, actions: actions, context: context
                )
                return PluginStore(
                    dispatch: { index, arguments throws(PluginFailure) in try box.dispatch(action: index, arguments: arguments) },
                    snapshot: { try box.snapshot() },
                    dispose: { box.dispose() }
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
    private var dispatching: String?
    private var effectsStarted = 0

    init(model: Model, environment: Model.Environment, state: @escaping (Model) -> State,
         actions: [ActionSchema<Model.Action>], context: StoreContext) {
        store = Arboreal.Store(state: model, environment: environment)
        self.state = state
        self.actions = actions
        self.context = context
        store.onEffectEvent = { [unowned self] event in self.forward(event) }
        store.onEffectAction = { [unowned self] effect, action in
            let text = ActionText.render(action)
            self.context.report(SP_EFFECT_EMITTED, effect: effect, action: text)
            self.context.applied(text)
        }
    }

    func dispatch(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome {
        guard actions.indices.contains(index) else { throw .unknownAction("#\(index)") }
        let schema = actions[index]
        let action: Model.Action
        do {
            action = try schema.make(arguments)
        } catch {
            throw .badArguments("\(schema.name): \(describe(error))")
        }
        let before = try? snapshot()
        dispatching = schema.name
        effectsStarted = 0
        store.send(action)
        dispatching = nil
        return DispatchOutcome(stateChanged: (try? snapshot()) != before, effectsStarted: effectsStarted)
    }

    private func forward(_ event: EffectEvent) {
        switch event {
        case .started(let id, let cancelID):
            if dispatching != nil { effectsStarted += 1 }
            context.report(SP_EFFECT_STARTED, effect: id, label: dispatching ?? cancelID)
        case .emitted:
            break // reported by onEffectAction, with the action in shell syntax
        case .finished(let id):
            context.report(SP_EFFECT_FINISHED, effect: id)
        case .cancelled(let id):
            context.report(SP_EFFECT_CANCELLED, effect: id)
        }
    }

    func snapshot() throws -> Value {
        try ValueEncoder().encode(state(store.state)).named("\(Model.self)")
    }

    func dispose() {
        store.onEffectEvent = nil
        store.onEffectAction = nil
    }
}
