// Combine's `combineLatest` (two to four publishers, with or without a transform), which
// OpenCombine does not have. As Combine documents it: once every upstream has published,
// each new element from any of them publishes the latest of all; while the downstream
// wants nothing, only the newest combination is kept; it finishes once every upstream
// has finished, and fails as soon as one fails (the others are then cancelled).
import Foundation

extension Publishers {
    /// The latest elements of two publishers, each time either publishes.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public init(_ a: A, _ b: B) { (self.a, self.b) = (a, b) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            CombineLatestSubscription.start([a.erasedToAny(), b.erasedToAny()], for: subscriber) {
                ($0[0] as! A.Output, $0[1] as! B.Output)
            }
        }
    }

    /// The latest elements of three publishers, each time any of them publishes.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public init(_ a: A, _ b: B, _ c: C) { (self.a, self.b, self.c) = (a, b, c) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            CombineLatestSubscription.start([a.erasedToAny(), b.erasedToAny(), c.erasedToAny()], for: subscriber) {
                ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
            }
        }
    }

    /// The latest elements of four publishers, each time any of them publishes.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public init(_ a: A, _ b: B, _ c: C, _ d: D) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            CombineLatestSubscription.start(
                [a.erasedToAny(), b.erasedToAny(), c.erasedToAny(), d.erasedToAny()], for: subscriber
            ) {
                ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
            }
        }
    }
}

extension Publisher {
    /// This publisher's latest element and `other`'s, each time either publishes.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// `transform` of this publisher's latest element and `other`'s, each time either publishes.
    public func combineLatest<P: Publisher, Result>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> Result
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, Result> where P.Failure == Failure {
        combineLatest(other).map(transform)
    }

    /// The latest elements of this publisher, `b` and `c`, each time any publishes.
    public func combineLatest<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> Publishers.CombineLatest3<Self, B, C>
    where B.Failure == Failure, C.Failure == Failure {
        Publishers.CombineLatest3(self, b, c)
    }

    /// `transform` of the latest elements of this publisher, `b` and `c`.
    public func combineLatest<B: Publisher, C: Publisher, Result>(
        _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> Result
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, B, C>, Result>
    where B.Failure == Failure, C.Failure == Failure {
        combineLatest(b, c).map(transform)
    }

    /// The latest elements of this publisher, `b`, `c` and `d`, each time any publishes.
    public func combineLatest<B: Publisher, C: Publisher, D: Publisher>(
        _ b: B, _ c: C, _ d: D
    ) -> Publishers.CombineLatest4<Self, B, C, D>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.CombineLatest4(self, b, c, d)
    }

    /// `transform` of the latest elements of this publisher, `b`, `c` and `d`.
    public func combineLatest<B: Publisher, C: Publisher, D: Publisher, Result>(
        _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> Result
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, B, C, D>, Result>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        combineLatest(b, c, d).map(transform)
    }

    /// This publisher with its elements as `Any`, so upstreams of different types can be
    /// held in one array.
    fileprivate func erasedToAny() -> AnyPublisher<Any, Failure> {
        map { $0 as Any }.eraseToAnyPublisher()
    }
}

/// One downstream's view of a combineLatest: the latest element of each upstream, and the
/// newest combination the downstream has not yet asked for.
final class CombineLatestSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private let combine: ([Any]) -> Downstream.Input
    // Guarded by `lock`.
    private var downstream: Downstream?
    private var upstreams: [(any Subscription)?]
    private var latest: [Any]
    private var received: [Bool]
    private var demand = Subscribers.Demand.none
    private var pending: Downstream.Input?
    private var unfinished: Int
    private var end: Subscribers.Completion<Downstream.Failure>?
    private var delivering = false

    private init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        upstreams = Array(repeating: nil, count: count)
        latest = Array(repeating: (), count: count)
        received = Array(repeating: false, count: count)
        unfinished = count
    }

    static func start(
        _ publishers: [AnyPublisher<Any, Downstream.Failure>], for subscriber: Downstream,
        combine: @escaping ([Any]) -> Downstream.Input
    ) {
        let subscription = CombineLatestSubscription(downstream: subscriber, count: publishers.count, combine: combine)
        subscriber.receive(subscription: subscription)
        for (index, publisher) in publishers.enumerated() {
            publisher.subscribe(Side(owner: subscription, index: index))
        }
        subscription.drain()
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
        pending = nil
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

    fileprivate func receive(_ element: Any, at index: Int) {
        lock.lock()
        if downstream != nil, end == nil, index < latest.count {
            latest[index] = element
            received[index] = true
            if !received.contains(false) { pending = combine(latest) }
        }
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
            end = completion
            pending = nil
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
            if let element = pending, demand > 0 {
                pending = nil
                demand -= 1
                delivering = true
                lock.unlock()
                let more = target.receive(element)
                lock.lock()
                delivering = false
                demand += more
            } else if pending == nil, let completion = end {
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
        typealias Input = Any
        typealias Failure = Downstream.Failure
        let owner: CombineLatestSubscription
        let index: Int
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: any Subscription) { owner.attach(subscription, at: index) }

        func receive(_ input: Any) -> Subscribers.Demand {
            owner.receive(input, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) { owner.receive(completion: completion, at: index) }
    }
}
