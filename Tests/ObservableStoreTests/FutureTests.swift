import ObservableStore
import Testing

struct Boom: Error, Equatable {}

/// Futures fulfil from the task that ran the closure, so these tests collect what they
/// receive under a lock.
@MainActor
@Suite("Future bridges from async closures")
struct FutureTests {
    @Test func nonThrowingFutureDeliversValueThenFinishes() async {
        let received = Locked<[String]>([])
        let subscription = Future { () async -> Int in
            try? await Task.sleep(for: .milliseconds(5))
            return 42
        }
        .sink(
            receiveCompletion: { @Sendable _ in received.update { $0.append("finished") } },
            receiveValue: { @Sendable value in received.update { $0.append("\(value)") } }
        )
        await eventually { received.current.count == 2 }
        #expect(received.current == ["42", "finished"])
        _ = subscription
    }

    @Test func throwingFutureDeliversValueOrError() async {
        let results = Locked<[Result<Int, Boom>]>([])
        let ok = Future<Int, any Error> { () async throws -> Int in 7 }
        let bad = Future<Int, any Error> { () async throws -> Int in throw Boom() }
        var subscriptions: [AnyCancellable] = []
        for future in [ok, bad] {
            future.sink(
                receiveCompletion: { @Sendable completion in
                    if case .failure(let error) = completion {
                        results.update { $0.append(.failure(error as! Boom)) }
                    }
                },
                receiveValue: { @Sendable value in results.update { $0.append(.success(value)) } }
            ).store(in: &subscriptions)
        }
        await eventually { results.current.count == 2 }
        #expect(results.current.contains(.success(7)))
        #expect(results.current.contains(.failure(Boom())))
    }

    @Test func detachedFuturesDeliver() async {
        let values = Locked<[Int]>([])
        var subscriptions: [AnyCancellable] = []
        Future<Int, Never>.detached { 1 }
            .sink { @Sendable value in values.update { $0.append(value) } }
            .store(in: &subscriptions)
        Future<Int, any Error>.detached { 2 }
            .sink(receiveCompletion: { _ in }, receiveValue: { @Sendable value in values.update { $0.append(value) } })
            .store(in: &subscriptions)
        await eventually { values.current.count == 2 }
        #expect(values.current.sorted() == [1, 2])
    }

    @Test func futureEffectFeedsTheStore() async {
        let store = Store(state: Counter(), environment: ())
        store.subscribe(to: Future { () async -> Counter.Action in .setCount(99) }.eraseToAnyPublisher())
        await eventually { store.state.count == 99 }
        await eventually { store.effectsInFlight == 0 }
    }
}
