import FlyingSocks
import Foundation
import InspectorHTTP
import InspectorRelay

/// One client's connection: its requests, one after the other, each read within
/// `HTTPLimits`, relayed to storesh and answered, until the client closes it, asks to,
/// or is refused. What storesh answers is not looked at here: the token, the origin and
/// the routes are storesh's to check (`RequestGuard`); what is refused here is only what
/// cannot be read as one unambiguous, bounded request.
struct Connection {
    let socket: AsyncSocket
    let relay: Relay
    let limits: HTTPLimits
    /// Told whether the connection waits for a request's head (true) or reads or answers one.
    let waiting: @Sendable (Bool) -> Void

    /// Serves the connection to its end, then closes it.
    func serve() async {
        var incoming = Incoming(source: SocketBytes(socket: socket), limits: limits)
        defer { try? socket.close() }
        while true {
            do {
                waiting(true)
                let lines = try await incoming.readHead()
                waiting(false)
                let head = try RequestHead(lines: lines)
                let framing = try head.checkedBody(within: limits)
                if head["expect"]?.lowercased() == "100-continue", head.minorVersion == 1 {
                    try await write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
                let body = try await incoming.readBody(framing)
                guard try await answer(try head.relayed(body: body), to: head), head.keepsAlive else {
                    shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
                    return
                }
            } catch let refusal as Refusal {
                await refuse(refusal, &incoming)
                return
            } catch {
                return  // the client is gone, or idle
            }
        }
    }

    /// Relays `request`, writes storesh's answer; false when the connection is to close.
    private func answer(_ request: RelayedRequest, to head: RequestHead) async throws -> Bool {
        guard RelayMessage.request(id: 0, request).frame.count <= RelayMessage.frameLimit else {
            throw Refusal(431, "the request's headers and query are too large")
        }
        guard let (answer, parts) = await relay.ask(request) else { throw Refusal(503, "storesh is gone") }
        let bodyless = head.method == "HEAD"
        guard answer.streams else {
            var whole: [UInt8] = []
            for await part in parts { whole += part }
            let start = Self.head(answer, length: whole.count, closes: !head.keepsAlive)
            try await write(Array(start.utf8) + (bodyless ? [] : whole))
            return true
        }
        // A stream (server-sent events): each part as it comes, as a chunk (HTTP/1.0: as
        // is, and the end of the stream is the end of the connection).
        let chunked = head.minorVersion == 1
        try await write(Array(Self.head(answer, length: nil, closes: !chunked || !head.keepsAlive).utf8))
        guard !bodyless else { return chunked }
        for await part in parts where !part.isEmpty {
            try await write(chunked ? Array(String(part.count, radix: 16).utf8) + [13, 10] + part + [13, 10] : part)
        }
        if chunked { try await write(Array("0\r\n\r\n".utf8)) }
        return chunked
    }

    /// An answer's head: status, type, storesh's headers, and its length (nil: chunked).
    static func head(_ answer: RelayedHead, length: Int?, closes: Bool) -> String {
        var text = "HTTP/1.1 \(answer.status) \(RelayedHead.phrase(answer.status))\r\n"
        text += "Content-Type: \(answer.contentType)\r\n"
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += length.map { "Content-Length: \($0)\r\n" } ?? "Transfer-Encoding: chunked\r\n"
        if closes { text += "Connection: close\r\n" }
        return text + "\r\n"
    }

    /// Answers `refusal` and ends the connection gracefully: no more to write, then what
    /// the client still sends is read (a little of it) so the close does not reset the
    /// connection before the client has read the answer.
    private func refuse(_ refusal: Refusal, _ incoming: inout Incoming<SocketBytes>) async {
        let body = Array((refusal.reason + "\n").utf8)
        let start = Self.head(RelayedHead.text(refusal.status), length: body.count, closes: true)
        try? await write(Array(start.utf8) + body)
        shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        await incoming.drain()
    }

    /// Writes `bytes` whole, or throws when the client has not read them within `writeSeconds`.
    private func write(_ bytes: [UInt8]) async throws {
        let socket = self.socket
        let data = Data(bytes)
        guard try await within(.after(limits.writeSeconds), { try await socket.write(data) }) != nil else {
            throw ConnectionOver()
        }
    }
}
