package import StoreValue

/// One HTTP request as the inspector's server process relays it to storesh: what the
/// inspector's routes need of HTTP, in plain values.
package struct RelayedRequest: Sendable, Equatable {
    /// An operation's arguments are at most this many bytes; the server answers a longer
    /// body with 413 itself, without relaying it.
    package static let bodyLimit = 1 << 20

    package var method: String
    package var path: String
    /// The query's parameters, the first of each name.
    package var query: [String: String]
    /// The headers by lowercase name, the first of each.
    package var headers: [String: String]
    package var body: [UInt8]

    package init(method: String, path: String, query: [String: String], headers: [String: String], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// The start of an answer: its status and headers, and whether a stream of chunks (server-
/// sent events) follows instead of one body.
package struct RelayedHead: Sendable, Equatable {
    package var status: Int
    package var contentType: String
    package var headers: [String: String]
    /// True: `body` messages are written to the client as they come, until `end`.
    package var streams: Bool

    package init(status: Int, contentType: String, headers: [String: String] = [:], streams: Bool = false) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.streams = streams
    }

    /// What every answer of the inspector carries besides its type: not cached, not framed,
    /// not sniffed, no referrer.
    package static let guardHeaders = [
        "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
    ]

    /// A short plain-text answer (an error), with the guard headers.
    package static func text(_ status: Int) -> RelayedHead {
        RelayedHead(status: status, contentType: "text/plain; charset=utf-8", headers: guardHeaders)
    }

    /// The reason phrase of a status the inspector answers with.
    package static func phrase(_ status: Int) -> String {
        [
            200: "OK", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 408: "Request Timeout", 413: "Content Too Large", 414: "URI Too Long",
            415: "Unsupported Media Type", 431: "Request Header Fields Too Large", 501: "Not Implemented",
            503: "Service Unavailable", 505: "HTTP Version Not Supported",
        ][status] ?? "Error"
    }
}

/// The messages between storesh's inspector and its HTTP server process
/// (`storesh-inspector`), each a frame (`WireWriter.frame`) of a type byte and a body in
/// the worker protocol's encoding (integers little-endian, strings counted). Requests are
/// numbered by the server; every answer names the request it answers.
///
/// Server → storesh: `listening` or `cannotListen` first, then `request` and `closed`.
/// storesh → server: for each request, `head`, then `body` messages, then `end`.
package enum RelayMessage: Sendable, Equatable {
    /// The server listens on 127.0.0.1 at this port.
    case listening(port: Int)
    /// The server cannot listen, and why; it then exits.
    case cannotListen(reason: String)
    /// A client asked this.
    case request(id: UInt32, RelayedRequest)
    /// The client of this request went away before its answer ended (a page closed while
    /// its event stream ran): storesh stops making the answer.
    case closed(id: UInt32)
    /// The answer to a request starts.
    case head(id: UInt32, RelayedHead)
    /// Bytes of the answer: the whole body, or one event of a stream.
    case body(id: UInt32, [UInt8])
    /// The answer is complete.
    case end(id: UInt32)

    /// No relay frame is larger: a body is sent in parts of at most `bodyPart` bytes.
    package static let frameLimit = 4 << 20
    /// The largest part of a body one `body` message carries.
    package static let bodyPart = 1 << 20

    private enum Kind: UInt8 {
        case listening = 1, cannotListen, request, closed, head, body, end
    }

    /// The message as one frame.
    package var frame: [UInt8] {
        var writer = WireWriter()
        let kind: Kind
        switch self {
        case .listening(let port):
            kind = .listening
            writer.u32(UInt32(clamping: port))
        case .cannotListen(let reason):
            kind = .cannotListen
            writer.string(reason)
        case .request(let id, let request):
            kind = .request
            writer.u32(id)
            writer.string(request.method)
            writer.string(request.path)
            Self.write(request.query, to: &writer)
            Self.write(request.headers, to: &writer)
            writer.counted(request.body)
        case .closed(let id):
            kind = .closed
            writer.u32(id)
        case .head(let id, let head):
            kind = .head
            writer.u32(id)
            writer.u32(UInt32(clamping: head.status))
            writer.string(head.contentType)
            Self.write(head.headers, to: &writer)
            writer.bool(head.streams)
        case .body(let id, let bytes):
            kind = .body
            writer.u32(id)
            writer.counted(bytes)
        case .end(let id):
            kind = .end
            writer.u32(id)
        }
        return WireWriter.frame(kind.rawValue, writer.bytes)
    }

    /// The message a frame's type and body make. A body that does not read as its type
    /// says, or has bytes left over, is an error that says which.
    package init(type: UInt8, body: [UInt8]) throws(WireError) {
        guard let kind = Kind(rawValue: type) else {
            throw WireError(description: "a relay message of unknown type \(type)")
        }
        var reader = WireReader(body)
        switch kind {
        case .listening:
            self = .listening(port: Int(try reader.u32()))
        case .cannotListen:
            self = .cannotListen(reason: try reader.string())
        case .request:
            let id = try reader.u32()
            let method = try reader.string()
            let path = try reader.string()
            let query = try Self.readPairs(&reader)
            let headers = try Self.readPairs(&reader)
            self = .request(
                id: id,
                RelayedRequest(method: method, path: path, query: query, headers: headers, body: try reader.counted()))
        case .closed:
            self = .closed(id: try reader.u32())
        case .head:
            let id = try reader.u32()
            let status = Int(try reader.u32())
            let contentType = try reader.string()
            let headers = try Self.readPairs(&reader)
            self = .head(
                id: id,
                RelayedHead(status: status, contentType: contentType, headers: headers, streams: try reader.bool()))
        case .body:
            let id = try reader.u32()
            self = .body(id: id, try reader.counted())
        case .end:
            self = .end(id: try reader.u32())
        }
        guard reader.atEnd else {
            throw WireError(
                description: "a relay message of type \(type) has \(reader.byteCount - reader.offset) bytes too many")
        }
    }

    /// Names and values, sorted by name so that a message's bytes do not depend on a
    /// dictionary's order.
    private static func write(_ pairs: [String: String], to writer: inout WireWriter) {
        writer.u32(UInt32(pairs.count))
        for (name, value) in pairs.sorted(by: { $0.key < $1.key }) {
            writer.string(name)
            writer.string(value)
        }
    }

    private static func readPairs(_ reader: inout WireReader) throws(WireError) -> [String: String] {
        let count = try reader.count()
        var pairs: [String: String] = [:]
        for _ in 0..<count {
            let name = try reader.string()
            let value = try reader.string()
            if pairs[name] == nil { pairs[name] = value }
        }
        return pairs
    }
}
