import ObservableStore
import StoreTesting
import Testing

/// Some of `EffectTests`, written with a TestStore: each state change and each action an
/// effect sends is stated, and `finish` checks nothing else happened (no late action from
/// a cancelled effect, nothing left running).
@MainActor
@Suite("Store: effects, checked with a TestStore")
struct EffectTestStoreTests {
    @Test func immediateEffectsComeBackOnALaterTurnInOrder() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementTwiceNow)
        #expect(store.state.count == 0, "effect actions never re-enter send synchronously")
        await store.receive(.increment) { $0.count = 1 }
        await store.receive(.increment) { $0.count = 2 }
        await store.finish()
    }

    @Test func cancelByIdStopsTheEffect() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementLaterCancellable(id: "search", cancelInFlight: false))
        await store.send(.incrementLater)
        await store.send(.cancel(id: "search"))
        await store.receive(.increment) { $0.count = 1 }
        await store.finish()  // the cancelled effect's increment would be unreceived here
    }

    @Test func cancelInFlightKeepsOnlyTheNewest() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        for _ in 0..<5 {
            await store.send(.incrementLaterCancellable(id: "debounce", cancelInFlight: true))
        }
        await store.receive(.increment) { $0.count = 1 }
        await store.finish()
    }

    @Test func cancellingAnUnknownIdIsHarmless() async {
        let store = TestStore(state: Counter(count: 3), environment: (), timeout: .seconds(30))
        await store.send(.cancel(id: "nothing"))
        await store.finish()
    }
}
