/// A store scoped to a child model: it reads the child through a closure and sends the
/// child's actions, tagged, to the parent store.
public typealias ViewStore<ViewModel: ArborealModel> = ScopedStore<ViewModel, ViewModel.Action>

extension ScopedStore: ArborealStore where State: ArborealModel, Action == State.Action {
    public typealias Model = State
}

extension ArborealStore {
    /// A store for the child model `get` reads; its actions reach this store wrapped by
    /// `tag`. View stores nest.
    public func viewStore<ViewModel: ArborealModel>(
        get: @escaping (Model) -> ViewModel,
        tag: @escaping (ViewModel.Action) -> Model.Action
    ) -> ViewStore<ViewModel> {
        ViewStore(
            get: { get(self.state) },
            send: Address.forward(send: { self.send($0) }, tag: tag)
        )
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
