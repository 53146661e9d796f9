/// What an update function returns: the next state, effects to run, and how to animate.
///
/// As upstream's: a model's own update type conforms by having these members, and helpers
/// written generically over it (`func logged<U: UpdateProtocol>(_ update: U) -> U where
/// U.Action == AppAction`) compile.
public protocol UpdateProtocol {
    /// The model the update is for.
    associatedtype Model: ModelProtocol
    /// The actions its effects produce (the model's).
    associatedtype Action

    init(state: Model, fx: Fx<Action>, transaction: Transaction?)

    /// The next state.
    var state: Model { get set }
    /// All effects as one publisher.
    var fx: Fx<Action> { get set }
    /// How to animate the change (nil: not animated).
    var transaction: Transaction? { get set }
    /// The effects with their cancellation ids. Defaults to `fx` with no ids.
    var effects: Effects<Action> { get set }
}

extension UpdateProtocol {
    /// The update's effect as a list with no cancellation ids; setting it merges them.
    public var effects: Effects<Action> {
        get { Effects(fx) }
        set { fx = newValue.merged }
    }

    /// A new state with no effects, its change animated with `animation`.
    public init(state: Model, animation: Animation? = nil) {
        self.init(state: state, fx: Effects<Action>().merged, transaction: Transaction(animation: animation))
    }

    /// A new state with effects, its change animated with `animation`.
    public init(state: Model, fx: Fx<Action>, animation: Animation? = nil) {
        self.init(state: state, fx: fx, transaction: Transaction(animation: animation))
    }

    /// The same update with its transaction's animation set to `animation`.
    public func animation(_ animation: Animation? = .default) -> Self {
        var copy = self
        copy.transaction = Transaction(animation: animation)
        return copy
    }

    /// The same update with `fx` added to its effects (their cancellation ids kept).
    public func mergeFx(_ fx: Fx<Action>) -> Self {
        var copy = self
        copy.effects.items.append(.init(publisher: fx))
        return copy
    }
}

/// The default update: state, effects and an optional transaction.
public struct Update<Model: ModelProtocol>: UpdateProtocol {
    /// The next state.
    public var state: Model
    /// The effects to run and the running effects to cancel.
    public var effects: Effects<Model.Action>
    /// How to animate the change, for glue that maps it to SwiftUI (nil: not animated).
    public var transaction: Transaction?

    /// The effects merged into one publisher. Setting it replaces every effect and drops
    /// their cancellation ids.
    public var fx: Fx<Model.Action> {
        get { effects.merged }
        set { effects = Effects(newValue) }
    }

    /// A new state and no effects.
    @inlinable
    public init(state: Model) {
        self.state = state
        self.effects = Effects()
        self.transaction = nil
    }

    /// A new state and one effect.
    @inlinable
    public init(state: Model, fx: Fx<Model.Action>) {
        self.init(state: state, fx: fx, transaction: nil)
    }

    /// A new state, one effect and how to animate the change.
    @inlinable
    public init(state: Model, fx: Fx<Model.Action>, transaction: Transaction?) {
        self.state = state
        self.effects = Effects(fx)
        self.transaction = transaction
    }

    /// A new state with effects, its change animated (upstream ObservableStore's form).
    public init(state: Model, fx: Fx<Model.Action>, animation: Animation?) {
        self.init(state: state, fx: fx, transaction: Transaction(animation: animation))
    }

    /// A new state with effects that may carry cancellation ids.
    @inlinable
    public init(state: Model, effects: Effects<Model.Action>, transaction: Transaction? = nil) {
        self.state = state
        self.effects = effects
        self.transaction = transaction
    }

    /// A new state whose change should be animated.
    public init(state: Model, animation: Animation?) {
        self.init(state: state, effects: Effects(), transaction: Transaction(animation: animation))
    }

    /// The same update with every effect tagged by `id`, so a later update can cancel them
    /// with `cancelFx(id:)`. With `cancelInFlight`, effects already running under `id` are
    /// cancelled first (a debounced search, a request that supersedes the last one).
    public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Self {
        var copy = self
        for index in copy.effects.items.indices {
            copy.effects.items[index].cancelID = CancelID(id)
            copy.effects.items[index].cancelInFlight = cancelInFlight
        }
        return copy
    }

    /// The same update, also cancelling every running effect tagged with `id`.
    public func cancelFx<ID: Hashable & Sendable>(id: ID) -> Self {
        var copy = self
        copy.effects.cancellations.append(CancelID(id))
        return copy
    }
}
