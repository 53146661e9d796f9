import Dispatch
import Foundation
import InspectorHTTP
import InspectorRelay

extension FuzzTarget {
    /// Bytes as what a client sends the inspector's server: requests, one after the other
    /// on one connection, read within limits (small ones, so that inputs reach them). Never
    /// traps; what is read does not depend on how the bytes arrive (whole, or in pieces of
    /// 1 to 300 bytes); no body passes the limit; and each request read, written back in
    /// plain form (its head as read, its body with a Content-Length), reads back as itself.
    /// (A header value that is not UTF-8 is relayed with U+FFFD for each bad byte: storesh
    /// compares the values it decides by exactly, so such a token or origin never matches.)
    static func httpRequests(_ data: Data) {
        let bytes = Array(data.prefix(64 * 1024))
        let whole = HTTPReading.outcomes(bytes, pieces: [4096])
        let pieces = HTTPReading.outcomes(bytes, pieces: [1, 7, 2, 300, 3, 64])
        guard whole == pieces else {
            violated("read whole: \(whole); read in pieces: \(pieces)")
        }
        for case .request(let plain, let request) in whole {
            guard request.body.count <= HTTPReading.limits.body else {
                violated("a body of \(request.body.count) bytes passed the limit of \(HTTPReading.limits.body)")
            }
            // Read back with room to spare: a header value that is not UTF-8 reaches storesh
            // with U+FFFD in place of each bad byte, so written back it may be longer.
            let again = HTTPReading.outcomes(plain, pieces: [4096], limits: HTTPReading.roomy)
            guard case .request(let replain, let reread)? = again.first, replain == plain,
                reread == request.withoutFraming(of: reread)
            else {
                violated("\(request) written back plainly reads as \(again)")
            }
        }
    }
}

/// Reading requests from memory with the inspector's reader.
enum HTTPReading {
    static let limits: HTTPLimits = {
        var limits = HTTPLimits()
        limits.requestLine = 512
        limits.fieldLine = 256
        limits.head = 2048
        limits.fields = 16
        limits.body = 8192
        limits.chunkLine = 32
        return limits
    }()

    /// Limits no plain rewrite of a request read within `limits` passes.
    static let roomy: HTTPLimits = {
        var roomy = limits
        roomy.requestLine *= 4
        roomy.fieldLine *= 4
        roomy.head *= 4
        return roomy
    }()

    /// What reading gave, request by request, then how it ended.
    enum Outcome: Equatable, CustomStringConvertible {
        /// A request: written back plainly, and as storesh is given it.
        case request(plain: [UInt8], RelayedRequest)
        case refused(Int, String)
        case over

        var description: String {
            switch self {
            case .request(_, let request): "\(request.method) \(request.path) (\(request.body.count) bytes)"
            case .refused(let status, let reason): "\(status) \(reason)"
            case .over: "over"
            }
        }
    }

    /// Reads `bytes` as one connection's requests, handed to the reader in pieces of the
    /// sizes `pieces` cycles through.
    static func outcomes(_ bytes: [UInt8], pieces: [Int], limits: HTTPLimits = limits) -> [Outcome] {
        let box = OutcomesBox()
        let done = DispatchSemaphore(value: 0)
        let source = MemoryBytes(bytes, pieces: pieces)
        Task {
            var incoming = Incoming(source: source, limits: limits)
            var outcomes: [Outcome] = []
            while true {
                do {
                    let head = try RequestHead(lines: try await incoming.readHead())
                    let body = try await incoming.readBody(try head.checkedBody(within: limits))
                    outcomes.append(.request(plain: plain(head, body: body), try head.relayed(body: body)))
                    if !head.keepsAlive { break }
                } catch let refusal as Refusal {
                    outcomes.append(.refused(refusal.status, refusal.reason))
                    break
                } catch {
                    outcomes.append(.over)
                    break
                }
            }
            box.outcomes = outcomes
            done.signal()
        }
        done.wait()
        return box.outcomes
    }

    /// `head` and `body` as plain bytes: the head as read, framed by Content-Length.
    static func plain(_ head: RequestHead, body: [UInt8]) -> [UInt8] {
        var text = "\(head.method) \(head.target) HTTP/1.\(head.minorVersion)\r\n"
        for (name, value) in head.fields where name != "content-length" && name != "transfer-encoding" {
            text += "\(name): \(value)\r\n"
        }
        if !body.isEmpty { text += "content-length: \(body.count)\r\n" }
        return Array((text + "\r\n").utf8) + body
    }
}

extension RelayedRequest {
    /// This request with the framing headers `other` has (a plain rewrite frames its body
    /// by Content-Length, or not at all).
    func withoutFraming(of other: RelayedRequest) -> RelayedRequest {
        var request = self
        request.headers["content-length"] = other.headers["content-length"]
        request.headers["transfer-encoding"] = other.headers["transfer-encoding"]
        return request
    }
}

/// Bytes in memory, handed out in pieces; the end is the client closing.
private final class MemoryBytes: RequestByteSource, @unchecked Sendable {
    private let bytes: [UInt8]
    private let pieces: [Int]
    private var position = 0
    private var piece = 0

    init(_ bytes: [UInt8], pieces: [Int]) {
        self.bytes = bytes
        self.pieces = pieces
    }

    func read(atMost count: Int, before deadline: ContinuousClock.Instant) async throws -> [UInt8]? {
        guard position < bytes.count else { throw ConnectionOver() }
        let size = min(count, pieces[piece % pieces.count], bytes.count - position)
        piece += 1
        defer { position += size }
        return Array(bytes[position..<(position + size)])
    }
}

private final class OutcomesBox: @unchecked Sendable {
    var outcomes: [HTTPReading.Outcome] = []
}
