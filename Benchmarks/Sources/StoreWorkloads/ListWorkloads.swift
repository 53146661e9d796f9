import ObservableStore

/// Issue 37's floor workloads: a `ListCounter` (a count and 100 strings) sent to directly,
/// through a parent, and through a view store, beside its update function alone.
extension Workloads {
    /// `ListCounter.update` alone, state threaded by hand: the floor for its `Store.send`.
    @inlinable
    public static func rawListUpdateLoop(_ n: Int) -> Int {
        var state = ListCounter()
        for _ in 0..<n {
            let next = ListCounter.update(state: state, action: opaque(.increment), environment: ())
            if next.state != state { state = next.state }
        }
        return state.count
    }

    /// `Store.send` to a store of `ListCounter`.
    @MainActor
    public static func listStoreSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: ListCounter(), environment: ())
        for _ in 0..<n {
            store.send(opaque(.increment))
        }
        return store.state.count
    }

    /// The child's action sent to a store of `ListParent`, through `update(get:set:tag:)`.
    @MainActor
    public static func listChildSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: ListParent(), environment: ())
        for _ in 0..<n {
            store.send(opaque(.child(.increment)))
        }
        return store.state.child.count
    }

    /// The child's action sent through a `ViewStore` of the child (`viewStore(get:tag:)`).
    @MainActor
    public static func listViewStoreSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: ListParent(), environment: ())
        let child = store.viewStore(get: \.child, tag: ListParent.Action.child)
        for _ in 0..<n {
            child.send(opaque(.increment))
        }
        return store.state.child.count
    }
}
