import ObservableStore
import Testing

struct Boom: Error, Equatable {}

@MainActor
@Suite("Future bridges from async closures")
struct FutureTests {
    @Test func nonThrowingFutureDeliversValue() async {
        var values: [Int] = []
        var finished = false
        let subscription = Future { () async -> Int in
            try? await Task.sleep(for: .milliseconds(5))
            return 42
        }
        .sink(receiveCompletion: { _ in finished = true }, receiveValue: { values.append($0) })
        await eventually { finished }
        #expect(values == [42])
        _ = subscription
    }

    @Test func throwingFutureDeliversValueOrError() async {
        var results: [Result<Int, Boom>] = []
        let ok = Future<Int, any Error> { () async throws -> Int in 7 }
        let bad = Future<Int, any Error> { () async throws -> Int in throw Boom() }
        var subscriptions: [AnyCancellable] = []
        for future in [ok, bad] {
            future.sink(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { results.append(.failure(error as! Boom)) }
                },
                receiveValue: { results.append(.success($0)) }
            ).store(in: &subscriptions)
        }
        await eventually { results.count == 2 }
        #expect(results.contains(.success(7)))
        #expect(results.contains(.failure(Boom())))
    }

    @Test func detachedFuturesDeliver() async {
        var values: [Int] = []
        var subscriptions: [AnyCancellable] = []
        Future<Int, Never>.detached { 1 }.sink { values.append($0) }.store(in: &subscriptions)
        Future<Int, any Error>.detached { 2 }
            .sink(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
            .store(in: &subscriptions)
        await eventually { values.count == 2 }
        #expect(values.sorted() == [1, 2])
    }

    @Test func futureEffectFeedsTheStore() async {
        let store = Store(state: Counter(), environment: ())
        store.subscribe(to: Future { () async -> Counter.Action in .setCount(99) }.eraseToAnyPublisher())
        await eventually { store.state.count == 99 }
        await eventually { store.effectsInFlight == 0 }
    }
}
