import InspectorRelay

/// How much of a client's request the server reads, and for how long, before it answers
/// with an error and closes the connection. Every limit is checked as the bytes arrive,
/// before the request is relayed to storesh (so before its token is checked): a client
/// that sends too much, or too slowly, costs its own connection and nothing else.
struct HTTPLimits: Sendable {
    /// The request line (`GET /target HTTP/1.1`); longer: 414 (or 400 past the target).
    var requestLine = 8 * 1024
    /// One header line; longer: 431.
    var fieldLine = 8 * 1024
    /// The whole head, request line and headers; larger: 431.
    var head = 32 * 1024
    /// Header lines (and a chunked body's trailer lines); more: 431.
    var fields = 100
    /// A request's body in any transfer coding; larger: 413.
    var body = RelayedRequest.bodyLimit
    /// One chunk-size line of a chunked body (size and extensions); longer: 400.
    var chunkLine = 1024
    /// Seconds from a head's first byte to its end; later: 408.
    var headSeconds = 10.0
    /// Seconds from the end of a head to the end of its body; later: 408.
    var bodySeconds = 30.0
    /// Seconds a kept-alive connection may wait for its next request; then it is closed.
    var idleSeconds = 60.0
    /// Seconds one write to a client may wait for it to read; then the connection is closed.
    var writeSeconds = 30.0
    /// Connections served at once; one more ends the one that has waited longest for a
    /// request's head, or is answered 503 when none waits (`Connections`).
    var connections = 64
    /// What is read and thrown away, at most, after an error answer, so that the close
    /// does not reset the connection before the client has read the answer.
    var drainBytes = 64 * 1024
    /// And for at most this long.
    var drainSeconds = 1.0
}

/// A request the server answers itself with an error status, then closes the connection.
struct Refusal: Error, Equatable {
    let status: Int
    let reason: String

    init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}

/// The connection is over without an answer: the client closed it, or it stayed idle.
struct ConnectionOver: Error {}

/// The result of `work`, or nil when `deadline` comes first (`work` is then cancelled: a
/// socket wait ends at once when its task is cancelled).
func within<T: Sendable>(
    _ deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

extension ContinuousClock.Instant {
    /// This instant, `seconds` from now.
    static func after(_ seconds: Double) -> Self { .now + .milliseconds(Int64(seconds * 1000)) }
}
