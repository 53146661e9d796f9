import ObservableStore
import Testing

/// A parent with an optional child counter and a keyed collection of counters.
struct Parent: ModelProtocol {
    var child: Counter? = Counter()
    var counters: [String: Counter] = [:]
    var log: [String] = []

    enum Action: Equatable, Sendable {
        case child(Counter.Action)
        case counter(key: String, Counter.Action)
        case note(String)
        case batch([Counter.Action])
    }

    static func update(state: Parent, action: Action, environment: Void) -> Update<Parent> {
        switch action {
        case .child(let action):
            return ChildCursor.update(state: state, action: action, environment: ())
        case .counter(let key, let action):
            return CounterCursor.update(state: state, action: action, key: key, environment: ())
        case .note(let text):
            var next = state
            next.log.append(text)
            return Update(state: next)
        case .batch(let actions):
            return update(state: state, actions: actions.map(Action.child), environment: ())
        }
    }
}

enum ChildCursor: CursorProtocol {
    static func get(state: Parent) -> Counter { state.child ?? Counter() }
    static func set(state: Parent, inner: Counter) -> Parent {
        var next = state
        next.child = inner
        return next
    }
    static func tag(_ action: Counter.Action) -> Parent.Action { .child(action) }
}

enum CounterCursor: KeyedCursorProtocol {
    static func get(state: Parent, key: String) -> Counter? { state.counters[key] }
    static func set(state: Parent, inner: Counter, key: String) -> Parent {
        var next = state
        next.counters[key] = inner
        return next
    }
    static func tag(action: Counter.Action, key: String) -> Parent.Action { .counter(key: key, action) }
}

@MainActor
@Suite("Composition: cursors, batches, view stores, bindings")
struct CompositionTests {
    @Test func cursorRoutesChildActionsAndTagsEffects() async {
        let store = Store(state: Parent(), environment: ())
        store.send(.child(.increment))
        #expect(store.state.child?.count == 1)
        var seen: [Parent.Action] = []
        let subscription = store.actions.sink { seen.append($0) }
        store.send(.child(.incrementLater))
        await eventually { store.state.child?.count == 2 }
        #expect(seen == [.child(.incrementLater), .child(.increment)], "child effects come back tagged")
        _ = subscription
    }

    @Test func cursorKeepsTheChildTransaction() {
        let update = ChildCursor.update(state: Parent(), action: .animatedSet(3), environment: ())
        #expect(update.state.child?.count == 3)
        #expect(update.transaction?.animation == .easeOut())
    }

    @Test func getSetTagWithAbsentChildIsANoOp() {
        var parent = Parent()
        parent.child = nil
        let update = Parent.update(
            get: { $0.child },
            set: {
                var next = $0
                next.child = $1
                return next
            },
            tag: Parent.Action.child,
            state: parent,
            action: .incrementLater,
            environment: ()
        )
        #expect(update.state == parent)
        #expect(update.effects.isEmpty)
    }

    @Test func keyedCursorUpdatesOnlyItsKey() {
        var parent = Parent()
        parent.counters = ["a": Counter(count: 1), "b": Counter(count: 10)]
        let update = CounterCursor.update(state: parent, action: .increment, key: "b", environment: ())
        #expect(update.state.counters == ["a": Counter(count: 1), "b": Counter(count: 11)])
    }

    @Test func keyedCursorMissingKeyChangesNothing() {
        var parent = Parent()
        parent.counters = ["a": Counter(count: 1)]
        let update = CounterCursor.update(state: parent, action: .incrementLater, key: "zzz", environment: ())
        #expect(update.state == parent)
        #expect(update.effects.isEmpty)
        #expect(update.transaction == nil)
    }

