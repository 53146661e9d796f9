import Logging
import ObservableStore
import Testing

@MainActor
@Suite("Store: sending actions")
struct StoreSendTests {
    @Test func sendAdvancesStateSynchronously() {
        let store = Store(state: Counter(), environment: ())
        store.send(.increment)
        #expect(store.state.count == 1)
        store.send(.setCount(42))
        #expect(store.state.count == 42)
        store.send(.decrement)
        #expect(store.state.count == 41)
    }

    @Test func equalStateIsNotSetOrPublished() {
        let store = Store(state: Counter(), environment: ())
        var willChange = 0
        var published: [Int] = []
        let a = store.objectWillChange.sink { willChange += 1 }
        let b = store.$state.sink { published.append($0.count) }
        store.send(.noop)
        store.send(.setCount(0))
        #expect(willChange == 0)
        #expect(published == [0], "only the value current at subscription")
        store.send(.increment)
        store.send(.setCount(1))
        store.send(.increment)
        #expect(willChange == 2)
        #expect(published == [0, 1, 2])
        _ = (a, b)
    }

    @Test func equalStateStillRunsItsEffects() async {
        let store = Store(state: Counter(), environment: ())
        store.send(.incrementLater)
        #expect(store.state.count == 0)
        #expect(store.effectsInFlight == 1)
        await eventually { store.state.count == 1 }
    }

    @Test func actionsPublisherSeesEachActionBeforeItsUpdate() {
        let store = Store(state: Counter(), environment: ())
        var seen: [(Counter.Action, Int)] = []
        let subscription = store.actions.sink { seen.append(($0, store.state.count)) }
        store.send(.increment)
        store.send(.setCount(10))
        store.send(.noop)
        #expect(seen.map(\.0) == [.increment, .setCount(10), .noop])
        #expect(seen.map(\.1) == [0, 1, 10], "each action is published before its update applies")
        _ = subscription
    }

    @Test func updatesPublisherSeesEachUpdateAfterItApplies() {
        let store = Store(state: Counter(), environment: ())
        var seen: [(Int, Int)] = []
        let subscription = store.updates.sink { seen.append(($0.state.count, store.state.count)) }
        store.send(.increment)
        store.send(.animatedSet(5))
        #expect(seen.map(\.0) == [1, 5])
        #expect(seen.map(\.1) == [1, 5], "the store's state is already the update's state")
        _ = subscription
    }

    @Test func createRunsInitialStateAndEffects() async {
        let store = Store<Counter>(
            create: { _ in Update(state: Counter(count: 5), fx: immediate(.increment)) },
            environment: ()
        )
        #expect(store.state.count == 5)
        await mainQueueTurn()
        #expect(store.state.count == 6)
    }

    @Test func initWithActionSendsIt() {
        let store = Store(state: Counter(count: 1), action: .increment, environment: ())
        #expect(store.state.count == 2)
    }

    @Test func sameActionsInSameOrderGiveSameState() {
        let actions: [Counter.Action] = [
            .increment, .setCount(7), .decrement, .noop, .increment, .animatedSet(3), .increment,
        ]
        let first = Store(state: Counter(), environment: ())
        let second = Store(state: Counter(), environment: ())
        for action in actions { first.send(action) }
        for action in actions { second.send(action) }
        #expect(first.state == second.state)
        #expect(first.state.count == 4)
    }
}

/// Collects log messages, for the opt-in action logging.
struct CapturingLogHandler: LogHandler {
    let messages: Locked<[String]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.update { $0.append("\(event.level) \(event.message)") }
    }
}

@MainActor
@Suite("Store: logging")
struct StoreLoggingTests {
    @Test func actionsAreLoggedOnlyWhenALoggerIsSet() {
        let messages = Locked<[String]>([])
        let store = Store(state: Counter(), environment: ())
        store.send(.increment)
        store.logger = Logger(label: "test") { _ in CapturingLogHandler(messages: messages) }
        store.send(.setCount(5))
        store.send(.noop)
        #expect(
            messages.current == ["debug action: setCount(5)", "trace state: Counter(count: 5)", "debug action: noop"])
    }
}
