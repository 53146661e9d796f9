public import Observation
public import Logging
import Dispatch

/// Holds an Arboreal model and runs its update for every action sent.
///
/// Effects run off the main actor; the action each returns comes back through `send` on a
/// later main-queue turn. When the store is released its effects are cancelled and their
/// late actions dropped.
@Observable
@MainActor
public final class Store<Model: ArborealModel>: ArborealStore {
    /// The model. It changes in place: observe its own properties. The store never
    /// replaces it, so the reference itself is not tracked (tracking it would cost a
    /// generic key path on every `send`).
    @ObservationIgnored @exclusivity(unchecked) public private(set) var state: Model
    /// Services the update function may use.
    @ObservationIgnored @exclusivity(unchecked) public var environment: Model.Environment
    /// Set a logger to log every action at debug level.
    @ObservationIgnored @exclusivity(unchecked) public var logger: Logger?
    /// Called on the main actor for every effect event, for tools that watch effects.
    @ObservationIgnored @exclusivity(unchecked) public var onEffectEvent: (@MainActor (EffectEvent) -> Void)?
    /// Called after an action an effect produced has been applied, with the effect's id:
    /// for tools that show what effects did.
    @ObservationIgnored public var onEffectAction: (@MainActor (UInt64, Model.Action) -> Void)?

    /// For test stores: when set, an action an effect produced is handed here instead of
    /// being applied, with the function that applies it as the store would have.
    @ObservationIgnored package var holdEffectAction: (@MainActor (Model.Action, _ apply: @escaping @MainActor () -> Void) -> Void)?

    @ObservationIgnored private let inFlight = InFlightEffects()
    @ObservationIgnored private lazy var mailbox = EffectMailbox<Completion<Model.Action>> { [weak self] completions in
        for completion in completions {
            self?.receive(completion)
        }
    }

    /// A store running `state` with `environment`; `logger` logs every action.
    public init(state: Model, environment: Model.Environment, logger: Logger? = nil) {
        self.state = state
        self.environment = environment
        self.logger = logger
    }

    isolated deinit {
        for (_, task) in inFlight.removeAll() {
            task.cancel()
        }
    }

    /// The number of effects started and not yet finished or cancelled.
    public var effectsInFlight: Int { inFlight.count }

    /// Sends an action: runs the model's update, then starts its effects.
    public func send(_ action: Model.Action) {
        if let logger { logger.debug("action: \(action)") }
        let fx = state.update(action: action, environment: environment)
        if !fx.isEmpty {
            run(fx)
        }
    }

    private func run(_ fx: Fx<Model.Action>) {
        for id in fx.cancellations {
            cancelEffects(id: id)
        }
        for item in fx.items where item.cancelInFlight {
            if let id = item.cancelID { cancelEffects(id: id) }
        }
        for item in fx.items {
            start(item)
        }
    }

    private func start(_ item: Fx<Model.Action>.Item) {
        let id = inFlight.nextID()
        onEffectEvent?(.started(effect: id, cancelID: item.cancelID.map { "\($0)" }))
        let mailbox = self.mailbox
        let run = item.run
        let task = Task.detached {
            let action = await run()
            mailbox.post(Completion(effect: id, action: action))
        }
        inFlight.insert(id, handle: task, cancelID: item.cancelID)
    }

    private func cancelEffects(id: CancelID) {
        for (effect, task) in inFlight.remove(cancelID: id) {
            task.cancel()
            onEffectEvent?(.cancelled(effect: effect))
        }
    }

    private func receive(_ completion: Completion<Model.Action>) {
        // An effect cancelled while its closure was finishing has its action dropped.
        guard inFlight.remove(completion.effect) else { return }
        if let holdEffectAction {
            holdEffectAction(completion.action) { [weak self] in self?.deliver(completion) }
        } else {
            deliver(completion)
        }
    }

    private func deliver(_ completion: Completion<Model.Action>) {
        onEffectEvent?(.emitted(effect: completion.effect, action: "\(completion.action)"))
        send(completion.action)
        onEffectAction?(completion.effect, completion.action)
        onEffectEvent?(.finished(effect: completion.effect))
    }
}

struct Completion<Action: Sendable>: Sendable {
    let effect: UInt64
    let action: Action
}
