/// A store scoped to a child model: it reads the child through a closure and sends the
/// child's actions, tagged, to the parent store.
public typealias ViewStore<ViewModel: ArborealModel> = ScopedStore<ViewModel, ViewModel.Action>

extension ScopedStore: ArborealStore where State: ArborealModel, Action == State.Action {
    /// The child model a view store holds.
    public typealias Model = State

    /// The view store of `store`'s child model that `get` reads, whose actions reach
    /// `store` wrapped by `tag` — `store.viewStore(get:tag:)` as an initializer.
    public init<Parent: ArborealStore>(
        store: Parent,
        get: @escaping (Parent.Model) -> State,
        tag: @escaping (Action) -> Parent.Model.Action
    ) {
        self = store.viewStore(get: get, tag: tag)
    }
}

extension Binding {
    /// A binding to one value of `store`'s model whose writes are sent as
    /// `tag(newValue)` — `store.binding(get:tag:)` as an initializer (upstream Arboreal's form).
    public init<Store: ArborealStore>(
        store: Store,
        get: @escaping (Store.Model) -> Value,
        tag: @escaping (Value) -> Store.Model.Action
    ) {
        self = store.binding(get: get, tag: tag)
    }
}

extension ArborealStore {
    /// A store for the child model `get` reads; its actions reach this store wrapped by
    /// `tag`. View stores nest. Inlinable, so its closures call the caller's `send`.
    @inlinable
    public func viewStore<ViewModel: ArborealModel>(
        get: @escaping (Model) -> ViewModel,
        tag: @escaping (ViewModel.Action) -> Model.Action
    ) -> ViewStore<ViewModel> {
        scope(get: get, tag: tag)
    }

    /// This store behind the `ViewStore` type, for code that takes a `ViewStore`.
    @inlinable
    public func viewStore() -> ViewStore<Model> {
        scope(get: { $0 }, tag: { $0 })
    }

    /// A binding to one value of the model whose writes are sent as `tag(newValue)`.
    @inlinable
    public func binding<Value>(
        get: @escaping (Model) -> Value,
        tag: @escaping (Value) -> Model.Action
    ) -> Binding<Value> {
        scopedBinding(get: get, tag: tag)
    }
}
