import Arboreal
import ArborealTesting
import Observation
import OpenCombine
import Testing

@MainActor
@Suite("Arboreal store")
struct ArborealStoreTests {
    @Test func sendMutatesTheModelSynchronously() {
        let store = Store(state: CounterModel(), environment: .init())
        store.send(.increment)
        store.send(.increment)
        #expect(store.state.count == 2)
        store.send(.setCount(9))
        #expect(store.state.count == 9)
    }

    @Test func updateWithActionsAppliesInOrderAndMergesEffects() async {
        let model = CounterModel()
        let fx = model.update(
            actions: [.setCount(5), .increment, .incrementLater(milliseconds: 1), .incrementLater(milliseconds: 1)],
            environment: .init())
        #expect(model.count == 6)
        #expect(fx.effects.count == 2)
        let store = Store(state: model, environment: .init())
        store.send(.incrementLater(milliseconds: 1))
        await eventually { model.count == 7 }
    }

    @Test func effectResultsComeBackThroughSend() async {
        let store = Store(state: CounterModel(), environment: .init())
        for _ in 0..<5 { store.send(.incrementLater(milliseconds: 5)) }
        #expect(store.state.count == 0)
        #expect(store.effectsInFlight == 5)
        await eventually { store.state.count == 5 }
        #expect(store.effectsInFlight == 0, "finished effects leave no bookkeeping behind")
    }

    @Test func effectEventsDescribeTheLifecycle() async {
        let store = Store(state: CounterModel(), environment: .init())
        var events: [EffectEvent] = []
        store.onEffectEvent = { events.append($0) }
        store.send(.incrementLater(milliseconds: 1))
        await eventually { store.state.count == 1 }
        #expect(
            events == [
                .started(effect: 1, cancelID: nil),
                .emitted(effect: 1, action: "increment"),
                .finished(effect: 1),
            ])
    }

    @Test func onEffectActionSeesEffectActionsAfterTheyApplied() async {
        let store = Store(state: CounterModel(), environment: .init())
        var seen: [String] = []
        store.onEffectAction = { effect, action in seen.append("#\(effect) \(action) → \(store.state.count)") }
        store.send(.increment)
        store.send(.incrementLater(milliseconds: 1))
        await eventually { seen.count == 1 }
        #expect(seen == ["#1 increment → 2"])
    }

    /// The effects wait for a gate, not 50 ms: on a busy machine the sends took longer than
    /// that once, "a" ran before it was cancelled, and the test failed.
    @Test func cancelByIdCancelsTheTaskAndDropsItsAction() async {
        let gate = Gate()
        let environment = CounterModel.Environment(gate: gate)
        let store = TestStore(state: CounterModel(), environment: environment, timeout: .seconds(30))
        await store.send(.incrementLaterCancellable(id: "a", cancelInFlight: false))
        await store.send(.incrementLaterCancellable(id: "b", cancelInFlight: false))
        await store.send(.cancel(id: "a"))
        #expect(store.store.effectsInFlight == 1)
        gate.open()
        await store.receive(.increment) { $0.count = 1 }
        await store.finish()  // fails if the cancelled effect's action arrived after all
        #expect(Set(environment.log.all) == ["cancelled a", "ran b"])
    }

    @Test func cancelInFlightKeepsOnlyTheNewest() async {
        let gate = Gate()
        let environment = CounterModel.Environment(gate: gate)
        let store = TestStore(state: CounterModel(), environment: environment, timeout: .seconds(30))
        for _ in 0..<4 { await store.send(.incrementLaterCancellable(id: "q", cancelInFlight: true)) }
        #expect(store.store.effectsInFlight == 1)
        gate.open()
        await store.receive(.increment) { $0.count = 1 }
        await store.finish()
        #expect(environment.log.all.filter { $0 == "ran q" }.count == 1)
    }

    @Test func releasingTheStoreCancelsEffects() async {
        let environment = CounterModel.Environment()
        let model = CounterModel()
        var store: Store<CounterModel>? = Store(state: model, environment: environment)
        store?.send(.incrementLaterCancellable(id: "x", cancelInFlight: false))
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil)
        await eventually { environment.log.all == ["cancelled x"] }
        try? await Task.sleep(for: .milliseconds(20))
        await mainQueueTurn()
        #expect(model.count == 0, "late actions are dropped")
    }

    @Test func childEffectsAreTagged() async {
        let store = TestStore(state: CounterModel(), environment: .init(), timeout: .seconds(30))
        await store.send(.child(.echoLater("hi")))
        await store.receive(.child(.setText("hi"))) { $0.child.text = "hi" }
        await store.finish()
    }

    @Test func observationTrackingSeesChangesMadeBySend() async {
        let store = Store(state: CounterModel(), environment: .init())
        let changes = RunLog()
        withObservationTracking {
            _ = store.state.count
        } onChange: {
            changes.record("count")
        }
        store.send(.increment)
        #expect(changes.all == ["count"])
        let childChanges = RunLog()
        withObservationTracking {
            _ = store.state.child.text
        } onChange: {
            childChanges.record("text")
        }
        store.send(.increment)
        #expect(childChanges.all.isEmpty, "tracking is per property")
        store.send(.child(.setText("x")))
        #expect(childChanges.all == ["text"])
    }
}

