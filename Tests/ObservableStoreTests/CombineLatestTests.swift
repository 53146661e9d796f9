import ObservableStore
import Testing

/// Combine's `combineLatest` and the merges of five to eight publishers, which OpenCombine
/// lacks, as Combine documents them.
@Suite("combineLatest and Merge5…Merge8")
struct CombineLatestTests {
    typealias Collector = MergeTests.Collector

    @Test func nothingIsPublishedUntilEveryUpstreamHasPublished() {
        let names = PassthroughSubject<String, Never>()
        let counts = PassthroughSubject<Int, Never>()
        let combined = Collector(names.combineLatest(counts) { "\($0)×\($1)" })
        names.send("a")
        names.send("b")
        #expect(combined.received == [], "counts has published nothing yet")
        counts.send(1)
        names.send("c")
        counts.send(2)
        #expect(combined.received == ["b×1", "c×1", "c×2"], "each new element, with the latest of the other")
        names.send(completion: .finished)
        #expect(!combined.finished, "counts is still publishing")
        counts.send(3)
        counts.send(completion: .finished)
        #expect(combined.received.last == "c×3")
        #expect(combined.finished)
    }

    @Test func threeAndFourUpstreamsAndAFailureEndsItAtOnce() {
        let three = Collector(Just(1).combineLatest(Just("x"), Just(true)).map { "\($0) \($1) \($2)" })
        #expect(three.received == ["1 x true"])
        #expect(three.finished)
        let four = Collector(Just(1).combineLatest(Just(2), Just(3), Just(4)) { $0 + $1 + $2 + $3 })
        #expect(four.received == [10])
        struct Broken: Error {}
        let good = PassthroughSubject<Int, Broken>()
        let bad = PassthroughSubject<Int, Broken>()
        let failing = Collector(good.combineLatest(bad).map { $0 + $1 })
        good.send(1)
        bad.send(completion: .failure(Broken()))
        good.send(2)
        #expect(failing.received == [])
        if case .failure? = failing.completion {
        } else {
            Issue.record("failed at once: \(String(describing: failing.completion))")
        }
    }

    @Test func whileTheDownstreamWantsNothingOnlyTheNewestCombinationIsKept() {
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var subscription: (any Subscription)?
        left.combineLatest(right) { $0 * 10 + $1 }.subscribe(
            AnySubscriber(
                receiveSubscription: { subscription = $0 },
                receiveValue: {
                    received.append($0)
                    return .none
                },
                receiveCompletion: { _ in }))
        left.send(1)
        right.send(1)
        right.send(2)
        #expect(received == [])
        subscription?.request(.max(1))
        #expect(received == [12])
        subscription?.cancel()
    }

    @Test func fiveToEightPublishersMerge() {
        let five = Collector(Just(1).merge(with: Just(2), Just(3), Just(4), Just(5)))
        #expect(five.received == [1, 2, 3, 4, 5])
        #expect(five.finished)
        let eight = Collector(
            Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)))
        #expect(eight.received == Array(1...8))
        let six = Collector(Publishers.Merge6(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)))
        #expect(six.received.count == 6)
        let seven = Collector(Just(0).merge(with: Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)))
        #expect(seven.received.count == 7)
    }
}
