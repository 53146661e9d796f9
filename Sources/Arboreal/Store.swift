import Dispatch
public import Logging
public import Observation
import StoreRuntime

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
    public var onEffectEvent: (@MainActor (EffectEvent) -> Void)? {
        get { inFlight.onEvent }
        set { inFlight.onEvent = newValue }
    }
    /// Called after an action an effect produced has been applied, with the effect's id:
    /// for tools that show what effects did.
    @ObservationIgnored public var onEffectAction: (@MainActor (UInt64, Model.Action) -> Void)?

    /// For test stores: when set, an action an effect produced is handed here instead of
    /// being applied, with the function that applies it as the store would have.
    @ObservationIgnored package var holdEffectAction:
        (@MainActor (Model.Action, _ apply: @escaping @MainActor () -> Void) -> Void)?

    @ObservationIgnored @usableFromInline let inFlight = InFlightEffects()
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
        inFlight.cancelAll(reporting: false)
    }

    /// The number of effects started and not yet finished or cancelled.
    public var effectsInFlight: Int { inFlight.count }

    /// Sends an action: runs the model's update, then starts its effects.
    ///
    /// Inlinable, so the caller's send is specialized for its model: the update is called
    /// directly instead of through the model's witness table with its type's metadata.
    @inlinable
    public func send(_ action: Model.Action) {
        if logger != nil { log(action) }
        let fx = state.update(action: action, environment: environment)
        if !fx.isEmpty {
            // By the rule both flavours share (`InFlightEffects.run`).
            inFlight.run(cancelling: fx.cancellations, starting: fx.items, with: self)
        }
    }

    /// Logs `action` at debug level: out of line, so the inlined send stays small.
    @usableFromInline
    @inline(never)
    func log(_ action: Model.Action) {
        logger?.debug("action: \(action)")
    }

    private func receive(_ completion: Completion<Model.Action>) {
        // The effect is over once its closure returns: it is forgotten before its action
        // is applied (or held). One cancelled while its closure was finishing has its
        // action dropped.
        guard inFlight.remove(completion.effect) else { return }
        if let holdEffectAction {
            holdEffectAction(completion.action) { [weak self] in self?.deliver(completion) }
        } else {
            deliver(completion)
        }
    }

    private func deliver(_ completion: Completion<Model.Action>) {
        inFlight.reportEmitted(completion.action, from: completion.effect)
        send(completion.action)
        onEffectAction?(completion.effect, completion.action)
        inFlight.reportFinished(completion.effect)
    }
}

extension Store: EffectStarting {
    /// Runs `effect`'s closure in a task of its own; the action it returns is posted to
    /// the mailbox under `id`.
    @usableFromInline
    package func start(_ effect: Fx<Model.Action>.Item, id: UInt64) -> any EffectHandle {
        let mailbox = self.mailbox
        let run = effect.run
        return EffectScheduling.task {
            let action = await run()
            mailbox.post(Completion(effect: id, action: action))
        }
    }
}

struct Completion<Action: Sendable>: Sendable {
    let effect: UInt64
    let action: Action
}