@MainActor
@Suite("Arboreal view stores, bindings, decorator")
struct ArborealCompositionTests {
    @Test func viewStoreScopesToAChild() {
        let store = Store(state: CounterModel(), environment: .init())
        let child = store.viewStore(get: \.child, tag: CounterModel.Action.child)
        child.send(.setText("scoped"))
        #expect(store.state.child.text == "scoped")
        #expect(child.state === store.state.child)
    }

    @Test func wholeStoreViewStore() {
        let store = Store(state: CounterModel(), environment: .init())
        let view = store.viewStore()
        view.send(.increment)
        #expect(view.state.count == 1)
        let nested = view.viewStore(get: \.child, tag: CounterModel.Action.child)
        nested.send(.setText("nested"))
        #expect(store.state.child.text == "nested")
    }

    @Test func bindingWritesThroughAnAction() {
        let store = Store(state: CounterModel(), environment: .init())
        let count = store.binding(get: \.count, tag: CounterModel.Action.setCount)
        count.wrappedValue = 21
        #expect(store.state.count == 21)
        #expect(count.wrappedValue == 21)
    }

    @Test func didUpdateDecoratorPublishesAfterEachUpdate() async {
        let decorated = DidUpdateDecorator(CounterModel())
        let store = Store(state: decorated, environment: .init())
        var heard: [(CounterModel.Action, Int)] = []
        let subscription = decorated.didUpdate.sink { heard.append(($0, decorated.count)) }
        store.send(.increment)
        store.send(.incrementLater(milliseconds: 1))
        await eventually { decorated.count == 2 }
        #expect(heard.map(\.0) == [.increment, .incrementLater(milliseconds: 1), .increment])
        #expect(heard.map(\.1) == [1, 1, 2], "published after the update applied")
        _ = subscription
    }
}

/// Effects that last until cancelled, started and cancelled by id: for the order of the
/// effect rule.
@Observable
@MainActor
private final class Lasting: ArborealModel {
    enum Action: Equatable, Sendable {
        case start(String)
        /// Cancels "a" and "c", replaces "b" (cancel in flight), and starts one with no id.
        case mixed
        case ended
    }

    func update(action: Action, environment: Void) -> Fx<Action> {
        let lasting = Fx<Action> {
            try? await Task.sleep(for: .seconds(3600))
            return .ended
        }
        switch action {
        case .start(let id):
            return lasting.cancellable(id: id)
        case .mixed:
            return Fx.cancel(id: "a").merge(.cancel(id: "c"))
                .merge(lasting.cancellable(id: "b", cancelInFlight: true))
                .merge(lasting)
        case .ended:
            return .none
        }
    }
}

@MainActor
@Suite("Arboreal store: the effect rule")
struct ArborealEffectRuleTests {
    @Test func anUpdateCancelsThenReplacesThenStartsInOrder() {
        var events: [String] = []
        do {
            let store = Store(state: Lasting(), environment: ())
            store.onEffectEvent = { events.append("\($0)") }
            for id in ["a", "b", "a", "c"] { store.send(.start(id)) }
            events.removeAll()
            store.send(.mixed)
            #expect(
                events == [
                    "#1 cancelled", "#3 cancelled", "#4 cancelled", "#2 cancelled", "#5 started (cancel id \"b\")",
                    "#6 started",
                ])
            #expect(store.effectsInFlight == 2)
            events.removeAll()
        }
        #expect(events.isEmpty, "a released store cancels its effects without reporting them")
    }
}