    @Test func keyedCursorKeepsTransactionAndTagsEffectsWithKey() async {
        var parent = Parent()
        parent.counters = ["a": Counter()]
        let update = CounterCursor.update(state: parent, action: .animatedSet(9), key: "a", environment: ())
        #expect(update.transaction?.animation == .easeOut())
        let store = Store(state: parent, environment: ())
        var seen: [Parent.Action] = []
        let subscription = store.actions.sink { seen.append($0) }
        store.send(.counter(key: "a", .incrementTwiceNow))
        await mainQueueTurn()
        #expect(store.state.counters["a"]?.count == 2)
        #expect(seen.dropFirst() == [.counter(key: "a", .increment), .counter(key: "a", .increment)])
        _ = subscription
    }

    @Test func updateWithActionsThreadsStateAndMergesImmediateEffects() async {
        let store = Store(state: Parent(), environment: ())
        store.send(.batch([.increment, .incrementTwiceNow, .setCount(10)]))
        #expect(store.state.child?.count == 10)
        await mainQueueTurn()
        #expect(store.state.child?.count == 12)
    }

    @Test func updateWithActionsMergesDelayedEffects() async {
        let store = Store(state: Parent(), environment: ())
        store.send(.batch([.incrementLater, .incrementLater, .incrementLater]))
        #expect(store.effectsInFlight == 3)
        await eventually { store.state.child?.count == 3 }
    }

    @Test func updateWithActionsLastTransactionWins() {
        let animated = Counter.update(state: Counter(), actions: [.animatedSet(1), .increment], environment: ())
        #expect(animated.state.count == 2)
        #expect(animated.transaction == nil, "the last update had no transaction")
        let last = Counter.update(state: Counter(), actions: [.increment, .animatedSet(5)], environment: ())
        #expect(last.transaction?.animation == .easeOut())
        #expect(last.state.count == 5)
    }

    @Test func addressForwardTagsAndSends() {
        let store = Store(state: Parent(), environment: ())
        let sendToChild = Address.forward(send: store.send, tag: Parent.Action.child)
        sendToChild(.setCount(4))
        #expect(store.state.child?.count == 4)
    }

    @Test func viewStoreReadsThroughAndSendsTagged() {
        let store = Store(state: Parent(), environment: ())
        let child = store.viewStore(get: { $0.child ?? Counter() }, tag: Parent.Action.child)
        child.send(.increment)
        child.send(.increment)
        #expect(child.state.count == 2)
        #expect(store.state.child?.count == 2)
        store.send(.child(.setCount(7)))
        #expect(child.state.count == 7, "a view store reads the parent's current state")
    }

    @Test func nestedViewStoresCompose() {
        struct Root: ModelProtocol {
            var parent = Parent()
            enum Action { case parent(Parent.Action) }
            static func update(state: Root, action: Action, environment: Void) -> Update<Root> {
                switch action {
                case .parent(let action):
                    return update(
                        get: { $0.parent },
                        set: {
                            var n = $0
                            n.parent = $1
                            return n
                        },
                        tag: Action.parent, state: state, action: action, environment: ())
                }
            }
        }
        let store = Store(state: Root(), environment: ())
        let parent = store.viewStore(get: \.parent, tag: Root.Action.parent)
        let child = parent.viewStore(get: { $0.child ?? Counter() }, tag: Parent.Action.child)
        child.send(.setCount(3))
        #expect(store.state.parent.child?.count == 3)
        #expect(child.state.count == 3)
    }

    @Test func bindingReadsStateAndWritesThroughAnAction() {
        let store = Store(state: Parent(), environment: ())
        var sent: [Parent.Action] = []
        let subscription = store.actions.sink { sent.append($0) }
        let count = store.binding(get: { $0.child?.count ?? 0 }, tag: { .child(.setCount($0)) })
        #expect(count.wrappedValue == 0)
        count.wrappedValue = 5
        #expect(store.state.child?.count == 5)
        #expect(sent == [.child(.setCount(5))])
        _ = subscription
    }

    @Test func bindingProjectsWritableMembers() {
        let store = Store(state: Parent(), environment: ())
        let child = store.binding(get: { $0.child ?? Counter() }, tag: { .child(.setCount($0.count)) })
        child.count.wrappedValue = 12
        #expect(store.state.child?.count == 12)
    }
}
