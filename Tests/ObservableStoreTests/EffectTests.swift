import ObservableStore
import Testing

@MainActor
@Suite("Store: effects")
struct EffectTests {
    @Test func immediateEffectsLeaveNoBookkeeping() async {
        let store = Store(state: Counter(), environment: ())
        store.send(.incrementTwiceNow)
        #expect(store.state.count == 0, "effect actions never re-enter send synchronously")
        await mainQueueTurn()
        #expect(store.state.count == 2)
        #expect(store.effectsInFlight == 0)
    }

    @Test func delayedEffectsLeaveNoBookkeeping() async {
        let store = Store(state: Counter(), environment: ())
        for _ in 0..<10 { store.send(.incrementLater) }
        #expect(store.effectsInFlight == 10)
        await eventually { store.state.count == 10 }
        await eventually { store.effectsInFlight == 0 }
    }

    /// Every merged effect delivers (the count alone would not show the first increment:
    /// `setCount(100)` overwrites it).
    @Test func mergeFxRunsEveryEffect() async {
        let store = Store(state: Counter(), environment: ())
        var delivered: [Counter.Action] = []
        let subscription = store.actions.sink { delivered.append($0) }
        store.subscribe(
            to: Update<Counter>(state: Counter(), fx: immediate(.increment))
                .mergeFx(delayed(.increment))
                .mergeFx(immediate(.setCount(100)))
                .fx)
        await eventually { delivered.count == 3 }
        #expect(delivered == [.increment, .setCount(100), .increment])
        #expect(store.state.count == 101)
        _ = subscription
    }

    @Test func effectActionsArriveOnALaterTurnInOrder() async {
        let store = Store(state: Counter(), environment: ())
        var order: [Counter.Action] = []
        let subscription = store.actions.sink { order.append($0) }
        store.subscribe(
            to: Publishers.Sequence(sequence: [Counter.Action.setCount(3), .increment, .increment])
                .eraseToAnyPublisher())
        store.send(.decrement)
        #expect(order == [.decrement])
        await mainQueueTurn()
        #expect(order == [.decrement, .setCount(3), .increment, .increment])
        #expect(store.state.count == 5)
        _ = subscription
    }

    @Test func cancelByIdStopsTheEffect() async {
        let store = Store(state: Counter(), environment: ())
        store.send(.incrementLaterCancellable(id: "search", cancelInFlight: false))
        store.send(.incrementLater)
        #expect(store.effectsInFlight == 2)
        store.send(.cancel(id: "search"))
        #expect(store.effectsInFlight == 1, "only the tagged effect is cancelled")
        await eventually { store.state.count == 1 }
        try? await Task.sleep(for: .milliseconds(80))
        await mainQueueTurn()
        #expect(store.state.count == 1, "the cancelled effect never delivers")
        #expect(store.effectsInFlight == 0)
    }

    @Test func cancelInFlightKeepsOnlyTheNewest() async {
        let store = Store(state: Counter(), environment: ())
        var events: [EffectEvent] = []
        store.onEffectEvent = { events.append($0) }
        for _ in 0..<5 {
            store.send(.incrementLaterCancellable(id: "debounce", cancelInFlight: true))
        }
        #expect(store.effectsInFlight == 1)
        await eventually { store.state.count == 1 }
        try? await Task.sleep(for: .milliseconds(80))
        await mainQueueTurn()
        #expect(store.state.count == 1)
        #expect(events.filter { if case .cancelled = $0 { true } else { false } }.map(\.effect) == [1, 2, 3, 4])
        #expect(events.last == .finished(effect: 5))
    }

    @Test func cancellingAnUnknownIdIsHarmless() {
        let store = Store(state: Counter(count: 3), environment: ())
        store.send(.cancel(id: "nothing"))
        #expect(store.state.count == 3)
        #expect(store.effectsInFlight == 0)
    }

