// Combine's merges of five to eight publishers (`Publishers.Merge5`…`Merge8`, and
// `merge(with:_:_:_:…)`), which OpenCombine does not have. As the smaller merges in
// Merge.swift: elements as they arrive, the end once every upstream has finished, a failure
// at once.

extension Publishers {
    /// The elements of five publishers, as they arrive.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            (self.a, self.b, self.c, self.d, self.e) = (a, b, c, d, e)
        }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [
                    a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher(),
                    e.eraseToAnyPublisher(),
                ],
                for: subscriber)
        }
    }

    /// The elements of six publishers, as they arrive.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
        }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [
                    a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher(),
                    e.eraseToAnyPublisher(), f.eraseToAnyPublisher(),
                ],
                for: subscriber)
        }
    }

    /// The elements of seven publishers, as they arrive.
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure,
        F.Output == G.Output, F.Failure == G.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            (self.a, self.b, self.c, self.d, self.e, self.f, self.g) = (a, b, c, d, e, f, g)
        }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [
                    a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher(),
                    e.eraseToAnyPublisher(), f.eraseToAnyPublisher(), g.eraseToAnyPublisher(),
                ],
                for: subscriber)
        }
    }

    /// The elements of eight publishers, as they arrive.
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure,
        F.Output == G.Output, F.Failure == G.Failure,
        G.Output == H.Output, G.Failure == H.Failure
    {
        public typealias Output = A.Output
        public typealias Failure = A.Failure
        public let a: A
        public let b: B
        public let c: C
        public let d: D
        public let e: E
        public let f: F
        public let g: G
        public let h: H
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h) = (a, b, c, d, e, f, g, h)
        }
        public func receive<Downstream: Subscriber>(subscriber: Downstream)
        where Downstream.Input == Output, Downstream.Failure == Failure {
            MergeSubscription.start(
                [
                    a.eraseToAnyPublisher(), b.eraseToAnyPublisher(), c.eraseToAnyPublisher(), d.eraseToAnyPublisher(),
                    e.eraseToAnyPublisher(), f.eraseToAnyPublisher(), g.eraseToAnyPublisher(), h.eraseToAnyPublisher(),
                ],
                for: subscriber)
        }
    }
}

extension Publisher {
    /// This publisher's elements and those of 4 others, as they arrive.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// This publisher's elements and those of 5 others, as they arrive.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// This publisher's elements and those of 6 others, as they arrive.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
        G.Output == Output, G.Failure == Failure
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// This publisher's elements and those of 7 others, as they arrive.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
        G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
