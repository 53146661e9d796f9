import Foundation
public import Logging

/// Holds a model's state and runs its update function for every action sent.
///
/// - `send` applies the update synchronously. A next state equal to the current one is
///   not set and not published, but its effects still run.
/// - Actions produced by effects come back on a later main-queue turn, never
///   re-entrantly inside `send`.
/// - Finished effects leave no bookkeeping behind. When the store is released, effects in
///   flight are cancelled and actions still on their way are dropped.
///
/// Main-actor isolated; `@preconcurrency`, so code in Swift 5 mode uses it as it used
/// upstream's (no isolation diagnostics), and code in Swift 6 mode outside the main actor
/// is warned, not refused (docs/decisions/0007).
@preconcurrency @MainActor
public final class Store<Model: ModelProtocol>: StoreProtocol {
    /// The current state. Only actions change it; `$state` publishes each new value.
    @PublishedState public var state: Model
    /// Services the update function may use (clients, clocks, schedulers).
    @exclusivity(unchecked) public var environment: Model.Environment
    /// Set a logger to log every action (at debug level) and state change (at trace).
    @exclusivity(unchecked) public var logger: Logging.Logger? {
        didSet { updateWatched() }
    }
    /// Whether every action is logged to the `os` logger given to
    /// `init(state:environment:loggingEnabled:logger:)` (upstream's `loggingEnabled`).
    @exclusivity(unchecked) public var loggingEnabled = false {
        didSet { updateWatched() }
    }
    /// Where `loggingEnabled` writes each action (Store+ActionLog.swift).
    @exclusivity(unchecked) var actionLog = ActionLog.standard
    /// Called on the main actor for every effect event, for tools that watch effects.
    public var onEffectEvent: (@MainActor (EffectEvent) -> Void)? {
        get { inFlight.onEvent }
        set { inFlight.onEvent = newValue }
    }
    /// Called after an action an effect produced has been applied, with the effect's id:
    /// for tools that show what effects did.
    @exclusivity(unchecked) public var onEffectAction: (@MainActor (UInt64, Model.Action) -> Void)?

    @usableFromInline let stateCell: StateCell<Model>
    @exclusivity(unchecked) @usableFromInline var willChange: ObservableObjectPublisher?
    @exclusivity(unchecked) @usableFromInline var actionSubject: PassthroughSubject<Model.Action, Never>?
    @exclusivity(unchecked) @usableFromInline var updateSubject: PassthroughSubject<Model.UpdateType, Never>?
    /// Whether something watches every send (a logger, `actions`, `updates`): such sends
    /// take `sendWatched`, so the plain send stays small enough to inline into its caller.
    @exclusivity(unchecked) @usableFromInline var isWatched = false
    @usableFromInline let inFlight = InFlightEffects()
    /// Where this store's effects post what they produce; opened by the first effect.
    @exclusivity(unchecked) @usableFromInline var mailbox: EffectMailbox<EffectMessage<Model.Action>>?

    /// A store starting at `state`.
    public init(state: Model, environment: Model.Environment, logger: Logging.Logger? = nil) {
        self.stateCell = StateCell(state)
        self._state = PublishedState(cell: stateCell)
        self.environment = environment
        self.logger = logger
        self.isWatched = logger != nil
    }

    /// A store whose initial state and effects come from `create`, so a model can start
    /// work (load data, subscribe to a service) the moment it exists.
    public convenience init(
        create: (Model.Environment) -> Model.UpdateType,
        environment: Model.Environment,
        logger: Logging.Logger? = nil
    ) {
        self.init(initial: create(environment), environment: environment, logger: logger)
    }

    init(initial: Model.UpdateType, environment: Model.Environment, logger: Logging.Logger?) {
        self.stateCell = StateCell(initial.state)
        self._state = PublishedState(cell: stateCell)
        self.environment = environment
        self.logger = logger
        self.isWatched = logger != nil
        run(initial.effects)
    }

    /// `init(create:environment:logger:)` for the default `Update`, so the closure's type
    /// alone says which model the store holds: `Store(create: { _ in Update(state:
    /// AppModel()) }, environment: env)`, as upstream ObservableStore writes it.
    public convenience init(
        create: (Model.Environment) -> Update<Model>,
        environment: Model.Environment,
        logger: Logging.Logger? = nil
    ) where Model.UpdateType == Update<Model> {
        self.init(initial: create(environment), environment: environment, logger: logger)
    }

    /// A store starting at `state` that immediately receives `action`.
    public convenience init(
        state: Model,
        action: Model.Action,
        environment: Model.Environment,
        logger: Logging.Logger? = nil
    ) {
        self.init(state: state, environment: environment, logger: logger)
        send(action)
    }

    isolated deinit {
        inFlight.cancelAll(reporting: false)
    }

    /// Each action sent, before its update runs.
    public var actions: AnyPublisher<Model.Action, Never> {
        if let actionSubject { return actionSubject.eraseToAnyPublisher() }
        let subject = PassthroughSubject<Model.Action, Never>()
        actionSubject = subject
        updateWatched()
        return subject.eraseToAnyPublisher()
    }

    /// Each update, after it has been applied.
    public var updates: AnyPublisher<Model.UpdateType, Never> {
        if let updateSubject { return updateSubject.eraseToAnyPublisher() }
        let subject = PassthroughSubject<Model.UpdateType, Never>()
        updateSubject = subject
        updateWatched()
        return subject.eraseToAnyPublisher()
    }

    /// The number of effects started and not yet finished or cancelled.
    public var effectsInFlight: Int { inFlight.count }

