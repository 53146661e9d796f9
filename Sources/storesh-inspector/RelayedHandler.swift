import FlyingFox
import FlyingSocks
import Foundation
import InspectorRelay

/// FlyingFox's side: every request, in plain values, to storesh through the relay; its
/// answer back as FlyingFox's response. What storesh answers is not looked at here: the
/// token, the origin and the routes are storesh's to check (`RequestGuard`).
struct RelayedHandler: HTTPHandler {
    let relay: Relay

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (key, value) in request.headers where headers[key.rawValue.lowercased()] == nil {
            headers[key.rawValue.lowercased()] = value
        }
        var body: [UInt8] = []
        if request.method == .POST {
            if let length = headers["content-length"].flatMap(Int.init), length > RelayedRequest.bodyLimit {
                return Self.text(413, "an operation's arguments are at most 1 MiB")
            }
            body = Array(try await request.bodyData.prefix(RelayedRequest.bodyLimit + 1))
        }
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let relayed = RelayedRequest(
            method: request.method.rawValue, path: request.path, query: query, headers: headers, body: body)
        guard RelayMessage.request(id: 0, relayed).frame.count <= RelayMessage.frameLimit else {
            return Self.text(431, "the request's headers and query are too large")
        }
        guard let (head, parts) = await relay.ask(relayed) else {
            return Self.text(503, "storesh is gone")
        }
        if head.streams {
            return Self.response(head, body: HTTPBodySequence(from: Parts(stream: parts), suggestedBufferSize: 65_536))
        }
        var whole: [UInt8] = []
        for await part in parts { whole += part }
        return Self.response(head, body: HTTPBodySequence(data: Data(whole)))
    }

    /// An answer the server gives itself, in plain text.
    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        response(RelayedHead.text(status), body: HTTPBodySequence(data: Data((text + "\n").utf8)))
    }

    /// FlyingFox's response for `head` (its status, type and headers) and `body`.
    private static func response(_ head: RelayedHead, body: HTTPBodySequence) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[HTTPHeader("Content-Type")] = head.contentType
        for (name, value) in head.headers { headers[HTTPHeader(name)] = value }
        return HTTPResponse(
            statusCode: HTTPStatusCode(head.status, phrase: RelayedHead.phrase(head.status)), headers: headers,
            body: body)
    }
}

/// A streamed answer's parts as FlyingFox writes a body: each part as soon as it comes,
/// as one chunk. Dropping the iterator (the client went away) ends the stream, which
/// tells storesh.
struct Parts: AsyncBufferedSequence {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>

    func makeAsyncIterator() -> Iterator {
        Iterator(parts: stream.makeAsyncIterator())
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var parts: AsyncStream<[UInt8]>.AsyncIterator
        var pending: [UInt8] = []

        mutating func next() async -> UInt8? {
            await nextBuffer(suggested: 1)?.first
        }

        /// The next bytes, at most `count` (the rest of a part waits for the next call).
        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if pending.isEmpty {
                guard let next = await parts.next() else { return nil }
                pending = next
            }
            let taken = Array(pending.prefix(Swift.max(1, count)))
            pending.removeFirst(taken.count)
            return taken
        }
    }
}
