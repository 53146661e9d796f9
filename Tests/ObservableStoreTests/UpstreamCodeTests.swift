// Code as it is written for upstream ObservableStore, with only the SwiftUI import and the
// views removed: it begins `import Combine`, and its effects run on DispatchQueue.main.
// On Linux that was "no such module 'Combine'", then "DispatchQueue does not conform to
// Scheduler". That this file compiles is half the test.
import Combine
import Foundation
import ObservableStore
import TestSupport
import Testing

/// A search box as upstream examples write it: a debounced lookup on the main queue.
struct UpstreamSearch: ModelProtocol {
    var query = ""
    var results: [String] = []

    enum Action: Equatable {
        case setQuery(String)
        case found([String])
    }

    struct Environment {
        var lookup: (String) -> AnyPublisher<[String], Never>
    }

    static func update(state: UpstreamSearch, action: Action, environment: Environment) -> Update<UpstreamSearch> {
        var next = state
        switch action {
        case .setQuery(let text):
            next.query = text
            let fx: Fx<Action> = environment.lookup(text)
                .delay(for: .milliseconds(5), scheduler: DispatchQueue.main)
                .receive(on: DispatchQueue.main)
                .map(Action.found)
                .eraseToAnyPublisher()
            return Update(state: next, fx: fx)
        case .found(let items):
            next.results = items
            return Update(state: next)
        }
    }
}

@MainActor
@Suite("upstream code compiles and runs")
struct UpstreamCodeTests {
    @Test func aDelayOnTheMainQueueDeliversItsAction() async {
        let store = Store(
            state: UpstreamSearch(),
            environment: .init(lookup: { Just([$0 + "!"]).eraseToAnyPublisher() })
        )
        store.send(.setQuery("swift"))
        #expect(store.state.results == [], "delayed, not synchronous")
        await eventually { !store.state.results.isEmpty }
        #expect(store.state.results == ["swift!"])
    }

    /// In a CI run another suite held the main queue for 19 s right after the send: the
    /// wait must count only time the main queue was free, or it gives up before the
    /// three main-queue hops of this pipeline (the delay, `receive(on:)`, the store's
    /// mailbox) have had their turns.
    @Test func itsActionArrivesAfterOtherWorkHeldTheMainQueue() async {
        let store = Store(
            state: UpstreamSearch(),
            environment: .init(lookup: { Just([$0 + "!"]).eraseToAnyPublisher() })
        )
        store.send(.setQuery("swift"))
        DispatchQueue.main.async { Thread.sleep(forTimeInterval: 2) }
        await eventually(timeout: 1) { !store.state.results.isEmpty }
        #expect(store.state.results == ["swift!"])
    }
}