    /// Sends an action: runs the update, sets the state if it changed, starts effects.
    ///
    /// Inlinable and small, so a send from the app is specialized for its model and
    /// inlined: what only a watched store does (logging, `actions`, `updates`) is in
    /// `sendWatched`, out of line.
    @inlinable
    public func send(_ action: Model.Action) {
        if isWatched {
            sendWatched(action)
            return
        }
        let current = stateCell.value
        let next = Model.update(state: current, action: action, environment: environment)
        if next.state != current {
            willChange?.send()
            stateCell.set(next.state)
        }
        let effects = next.effects
        if !effects.isEmpty {
            run(effects)
        }
    }

    /// `send` for a store something watches: publishes the action and the update, and
    /// logs both.
    @usableFromInline
    @inline(never)
    func sendWatched(_ action: Model.Action) {
        if loggingEnabled { actionLog.record(action) }
        actionSubject?.send(action)
        if let logger { logger.debug("action: \(action)") }
        let current = stateCell.value
        let next = Model.update(state: current, action: action, environment: environment)
        if next.state != current {
            willChange?.send()
            stateCell.set(next.state)
            if let logger { logger.trace("state: \(next.state)") }
        }
        updateSubject?.send(next)
        let effects = next.effects
        if !effects.isEmpty {
            run(effects)
        }
    }

    private func updateWatched() {
        isWatched = logger != nil || loggingEnabled || actionSubject != nil || updateSubject != nil
    }

    /// Runs `fx` as an effect of this store: its actions are sent back to the store.
    public func subscribe(to fx: Fx<Model.Action>) {
        run(Effects(fx))
    }

    /// Runs an update's effects by the rule both flavours share (`InFlightEffects.run`).
    /// Inlinable with `start`, so the caller's specialized `send` runs them without
    /// looking up generic type metadata per effect.
    @inlinable
    func run(_ effects: Effects<Model.Action>) {
        inFlight.run(cancelling: effects.cancellations, starting: effects.items, with: self)
    }

    /// Cancels every effect in flight, oldest first, reporting each: what they would send
    /// belongs to a state that is gone (a plugin's restore, a jump in time).
    package func cancelAllEffects() {
        inFlight.cancelAll(reporting: true)
    }

    /// Made in inlinable code, so the store's receive, and the send of each effect's
    /// action, are specialized for the model like a send from the app.
    @inlinable
    func openMailbox() -> EffectMailbox<EffectMessage<Model.Action>> {
        let mailbox = EffectMailbox<EffectMessage<Model.Action>> { [weak self] messages in
            guard let self else { return }
            for message in messages {
                receive(message)
            }
        }
        self.mailbox = mailbox
        return mailbox
    }

    @inlinable
    func receive(_ message: EffectMessage<Model.Action>) {
        switch message {
        case .action(let effect, let action):
            // Actions from an effect cancelled after it emitted them are dropped.
            guard inFlight.emits(action, from: effect) else { return }
            send(action)
            onEffectAction?(effect, action)
        case .finished(let effect):
            inFlight.finish(effect)
        }
    }
}

extension Store: EffectStarting {
    /// Subscribes the store to `effect`: what it publishes is posted to the mailbox under
    /// `id`. Made in inlinable code, like the mailbox, for the caller's specialized `send`.
    @inlinable
    package func start(_ effect: Effects<Model.Action>.Item, id: UInt64) -> any EffectHandle {
        let subscriber = EffectSubscriber(effect: id, mailbox: mailbox ?? openMailbox())
        effect.publisher.subscribe(subscriber)
        return subscriber
    }
}

/// The objectWillChange publisher is created on first use, so a store nobody observes pays
/// nothing for it.
extension Store: @MainActor ObservableObject {
    /// Fires before each state change, for SwiftUI-style observers.
    public var objectWillChange: ObservableObjectPublisher {
        if let willChange { return willChange }
        let publisher = ObservableObjectPublisher()
        willChange = publisher
        return publisher
    }
}

@usableFromInline
enum EffectMessage<Action> {
    case action(effect: UInt64, Action)
    case finished(effect: UInt64)
}

/// Subscribes the store to one effect: asks for every value and posts each value, and the
/// completion, to the store's mailbox. It locks with the mailbox's lock, so an effect
/// costs one allocation of ours. Publishers emit on whatever thread they run on, which is why it
/// only posts and never touches the store.
@usableFromInline
final class EffectSubscriber<Action>: Subscriber, Cancellable, EffectHandle, @unchecked Sendable {
    @usableFromInline typealias Input = Action
    @usableFromInline typealias Failure = Never

    private let effect: UInt64
    private let mailbox: EffectMailbox<EffectMessage<Action>>
    // Guarded by the mailbox's lock.
    private var subscription: (any Subscription)?
    private var isCancelled = false

    @usableFromInline
    init(effect: UInt64, mailbox: EffectMailbox<EffectMessage<Action>>) {
        self.effect = effect
        self.mailbox = mailbox
    }

    @usableFromInline
    func receive(subscription: any Subscription) {
        var cancelled = false
        mailbox.withLock {
            cancelled = isCancelled
            if !cancelled { self.subscription = subscription }
        }
        if cancelled {
            subscription.cancel()
        } else {
            subscription.request(.unlimited)
        }
    }

    @usableFromInline
    func receive(_ input: Action) -> Subscribers.Demand {
        mailbox.post(.action(effect: effect, input))
        return .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Never>) {
        mailbox.post(.finished(effect: effect))
        mailbox.withLock { subscription = nil }
    }

    /// Stops the effect. Anything it already posted is dropped by the store, which no
    /// longer has it in flight.
    @usableFromInline
    func cancel() {
        var subscription: (any Subscription)?
        mailbox.withLock {
            isCancelled = true
            subscription = self.subscription
            self.subscription = nil
        }
        subscription?.cancel()
    }
}
