// Combine's merge operators, which OpenCombine does not have: `merge(with:)` (two to eight
// publishers) and `Publishers.MergeMany`. Elements are passed on as they arrive from any
// upstream; the merged publisher finishes once every upstream has finished and fails as
// soon as one fails (the others are then cancelled), as Combine documents.
import Foundation

extension Publishers {
    /// The elements of any number of upstream publishers of one type, as they arrive.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers merged, in the order they are subscribed to.
        public let publishers: [Upstream]

        public init(_ upstream: Upstream...) { publishers = upstream }

        public init<Others: Swift.Sequence>(_ upstream: Others) where Others.Element == Upstream {
            publishers = Array(upstream)
        }

        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(publishers, for: subscriber)
        }

        /// This merge with one more publisher.
        public func merge(with other: Upstream) -> MergeMany { MergeMany(publishers + [other]) }
    }

    /// The elements of two publishers, as they arrive.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public init(_ a: A, _ b: B) { (self.a, self.b) = (a, b) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start([a.eraseToAnyPublisher(), b.eraseToAnyPublisher()], for: subscriber)
        }
    }

    /// The elements of three publishers, as they arrive.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public init(_ a: A, _ b: B, _ c: C) { (self.a, self.b, self.c) = (a, b, c) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher()], for: subscriber)
        }
    }

    /// The elements of four publishers, as they arrive.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public init(_ a: A, _ b: B, _ c: C, _ d: D) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher()],
                for: subscriber)
        }
    }
}

extension Publisher {
    /// This publisher's elements and `other`'s, as they arrive.
    public func merge<B: Publisher>(with other: B) -> Publishers.Merge<Self, B>
    where B.Output == Output, B.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// This publisher's elements and those of `b` and `c`, as they arrive.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// This publisher's elements and those of `b`, `c` and `d`, as they arrive.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
        -> Publishers.Merge4<Self, B, C, D>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure
    {
        Publishers.Merge4(self, b, c, d)
    }
}

/// One downstream's view of a merge: it asks every upstream for all it has, keeps what
/// arrives while the downstream wants nothing more, and passes elements and the end on
/// one at a time (a subscriber is never called from two places at once).
final class MergeSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var downstream: Downstream?
    private var upstreams: [(any Subscription)?]
    private var demand = Subscribers.Demand.none
    private var waiting: [Downstream.Input] = []
    private var unfinished: Int
    private var end: Subscribers.Completion<Downstream.Failure>?
    private var delivering = false

    private init(downstream: Downstream, count: Int) {
        self.downstream = downstream
        upstreams = Array(repeating: nil, count: count)
        unfinished = count
        if count == 0 { end = .finished }
    }

    static func start<Upstream: Publisher>(_ publishers: [Upstream], for subscriber: Downstream)
    where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        let merge = MergeSubscription(downstream: subscriber, count: publishers.count)
        subscriber.receive(subscription: merge)
        for (index, publisher) in publishers.enumerated() {
            publisher.subscribe(Side(merge: merge, index: index))
        }
        merge.drain()
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        demand += more
        lock.unlock()
        drain()
    }

    func cancel() {
        lock.lock()
        let cancelled = upstreams
        upstreams = []
        downstream = nil
        waiting = []
        lock.unlock()
        for upstream in cancelled { upstream?.cancel() }
    }

    fileprivate func attach(_ subscription: any Subscription, at index: Int) {
        lock.lock()
        guard downstream != nil, index < upstreams.count, upstreams[index] == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams[index] = subscription
        lock.unlock()
        subscription.request(.unlimited)
    }

    fileprivate func receive(_ element: Downstream.Input) {
        lock.lock()
        if downstream != nil, end == nil { waiting.append(element) }
        lock.unlock()
        drain()
    }

    fileprivate func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        lock.lock()
        guard downstream != nil, end == nil else {
            lock.unlock()
            return
        }
        var others: [(any Subscription)?] = []
        switch completion {
        case .failure:
            end = completion  // at once: what is still waiting is dropped, the others cancelled
            waiting = []
            others = upstreams
            upstreams = Array(repeating: nil, count: upstreams.count)
        case .finished:
            if index < upstreams.count { upstreams[index] = nil }
            unfinished -= 1
            if unfinished == 0 { end = .finished }
        }
        lock.unlock()
        for other in others { other?.cancel() }
        drain()
    }

    /// Passes on what the downstream may have now, from one caller at a time.
    private func drain() {
        lock.lock()
        while !delivering, let target = downstream {
            if !waiting.isEmpty, demand > 0 {
                let element = waiting.removeFirst()
                demand -= 1
                delivering = true
                lock.unlock()
                let more = target.receive(element)
                lock.lock()
                delivering = false
                demand += more
            } else if waiting.isEmpty, let completion = end {
                downstream = nil
                lock.unlock()
                target.receive(completion: completion)
                return
            } else {
                break
            }
        }
        lock.unlock()
    }

    /// The subscriber to one upstream.
    private struct Side: Subscriber {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure
        let merge: MergeSubscription
        let index: Int
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { merge.attach(subscription, at: index) }

        func receive(_ input: Input) -> Subscribers.Demand {
            merge.receive(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) { merge.receive(completion: completion, at: index) }
    }
}
