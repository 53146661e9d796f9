import InspectorRelay

/// How much of a client's request the server reads, and for how long, before it answers
/// with an error and closes the connection. Every limit is checked as the bytes arrive,
/// before the request is relayed to storesh (so before its token is checked): a client
/// that sends too much, or too slowly, costs its own connection and nothing else.
package struct HTTPLimits: Sendable {
    /// The defaults below.
    package init() {}

    /// The request line (`GET /target HTTP/1.1`); longer: 414 (or 400 past the target).
    package var requestLine = 8 * 1024
    /// One header line; longer: 431.
    package var fieldLine = 8 * 1024
    /// The whole head, request line and headers; larger: 431.
    package var head = 32 * 1024
    /// Header lines (and a chunked body's trailer lines); more: 431.
    package var fields = 100
    /// A request's body in any transfer coding; larger: 413.
    package var body = RelayedRequest.bodyLimit
    /// One chunk-size line of a chunked body (size and extensions); longer: 400.
    package var chunkLine = 1024
    /// Seconds from a head's first byte to its end; later: 408.
    package var headSeconds = 10.0
    /// Seconds from the end of a head to the end of its body; later: 408.
    package var bodySeconds = 30.0
    /// Seconds a kept-alive connection may wait for its next request; then it is closed.
    package var idleSeconds = 60.0
    /// Seconds one write to a client may wait for it to read; then the connection is closed.
    package var writeSeconds = 30.0
    /// Connections served at once; one more ends the one that has waited longest for a
    /// request's head, or is answered 503 when none waits (`Connections`).
    package var connections = 64
    /// What is read and thrown away, at most, after an error answer, so that the close
    /// does not reset the connection before the client has read the answer.
    package var drainBytes = 64 * 1024
    /// And for at most this long.
    package var drainSeconds = 1.0
}

/// A request the server answers itself with an error status, then closes the connection.
package struct Refusal: Error, Equatable {
    package let status: Int
    package let reason: String

    package init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

/// The connection is over without an answer: the client closed it, or it stayed idle.
package struct ConnectionOver: Error {
    package init() {}
}

extension ContinuousClock.Instant {
    /// This instant, `seconds` from now.
    package static func after(_ seconds: Double) -> Self { .now + .milliseconds(Int64(seconds * 1000)) }
}
