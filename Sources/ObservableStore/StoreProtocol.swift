/// Anything that holds a model's state and accepts its actions: a `Store`, or a
/// `ViewStore` scoped to part of one.
@MainActor
public protocol StoreProtocol {
    associatedtype Model: ModelProtocol

    var state: Model { get }
    func send(_ action: Model.Action)
}

/// A store scoped to a child component: it reads the child's state through a closure and
/// sends the child's actions, tagged, to the parent store.
public typealias ViewStore<ViewModel: ModelProtocol> = ScopedStore<ViewModel, ViewModel.Action>

extension ScopedStore: StoreProtocol where State: ModelProtocol, Action == State.Action {
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
        // One closure to the parent's send: each closure layer is an indirect call.
        ViewStore(source: ChildScope(parent: self, get: get, tag: tag))
    }

    /// A binding to one value of the state whose writes are sent as `tag(newValue)`.
    public func binding<Value>(
        get: @escaping (Model) -> Value,
        tag: @escaping (Value) -> Model.Action
    ) -> Binding<Value> {
        Binding(
            get: { get(self.state) },
            set: { self.send(tag($0)) }
        )
    }
}

/// A view store's source: a parent store, the child's `get` and the `tag` for its actions.
/// Inlinable, so a view store's send is specialized for the caller's models.
@usableFromInline
@MainActor
final class ChildScope<Parent: StoreProtocol, Child: ModelProtocol>: ScopeSource {
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
