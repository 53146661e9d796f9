import ObservableStore
import StoreTesting
import Testing

/// Some of `EffectTests`, written with a TestStore: each state change and each action an
/// effect sends is stated, and `finish` checks nothing else happened (no late action from
/// a cancelled effect, nothing left running). The effects that are cancelled sleep on a
/// test clock, so a machine that stalls between two sends cannot let one finish first.
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
        let clock = TestClock()
        let store = TestStore(state: Debouncer(), environment: .init(clock: clock), timeout: .seconds(30))
        await store.send(.countLater(id: "search", cancelInFlight: false))  // due at 50 ms
        await store.send(.countSoon)  // due at 20 ms
        await stall()
        await store.send(.cancel(id: "search"))
        await store.advance(clock, by: .milliseconds(20))
        await store.receive(.count) { $0.count = 1 }  // the one not cancelled
        await store.advance(clock, by: .milliseconds(30))
        await store.finish()  // the cancelled effect's count would be unreceived here
    }

    @Test func cancelInFlightKeepsOnlyTheNewest() async {
        let clock = TestClock()
        let store = TestStore(state: Debouncer(), environment: .init(clock: clock), timeout: .seconds(30))
        for _ in 0..<5 {
            await store.send(.countLater(id: "debounce", cancelInFlight: true))
            await stall()
            // Each earlier one would be due 20 ms after the next send, and unreceived there.
            await store.advance(clock, by: .milliseconds(30))
        }
        await store.advance(clock, by: .milliseconds(19))
        #expect(store.state.count == 0, "the newest, sent at 120 ms, is due at 170 ms")
        await store.advance(clock, by: .milliseconds(1))
        await store.receive(.count) { $0.count = 1 }
        await store.finish()
    }

    @Test func cancellingAnUnknownIdIsHarmless() async {
        let store = TestStore(state: Counter(count: 3), environment: (), timeout: .seconds(30))
        await store.send(.cancel(id: "nothing"))
        await store.finish()
    }

    /// Longer than any effect sleeps: real time passing between sends, as on a busy machine.
    private func stall() async {
        try? await Task.sleep(for: .milliseconds(60))
    }
}

/// Counts once an effect's sleep on the environment's clock ends: a search field's
/// debounce, cancellable by id.
struct Debouncer: ModelProtocol {
    var count = 0

    enum Action: Equatable, Sendable {
        case countLater(id: String, cancelInFlight: Bool)
        case countSoon
        case cancel(id: String)
        case count
    }

    struct Environment { let clock: any Clock<Duration> }

    static func update(state: Debouncer, action: Action, environment: Environment) -> Update<Debouncer> {
        switch action {
        case .countLater(let id, let cancelInFlight):
            return Update(state: state, fx: countAfter(.milliseconds(50), on: environment.clock))
                .cancellable(id: id, cancelInFlight: cancelInFlight)
        case .countSoon:
            return Update(state: state, fx: countAfter(.milliseconds(20), on: environment.clock))
        case .cancel(let id):
            return Update(state: state).cancelFx(id: id)
        case .count:
            var next = state
            next.count += 1
            return Update(state: next)
        }
    }

    private static func countAfter(_ delay: Duration, on clock: any Clock<Duration>) -> Fx<Action> {
        Fx<Action>.task {
            try? await clock.sleep(for: delay)
            return .count
        }
    }
}
