import Foundation
import InspectorRelay
package import StoreService
package import StoreShell

/// The inspector: a session's page served over HTTP on 127.0.0.1, for a browser. A thin
/// adapter over `SessionService`, as `storesh mcp` is: an operation is a POST of its name
/// and JSON arguments, reads are GETs, and the service's events are a server-sent event
/// stream. Every request passes `RequestGuard` first.
///
/// The HTTP itself is done by a process of its own (`storesh-inspector`, see
/// `ServerProcess`), which relays each request here and writes back what this answers: so
/// storesh loads no HTTP library and no networking library until an inspector starts.
@MainActor
package final class InspectorServer {
    /// The session it shows.
    package let service: SessionService
    /// The token the address carries, made once per server.
    package let token = RequestGuard.newToken()
    /// The address to open (with the token), once started.
    package private(set) var address: String?
    /// What a request is checked against, once the port is known.
    private(set) var guardian: RequestGuard?
    /// Called when the server process ends without being stopped (it crashed, or was
    /// killed): the address is then gone, and `start` starts a new server.
    package var endedUnasked: (@MainActor () -> Void)?
    /// Open event streams, for `stop` and for tests.
    var streams: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    var nextStream = 0
    /// What the next server process is started with besides its port (for tests).
    var serverOptions: [String] = []
    private var server: ServerProcess?
    /// Answers being made, by the server's number of their request: cancelled when their
    /// client goes away.
    private var answering: [UInt32: Task<Void, Never>] = [:]
    private var serving: Task<Void, Never>?
    /// `guardian`, for the reader of requests off the main actor.
    private nonisolated let sharedGuardian = SharedGuardian()

    /// An inspector of `service`, not yet listening.
    package init(service: SessionService) {
        self.service = service
    }

    /// Listens on 127.0.0.1 at `port` (0: a free port the system picks) and answers the
    /// address to open. Starting again answers the same address.
    package func start(port: Int = 0) async throws(ShellError) -> String {
        if let address { return address }
        guard (0...65_535).contains(port) else {
            throw ShellError("the port must be from 0 to 65535, not \(port)", origin: .prompt)
        }
        let server: ServerProcess
        do {
            server = try ServerProcess(port: port, options: serverOptions)
        } catch {
            throw ShellError("the inspector cannot start: \(error.description)", origin: .prompt)
        }
        // The first message says whether it listens; the rest are requests, taken until it
        // ends. They are read off the main actor, so that a read of the session while a
        // script holds the main actor is answered (`answeredAside`); the others are taken
        // on the main actor, in the order they came.
        let (inOrder, forward) = AsyncStream<RelayMessage>.makeStream()
        let snapshot = service.snapshot
        let shared = sharedGuardian
        let first: RelayMessage? = await withCheckedContinuation { continuation in
            Task.detached {
                var starting: CheckedContinuation<RelayMessage?, Never>? = continuation
                for await message in server.messages {
                    if let waiting = starting {
                        starting = nil
                        waiting.resume(returning: message)
                    } else if !Self.answeredAside(message, guardian: shared, snapshot: snapshot, to: server.writer) {
                        forward.yield(message)
                    }
                }
                starting?.resume(returning: nil)
                forward.finish()
            }
            serving = Task { [weak self] in
                for await message in inOrder { self?.take(message, from: server) }
                guard let self, self.server === server else { return }
                self.serverEnded(server)
                self.endedUnasked?()
            }
        }
        switch first {
        case .listening(let bound):
            self.server = server
            guardian = RequestGuard(token: token, port: bound)
            sharedGuardian.set(guardian)
            let address = "http://127.0.0.1:\(bound)/?token=\(token)"
            self.address = address
            return address
        case .cannotListen(let reason):
            serving = nil
            server.stop()
            throw ShellError("the inspector cannot listen on 127.0.0.1:\(port): \(reason)", origin: .prompt)
        default:
            serving = nil
            server.stop()
            throw ShellError(
                "the inspector's server did not start listening on 127.0.0.1:\(port) within 5 seconds", origin: .prompt)
        }
    }

    /// The server process's id, while it runs (for tests).
    var serverProcessID: pid_t? { server?.pid }

    /// Stops listening and ends the event streams.
    package func stop() async {
        guard let server else { return }
        serverEnded(server)
        await serving?.value
        serving = nil
    }

    /// One message of the server: a request to answer, or a client gone.
    private func take(_ message: RelayMessage, from server: ServerProcess) {
        switch message {
        case .request(let id, let request):
            answering[id] = Task { [weak self] in
                await self?.answer(request, id: id, to: server.writer)
                if let self, self.server === server { self.answering[id] = nil }
            }
        case .closed(let id):
            answering.removeValue(forKey: id)?.cancel()
        case .listening, .cannotListen, .head, .body, .end:
            break  // not the server's to say now
        }
    }

    /// Makes the answer to `request` and writes it to the server: its head, then its body
    /// (or each event of a stream, until the stream ends or the client goes away).
    private func answer(_ request: RelayedRequest, id: UInt32, to writer: RelayWriter) async {
        let response = await respond(to: request)
        var headers = RelayedHead.guardHeaders
        for (name, value) in response.headers { headers[name] = value }
        switch response.body {
        case .bytes(let bytes):
            writer.send(
                .head(id: id, RelayedHead(status: response.status, contentType: response.contentType, headers: headers))
            )
            if !bytes.isEmpty { writer.send(.body(id: id, bytes)) }
        case .events(let stream):
            guard
                writer.send(
                    .head(
                        id: id,
                        RelayedHead(
                            status: response.status, contentType: response.contentType, headers: headers, streams: true)
                    ))
            else { break }
            for await event in stream.events {
                guard writer.send(.body(id: id, event)) else { break }
            }
        }
        writer.send(.end(id: id))
    }

    /// The server ended (or is stopped): no address, no streams, no answers under way.
    private func serverEnded(_ ended: ServerProcess) {
        guard server === ended else { return }
        for continuation in streams.values { continuation.finish() }
        streams = [:]
        for task in answering.values { task.cancel() }
        answering = [:]
        ended.stop()
        server = nil
        address = nil
        guardian = nil
        sharedGuardian.set(nil)
    }
}
