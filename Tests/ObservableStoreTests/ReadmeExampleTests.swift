import ObservableStore
import StoreTesting
import Testing

/// The README's ObservableStore example, kept compiling and behaving as described.
struct Search: ModelProtocol {
    var query = ""
    var results: [String] = []

    enum Action: Equatable { case type(String), found([String]), clear }
    struct Environment { var lookup: @Sendable (String) async -> [String] }

    static func update(state: Search, action: Action, environment: Environment) -> Update<Search> {
        var next = state
        switch action {
        case .type(let text):
            next.query = text
            let fx = Future { Action.found(await environment.lookup(text)) }.eraseToAnyPublisher()
            // A new keystroke cancels the lookup still in flight.
            return Update(state: next, fx: fx).cancellable(id: "search", cancelInFlight: true)
        case .found(let items):
            next.results = items
            return Update(state: next)
        case .clear:
            return Update(state: Search()).cancelFx(id: "search")
        }
    }
}

@MainActor
@Suite("The README's example")
struct ReadmeExampleTests {
    @Test func searchKeepsOnlyTheLastLookup() async {
        let store = Store(
            state: Search(),
            environment: .init(lookup: { query in
                try? await Task.sleep(for: .milliseconds(query.count == 1 ? 40 : 5))
                return [query + "!"]
            }))
        store.send(.type("s"))
        store.send(.type("sw"))
        #expect(store.state.query == "sw")
        await eventually { store.state.results == ["sw!"] }
        try? await Task.sleep(for: .milliseconds(60))
        await mainQueueTurn()
        #expect(store.state.results == ["sw!"], "the first lookup was cancelled and never lands")
        store.send(.clear)
        #expect(store.state == Search())
    }

    /// The same test with a TestStore: every change is stated, and `finish` proves the
    /// first lookup never lands (it would be an action nobody received).
    @Test func searchKeepsOnlyTheLastLookupWithATestStore() async {
        let store = TestStore(
            state: Search(),
            environment: .init(lookup: { query in
                try? await Task.sleep(for: .milliseconds(query.count == 1 ? 40 : 5))
                return [query + "!"]
            }), timeout: .seconds(30))
        await store.send(.type("s")) { $0.query = "s" }
        await store.send(.type("sw")) { $0.query = "sw" }
        await store.receive(.found(["sw!"])) { $0.results = ["sw!"] }
        await store.send(.clear) { $0 = Search() }
        await store.finish()
    }
}
