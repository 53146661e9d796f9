/// A server-sent event stream (`text/event-stream`): the events handed to its
/// continuation, each written to the page as soon as it comes. Ends when the continuation
/// finishes; when the page goes away, the answer that reads it is cancelled, which ends
/// the stream's subscription.
struct EventStream: Sendable {
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
}
