/// Wires a child component into its parent: how to read the child's state, write it
/// back, and wrap the child's actions as parent actions.
public protocol CursorProtocol {
    /// The parent model.
    associatedtype Model: ModelProtocol
    /// The child model.
    associatedtype ViewModel: ModelProtocol

    /// The child's state, read from the parent's.
    static func get(state: Model) -> ViewModel
    /// The parent's state with the child's replaced by `inner`.
    static func set(state: Model, inner: ViewModel) -> Model
    /// The parent action that carries the child's `action`.
    static func tag(_ action: ViewModel.Action) -> Model.Action
}

extension CursorProtocol {
    /// Runs the child's update through this cursor and returns the parent's update.
    public static func update(
        state: Model,
        action: ViewModel.Action,
        environment: ViewModel.Environment
    ) -> Update<Model> {
        Model.update(
            get: { get(state: $0) },
            set: { set(state: $0, inner: $1) },
            tag: { tag($0) },
            state: state,
            action: action,
            environment: environment
        )
    }
}

/// A cursor to one of many children held by key (a todo in a list by its id).
public protocol KeyedCursorProtocol {
    /// What identifies a child among its siblings (a todo id).
    associatedtype Key
    /// The parent model.
    associatedtype Model: ModelProtocol
    /// The child model.
    associatedtype ViewModel: ModelProtocol

    /// The child under `key`, or nil when there is none.
    static func get(state: Model, key: Key) -> ViewModel?
    /// The parent's state with the child under `key` replaced by `inner`.
    static func set(state: Model, inner: ViewModel, key: Key) -> Model
    /// The parent action that carries the child's `action` for `key`.
    static func tag(action: ViewModel.Action, key: Key) -> Model.Action
}

extension KeyedCursorProtocol {
    /// Runs the child's update for `key`; a missing key leaves the state unchanged, runs
    /// nothing, and is told to `StoreDiagnostics`.
    public static func update(
        state: Model,
        action: ViewModel.Action,
        key: Key,
        environment: ViewModel.Environment
    ) -> Update<Model> {
        Model.update(
            get: { get(state: $0, key: key) },
            set: { set(state: $0, inner: $1, key: key) },
            tag: { tag(action: $0, key: key) },
            state: state,
            action: action,
            environment: environment
        ) {
            "no \(ViewModel.self) has the key \(String(reflecting: key)), so the action for it did nothing"
        }
    }
}

extension KeyedCursorProtocol {
    /// Upstream's order: runs the child's update for `key`, or returns nil when there is
    /// no child under `key`.
    public static func update(
        state: Model,
        action: ViewModel.Action,
        environment: ViewModel.Environment,
        key: Key
    ) -> Update<Model>? {
        guard get(state: state, key: key) != nil else { return nil }
        return update(state: state, action: action, key: key, environment: environment)
    }

    /// Upstream's order: runs the child's update for `key`; a missing key leaves the state
    /// unchanged and runs nothing (and is told to `StoreDiagnostics`).
    public static func update(
        state: Model,
        action: ViewModel.Action,
        environment: ViewModel.Environment,
        key: Key
    ) -> Update<Model> {
        update(state: state, action: action, key: key, environment: environment)
    }
}
