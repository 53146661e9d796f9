/// Anything that holds a model's state and accepts its actions: a `Store`, or a
/// `ViewStore` scoped to part of one.
@preconcurrency @MainActor
public protocol StoreProtocol: ScopeParent where State == Model, Action == Model.Action {
    /// The model whose state the store holds.
    associatedtype Model: ModelProtocol

    /// The current state.
    var state: Model { get }
    /// Applies `action` through the model's update.
    func send(_ action: Model.Action)
}

/// A store scoped to a child component: it reads the child's state through a closure and
/// sends the child's actions, tagged, to the parent store.
public typealias ViewStore<ViewModel: ModelProtocol> = ScopedStore<ViewModel, ViewModel.Action>

extension ScopedStore: StoreProtocol where State: ModelProtocol, Action == State.Action {
    /// The child model a view store holds.
    public typealias Model = State

    /// The view store of `store`'s child that `get` reads, whose actions reach `store`
    /// wrapped by `tag` — `store.viewStore(get:tag:)` as an initializer.
    public init<Parent: StoreProtocol>(
        store: Parent,
        get: @escaping (Parent.Model) -> State,
        tag: @escaping (Action) -> Parent.Model.Action
    ) {
        self = store.viewStore(get: get, tag: tag)
    }
}

extension Binding {
    /// A binding to one value of `store`'s state whose writes are sent as `tag(newValue)`
    /// — `store.binding(get:tag:)` as an initializer.
    public init<Store: StoreProtocol>(
        store: Store,
        get: @escaping (Store.Model) -> Value,
        tag: @escaping (Value) -> Store.Model.Action
    ) {
        self = store.binding(get: get, tag: tag)
    }
}

extension StoreProtocol {
    /// A store for the child component that `get` reads; its actions reach this store
    /// wrapped by `tag`. View stores nest: a view store of a view store works the same.
    /// Inlinable, so its closures call the caller's specialized `send`.
    @inlinable
    public func viewStore<ViewModel: ModelProtocol>(
        get: @escaping (Model) -> ViewModel,
        tag: @escaping (ViewModel.Action) -> Model.Action
    ) -> ViewStore<ViewModel> {
        scope(get: get, tag: tag)
    }

    /// A binding to one value of the state whose writes are sent as `tag(newValue)`.
    @inlinable
    public func binding<Value>(
        get: @escaping (Model) -> Value,
        tag: @escaping (Value) -> Model.Action
    ) -> Binding<Value> {
        scopedBinding(get: get, tag: tag)
    }
}