    @Test func effectEventsDescribeTheLifecycle() async {
        let store = Store(state: Counter(), environment: ())
        var events: [EffectEvent] = []
        store.onEffectEvent = { events.append($0) }
        store.send(.incrementLaterCancellable(id: "x", cancelInFlight: false))
        await eventually { store.state.count == 1 }
        await mainQueueTurn()
        #expect(
            events == [
                .started(effect: 1, cancelID: "x"),
                .emitted(effect: 1, action: "increment"),
                .finished(effect: 1),
            ])
    }

    @Test func onEffectActionSeesEachEffectActionAfterItApplied() async {
        let store = Store(state: Counter(), environment: ())
        var seen: [String] = []
        store.onEffectAction = { effect, action in seen.append("#\(effect) \(action) → \(store.state.count)") }
        store.send(.incrementTwiceNow)
        store.send(.increment)
        await mainQueueTurn()
        #expect(
            seen == ["#1 increment → 2", "#2 increment → 3"],
            "typed actions are not reported; effect actions are, after applying")
    }

    @Test func taskEffectsRunOnSubscriptionAndStopWhenCancelled() async {
        let started = Locked(0)
        let finished = Locked(0)
        // The task waits for the gate, not for a length of time: on a loaded machine a
        // timed wait could end before the store is released, and the test would race.
        let gate = Locked(true)
        let effect = Fx<Counter.Action>.task {
            started.update { $0 += 1 }
            while !gate.current, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
            guard !Task.isCancelled else { return .noop }
            finished.update { $0 += 1 }
            return .increment
        }
        try? await Task.sleep(for: .milliseconds(10))
        #expect(started.current == 0, "nothing runs before a subscriber asks")
        let store = Store(state: Counter(), environment: ())
        store.subscribe(to: effect)
        store.subscribe(to: effect)
        await eventually { store.state.count == 2 }
        #expect(finished.current == 2)
        gate.update { $0 = false }
        let cancelled = Store(state: Counter(), environment: ())
        cancelled.send(.incrementLaterCancellable(id: "x", cancelInFlight: false))
        cancelled.subscribe(to: effect)
        await eventually { started.current == 3 }
        _ = consume cancelled
        gate.update { $0 = true }
        try? await Task.sleep(for: .milliseconds(80))
        #expect(finished.current == 2, "releasing the store cancelled the task")
    }

    @Test func releasingTheStoreCancelsWorkAndDropsLateActions() async {
        var store: Store<Counter>? = Store(state: Counter(), environment: ())
        let cancelled = Locked(false)
        let delivered = Locked(false)
        let slow = delayed(Counter.Action.increment, milliseconds: 30)
            .handleEvents(
                receiveOutput: { @Sendable _ in delivered.update { $0 = true } },
                receiveCancel: { @Sendable in cancelled.update { $0 = true } }
            )
            .eraseToAnyPublisher()
        store?.subscribe(to: slow)
        store?.subscribe(to: immediate(.increment))
        weak let weakStore = store
        store = nil
        #expect(weakStore == nil, "effects in flight do not keep the store alive")
        #expect(cancelled.current)
        try? await Task.sleep(for: .milliseconds(60))
        await mainQueueTurn()
        #expect(!delivered.current)
    }

    @Test func storeCanBeReleasedFromInsideItsOwnEffect() async {
        var store: Store<Counter>? = Store(state: Counter(), environment: ())
        store?.subscribe(to: immediate(.increment))
        await mainQueueTurn()
        #expect(store?.state.count == 1)
        store = nil
        await mainQueueTurn()
    }
}

/// Effects that never end, started and cancelled by id: for the order of the effect rule.
private struct Lasting: ModelProtocol {
    enum Action: Equatable, Sendable {
        case start(String)
        /// Cancels "a" and "c", replaces "b" (cancel in flight), and starts one with no id.
        case mixed
    }

    static func update(state: Lasting, action: Action, environment: Void) -> Update<Lasting> {
        let lasting = Empty<Action, Never>(completeImmediately: false).eraseToAnyPublisher()
        switch action {
        case .start(let id):
            return Update(state: state, fx: lasting).cancellable(id: id)
        case .mixed:
            return Update(
                state: state,
                effects: Effects(
                    items: [
                        .init(publisher: lasting, cancelID: CancelID("b"), cancelInFlight: true),
                        .init(publisher: lasting),
                    ],
                    cancellations: [CancelID("a"), CancelID("c")]
                ))
        }
    }
}

@MainActor
@Suite("Store: the effect rule")
struct EffectRuleTests {
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
