/// A store scoped to a child model: it reads the child through a closure and sends the
/// child's actions, tagged, to the parent store.
public typealias ViewStore<ViewModel: ArborealModel> = ScopedStore<ViewModel, ViewModel.Action>

extension ScopedStore: ArborealStore where State: ArborealModel, Action == State.Action {
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
        ViewStore(source: ChildScope(parent: self, get: get, tag: tag))
    }

    /// This store behind the `ViewStore` type, for code that takes a `ViewStore`.
    public func viewStore() -> ViewStore<Model> {
        ViewStore(get: { self.state }, send: { self.send($0) })
    }

    /// A binding to one value of the model whose writes are sent as `tag(newValue)`.
    public func binding<Value>(
        get: @escaping (Model) -> Value,
        tag: @escaping (Value) -> Model.Action
    ) -> Binding<Value> {
        Binding(get: { get(self.state) }, set: { self.send(tag($0)) })
    }
}

/// A view store's source: a parent store, the child's `get` and the `tag` for its actions.
/// Inlinable, so a view store's send is specialized for the caller's models.
@usableFromInline
@MainActor
final class ChildScope<Parent: ArborealStore, Child: ArborealModel>: ScopeSource {
    @usableFromInline let parent: Parent
    @usableFromInline let read: (Parent.Model) -> Child
    @usableFromInline let tag: (Child.Action) -> Parent.Model.Action

    @inlinable
    init(parent: Parent, get: @escaping (Parent.Model) -> Child, tag: @escaping (Child.Action) -> Parent.Model.Action) {
        self.parent = parent
        self.read = get
        self.tag = tag
    }

    @inlinable
    var state: Child { read(parent.state) }

    @inlinable
    func send(_ action: Child.Action) { parent.send(tag(action)) }
}
