/// A value-type model whose state changes only through actions and a pure update function.
///
/// The same actions in the same order always give the same state: keep `update` free of
/// side effects and return any work to do as effects in the update.
public protocol ModelProtocol: Equatable {
    /// What can happen to the model: usually an enum.
    associatedtype Action
    /// The services `update` may use (clients, clocks); `Void` when it needs none.
    associatedtype Environment
    /// What `update` returns: `Update<Self>` unless the model brings its own.
    associatedtype UpdateType: UpdateProtocol = Update<Self>
    where UpdateType.Model == Self, UpdateType.Action == Action

    /// Returns the state after `action`, and the effects to run.
    static func update(state: Self, action: Action, environment: Environment) -> UpdateType
}

extension ModelProtocol {
    /// Applies `actions` in order, threading the state through: effects are merged in
    /// action order and the last update's transaction wins.
    public static func update(
        state: Self,
        actions: [Action],
        environment: Environment
    ) -> Update<Self> {
        var result = Update(state: state)
        for action in actions {
            let next = update(state: result.state, action: action, environment: environment)
            result.state = next.state
            result.effects.append(next.effects)
            result.transaction = next.transaction
        }
        return result
    }

    /// Runs a child model's update on the part of this state that `get` reads, writes the
    /// child's next state back with `set`, and maps its effects to parent actions with
    /// `tag`. When `get` returns nil (the child is absent) nothing happens, and
    /// `StoreDiagnostics` is told. Inlinable, so it is specialized in the model's own
    /// module rather than run generically.
    @inlinable
    public static func update<Child: ModelProtocol>(
        get: (Self) -> Child?,
        set: (Self, Child) -> Self,
        tag: @escaping (Child.Action) -> Action,
        state: Self,
        action: Child.Action,
        environment: Child.Environment
    ) -> Update<Self> {
        update(get: get, set: set, tag: tag, state: state, action: action, environment: environment) {
            "there is no \(Child.self) (it is nil), so the action for it did nothing"
        }
    }

    /// `update(get:set:tag:state:action:environment:)`, saying `absent()` to
    /// `StoreDiagnostics` when the child is not there.
    @inlinable
    static func update<Child: ModelProtocol>(
        get: (Self) -> Child?,
        set: (Self, Child) -> Self,
        tag: @escaping (Child.Action) -> Action,
        state: Self,
        action: Child.Action,
        environment: Child.Environment,
        absent: () -> String
    ) -> Update<Self> {
        guard let child = get(state) else {
            StoreDiagnostics.report?(absent())
            return Update(state: state)
        }
        let next = Child.update(state: child, action: action, environment: environment)
        return Update(
            state: set(state, next.state),
            effects: next.effects.map(tag),
            transaction: next.transaction
        )
    }
}
