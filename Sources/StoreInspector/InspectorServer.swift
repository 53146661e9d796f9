import FlyingFox
import FlyingSocks
import Foundation
public import StoreService
public import StoreShell

/// The inspector: a session's page served over HTTP on 127.0.0.1, for a browser. A thin
/// adapter over `SessionService`, as `storesh mcp` is: an operation is a POST of its name
/// and JSON arguments, reads are GETs, and the service's events are a server-sent event
/// stream. Every request passes `RequestGuard` first.
@MainActor
public final class InspectorServer {
    /// The session it shows.
    public let service: SessionService
    /// The token the address carries, made once per server.
    public let token = RequestGuard.newToken()
    /// The address to open (with the token), once started.
    public private(set) var address: String?
    /// What a request is checked against, once the port is known.
    private(set) var guardian: RequestGuard?
    private var server: HTTPServer?
    private var serving: Task<Void, Never>?
    /// Open event streams, for `stop` and for tests.
    var streams: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    var nextStream = 0

    /// An inspector of `service`, not yet listening.
    public init(service: SessionService) {
        self.service = service
    }

    /// Listens on 127.0.0.1 at `port` (0: a free port the system picks) and answers the
    /// address to open. Starting again answers the same address.
    public func start(port: Int = 0) async throws(ShellError) -> String {
        if let address { return address }
        guard (0...65_535).contains(port) else { throw ShellError("the port must be from 0 to 65535, not \(port)", origin: .prompt) }
        let server: HTTPServer
        do {
            server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: UInt16(port)), timeout: 60, logger: QuietLogger(),
                                handler: InspectorHTTPHandler(inspector: self))
        } catch {
            throw ShellError("the inspector cannot listen on 127.0.0.1:\(port): \(error)", origin: .prompt)
        }
        let failure = FailureBox()
        serving = Task.detached {
            do { try await server.run() } catch { failure.set("\(error)") }
        }
        // Listening, or the reason it cannot (a port in use), within 5 seconds.
        for _ in 0..<500 {
            if let listening = await server.listeningAddress, case .ip4(_, let bound) = listening {
                self.server = server
                guardian = RequestGuard(token: token, port: Int(bound))
                let address = "http://127.0.0.1:\(bound)/?token=\(token)"
                self.address = address
                return address
            }
            if let reason = failure.get() {
                throw ShellError("the inspector cannot listen on 127.0.0.1:\(port): \(reason)", origin: .prompt)
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        serving?.cancel()
        throw ShellError("the inspector did not start listening on 127.0.0.1:\(port) within 5 seconds", origin: .prompt)
    }

    /// Stops listening and ends the event streams.
    public func stop() async {
        for continuation in streams.values { continuation.finish() }
        streams = [:]
        await server?.stop(timeout: 1)
        serving?.cancel()
        server = nil
        address = nil
    }
}

/// FlyingFox's side: a request into plain values, the inspector's answer back.
private struct InspectorHTTPHandler: HTTPHandler {
    let inspector: InspectorServer

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (key, value) in request.headers where headers[key.rawValue.lowercased()] == nil { headers[key.rawValue.lowercased()] = value }
        var body: [UInt8] = []
        if request.method == .POST {
            if let length = headers["content-length"].flatMap(Int.init), length > InspectorRequest.bodyLimit {
                return Self.response(InspectorResponse.text(413, "an operation's arguments are at most 1 MiB"))
            }
            body = Array(try await request.bodyData.prefix(InspectorRequest.bodyLimit + 1))
        }
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let asked = InspectorRequest(method: request.method.rawValue, path: request.path, query: query, headers: headers, body: body)
        return Self.response(await inspector.respond(to: asked))
    }

    static func response(_ answer: InspectorResponse) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[HTTPHeader("Content-Type")] = answer.contentType
        headers[HTTPHeader("Cache-Control")] = "no-store"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[HTTPHeader("X-Frame-Options")] = "DENY"
        for (name, value) in answer.headers { headers[HTTPHeader(name)] = value }
        let status = HTTPStatusCode(answer.status, phrase: InspectorResponse.phrase(answer.status))
        switch answer.body {
        case .bytes(let bytes):
            return HTTPResponse(statusCode: status, headers: headers, body: Data(bytes))
        case .events(let stream):
            return HTTPResponse(statusCode: status, headers: headers, body: HTTPBodySequence(from: stream, suggestedBufferSize: 65_536))
        }
    }
}

/// Says nothing: storesh's output belongs to the session (and to MCP's protocol).
private struct QuietLogger: Logging {
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}

/// Why the server task ended, read by `start` from another task.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: String?
    func set(_ text: String) { lock.withLock { reason = text } }
    func get() -> String? { lock.withLock { reason } }
}
