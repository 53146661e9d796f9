import FlyingSocks

/// The bytes of a server-sent event stream (`text/event-stream`), as FlyingFox sends a
/// response body: each event handed to `continuation` is written out as soon as it comes,
/// as one chunk. Ends when the continuation finishes; dropping the iterator (the page went
/// away) ends the stream's subscription.
struct EventStream: AsyncBufferedSequence {
    typealias Element = UInt8
    let events: AsyncStream<[UInt8]>

    /// A stream and the continuation that feeds it; at most `limit` events wait for a slow
    /// reader, after which the oldest are dropped (the page catches up by reading again).
    static func make(limit: Int = 256) -> (EventStream, AsyncStream<[UInt8]>.Continuation) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        return (EventStream(events: stream), continuation)
    }

    /// One event: `event: NAME` and its data, which must hold no line break (JSON does not).
    static func message(_ name: String, _ data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator())
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var events: AsyncStream<[UInt8]>.AsyncIterator
        var pending: [UInt8] = []

        mutating func next() async -> UInt8? {
            await nextBuffer(suggested: 1)?.first
        }

        /// The next bytes, at most `count` (the rest of an event waits for the next call).
        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if pending.isEmpty {
                guard let next = await events.next() else { return nil }
                pending = next
            }
            let taken = Array(pending.prefix(Swift.max(1, count)))
            pending.removeFirst(taken.count)
            return taken
        }
    }
}
