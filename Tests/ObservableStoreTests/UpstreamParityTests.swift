import ObservableStore
import Testing

/// Code written for upstream ObservableStore compiles here unchanged (but for
/// `@MainActor`): each test uses one API in upstream's form.
@MainActor
@Suite("Upstream ObservableStore's API forms")
struct UpstreamParityTests {
    @Test func storeCreateInfersTheModelFromTheUpdate() {
        let store = Store(create: { _ in Update(state: Counter(count: 7)) }, environment: ())
        #expect(store.state.count == 7)
    }

    @Test func updateTakesEffectsAndAnAnimation() async {
        let update = Update(state: Counter(count: 1), fx: immediate(Counter.Action.increment), animation: .default)
        #expect(update.transaction?.animation == .default)
        let store = Store(create: { _ in update }, environment: ())
        await eventually { store.state.count == 2 }
    }

    @Test func bindingFromASendFunctionAndATag() {
        let store = Store(state: Counter(), environment: ())
        let binding = Binding(get: { store.state.count }, send: store.send, tag: Counter.Action.setCount)
        binding.wrappedValue = 5
        #expect(store.state.count == 5)
        let fromStore = Binding(store: store, get: \.count, tag: Counter.Action.setCount)
        fromStore.wrappedValue = 9
        #expect(binding.wrappedValue == 9)
    }

    @Test func viewStoreFromAStoreAGetterAndATag() {
        let store = Store(state: Parent(), environment: ())
        let child = ViewStore(store: store, get: { $0.child ?? Counter() }, tag: Parent.Action.child)
        child.send(.increment)
        #expect(store.state.child?.count == 1)
        #expect(child.state.count == 1)
    }
}
