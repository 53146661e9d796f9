import Arboreal
import OpenCombine
import Testing

/// Code written for upstream Arboreal compiles here unchanged (but for `@MainActor`).
@MainActor
@Suite("Upstream Arboreal's API forms")
struct ArborealUpstreamParityTests {
    @Test func bindingAndViewStoreFromAStore() {
        let store = Store(state: CounterModel(), environment: .init())
        let count = Binding(store: store, get: \.count, tag: CounterModel.Action.setCount)
        count.wrappedValue = 3
        #expect(store.state.count == 3)
        let child = ViewStore(store: store, get: \.child, tag: CounterModel.Action.child)
        child.send(.setText("hi"))
        #expect(store.state.child.text == "hi")
    }

    @Test func storeDidUpdateAndTheDecoratorsState() {
        let store = Store(state: DidUpdateDecorator(CounterModel()), environment: .init())
        var heard: [CounterModel.Action] = []
        let subscription = store.didUpdate.sink { heard.append($0) }
        store.send(.increment)
        #expect(heard == [.increment])
        #expect(store.state.state.count == 1, "the decorated model is `state`, as upstream names it")
        _ = subscription
    }
}
