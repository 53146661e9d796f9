import ObservableStore
import Testing

/// Combine's `merge(with:)` and `Publishers.MergeMany`, which OpenCombine lacks, as
/// Combine documents them: elements in the order they arrive, the end once every upstream
/// has finished, a failure at once (the others cancelled), and the downstream's demand kept.
@Suite("merge(with:) and MergeMany")
struct MergeTests {
    /// Collects what a publisher sends, and how it ends.
    final class Collector<Output: Sendable, Failure: Error>: @unchecked Sendable {
        var received: [Output] = []
        var completion: Subscribers.Completion<Failure>?
        var cancellable: AnyCancellable?

        init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
            cancellable = publisher.sink(
                receiveCompletion: { [unowned self] in completion = $0 },
                receiveValue: { [unowned self] in received.append($0) })
        }

        var finished: Bool {
            if case .finished? = completion { return true }
            return false
        }
    }

    @Test func immediatePublishersArriveInTheOrderTheyWereMergedAndFinishOnce() {
        let merged = Collector(Just(1).merge(with: Just(2)))
        #expect(merged.received == [1, 2])
        #expect(merged.finished)
        let four = Collector(Just("a").merge(with: Just("b"), Just("c"), Just("d")))
        #expect(four.received == ["a", "b", "c", "d"])
        #expect(four.finished)
    }

    @Test func elementsComeAsTheyArriveAndTheEndWaitsForEveryUpstream() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let merged = Collector(first.merge(with: second))
        first.send(1)
        second.send(10)
        first.send(2)
        first.send(completion: .finished)
        #expect(merged.received == [1, 10, 2])
        #expect(merged.completion == nil, "the second has not finished")
        second.send(11)
        second.send(completion: .finished)
        #expect(merged.received == [1, 10, 2, 11])
        #expect(merged.finished)
    }

    struct Broken: Error, Equatable {}

    @Test func aFailureEndsTheMergeAtOnceAndCancelsTheOthers() {
        let healthy = PassthroughSubject<Int, Broken>()
        let failing = PassthroughSubject<Int, Broken>()
        var healthyCancelled = false
        let merged = Collector(
            healthy.handleEvents(receiveCancel: { healthyCancelled = true }).merge(with: failing))
        healthy.send(1)
        failing.send(completion: .failure(Broken()))
        healthy.send(2)
        #expect(merged.received == [1])
        #expect(merged.completion == .failure(Broken()))
        #expect(healthyCancelled)
    }

    @Test func theDownstreamsDemandIsKeptAndWhatArrivesMeanwhileWaits() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription = $0 },
            receiveValue: {
                received.append($0)
                return .none
            },
            receiveCompletion: { _ in received.append(-1) })
        Publishers.MergeMany(first, second).subscribe(subscriber)
        first.send(1)
        second.send(2)
        first.send(3)
        #expect(received.isEmpty, "nothing asked for yet")
        subscription?.request(.max(2))
        #expect(received == [1, 2])
        first.send(completion: .finished)
        second.send(completion: .finished)
        #expect(received == [1, 2], "the end waits for the element still waiting")
        subscription?.request(.max(1))
        #expect(received == [1, 2, 3, -1])
    }

    @Test func mergeManyTakesASequenceAndOneMore() {
        let merged = Collector(Publishers.MergeMany([Just(1), Just(2)]).merge(with: Just(3)))
        #expect(merged.received == [1, 2, 3])
        #expect(merged.finished)
        let none = Collector(Publishers.MergeMany([Just<Int>]()))
        #expect(none.received.isEmpty && none.finished)
    }

    @Test func cancellingStopsEveryUpstream() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var cancelled = 0
        let merged = Collector(
            first.handleEvents(receiveCancel: { cancelled += 1 })
                .merge(with: second.handleEvents(receiveCancel: { cancelled += 1 })))
        first.send(1)
        merged.cancellable?.cancel()
        first.send(2)
        #expect(merged.received == [1])
        #expect(cancelled == 2)
    }
}
