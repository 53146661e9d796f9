import Foundation
import Testing

@testable import StoreInspector

/// What the inspector's server reads of a request, and how soon it says no: over raw
/// sockets, without the token (these are refused before storesh checks it). A client that
/// sends too much, too slowly or something unreadable costs its own connection, gets an
/// answer that says why, and never delays anyone else.
@MainActor
@Suite(.serialized) struct HTTPLimitTests {
    /// Seconds that separate "refused at once" from "stalled" on a loaded CI machine (the
    /// old server took 14 s for a 16 kB line and never answered a 64 kB one; the figure to
    /// keep, 100 ms, is Benchmarks/inspector-limits.py's to measure, not a test's). The GET
    /// beside an attack must be answered, in no set time: it is routed on this process's
    /// main actor, which every other test shares (CI saw 11.9 s), so its latency measures
    /// the test run, not the server; the benchmark measures it.
    nonisolated static let promptly = 10.0

    /// A request as bytes: `line`, then `headers` (Host first unless given), an empty line, `body`.
    nonisolated static func request(
        _ line: String, port: Int, headers: [String] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var all = headers
        if !all.contains(where: { $0.lowercased().hasPrefix("host:") }) { all.insert("Host: 127.0.0.1:\(port)", at: 0) }
        all.append("Connection: close")
        return Array((line + "\r\n" + all.map { $0 + "\r\n" }.joined() + "\r\n").utf8) + body
    }

    nonisolated static func exchange(_ bytes: [UInt8], port: Int, trickle: [UInt8] = []) async -> RawExchange {
        await RawHTTP.onThread { RawExchange.run(port: port, bytes, trickle: trickle) }
    }

    /// `attack` on `attackers` connections at once and, meanwhile, a GET of the session with
    /// the token, which must be answered at once: the attackers' answers, and the GET's.
    func whileAttacked(
        _ attack: [UInt8], attackers: Int = 1, server: InspectorServer, port: Int
    ) async -> (attacks: [RawExchange], get: RawExchange) {
        let get = Self.request("GET /api/session?token=\(server.token) HTTP/1.1", port: port)
        return await withTaskGroup(of: (Int, RawExchange).self) { group in
            for index in 0..<attackers { group.addTask { (index, await Self.exchange(attack, port: port)) } }
            group.addTask {
                try? await Task.sleep(nanoseconds: 100_000_000)  // the attackers are under way
                return (-1, await Self.exchange(get, port: port))
            }
            var attacks: [RawExchange] = []
            var answered: RawExchange?
            for await (index, exchange) in group {
                if index < 0 { answered = exchange } else { attacks.append(exchange) }
            }
            return (attacks, answered!)
        }
    }

    @Test(arguments: [16 * 1024, 64 * 1024, 4 << 20])
    func aLongRequestLineIsRefusedAtOnceAndDelaysNoOne(length: Int) async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let line = "GET /api/state?x=" + String(repeating: "a", count: length) + " HTTP/1.1"
        let (attacks, get) = await whileAttacked(
            Self.request(line, port: port), attackers: 2, server: server, port: port)
        for attack in attacks {
            #expect(attack.status == 414, "\(attack.head)")
            #expect(attack.body.contains("target is longer than 8 KiB"), "\(attack.body)")
            #expect(attack.seconds < Self.promptly, "answered after \(attack.seconds) s")
        }
        #expect(
            get.status == 200, "the GET beside it: \(get.status) after \(get.seconds) s")
    }

    @Test(arguments: [16 * 1024, 64 * 1024, 4 << 20])
    func aLongHeaderIsRefusedAtOnceAndDelaysNoOne(length: Int) async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let attack = Self.request(
            "GET /api/state HTTP/1.1", port: port, headers: ["X-Filler: " + String(repeating: "a", count: length)])
        let (attacks, get) = await whileAttacked(attack, attackers: 2, server: server, port: port)
        for attack in attacks {
            #expect(attack.status == 431, "\(attack.head)")
            #expect(attack.body.contains("header line is longer than 8 KiB"), "\(attack.body)")
            #expect(attack.seconds < Self.promptly, "answered after \(attack.seconds) s")
        }
        #expect(
            get.status == 200, "the GET beside it: \(get.status) after \(get.seconds) s")
    }

    @Test func tooManyHeadersAreRefused() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let many = (0..<200).map { "X-Header-\($0): \($0)" }
        let answer = await Self.exchange(Self.request("GET /api/state HTTP/1.1", port: port, headers: many), port: port)
        #expect(answer.status == 431 && answer.body.contains("more than 100 headers"), "\(answer.head)\n\(answer.body)")
    }

    @Test func aHeadThatDoesNotArriveInTimeIsRefused() async throws {
        let (server, port) = try await InspectorServerTests.inspector(options: ["--head-seconds", "0.5"])
        defer { Task { await server.stop() } }
        let started = Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)
        let answer = await Self.exchange(
            started, port: port, trickle: Array("X-Slow: ".utf8) + Array(repeating: 97, count: 100))
        #expect(answer.status == 408, "\(answer.head)")
        #expect(answer.seconds > 0.4 && answer.seconds < 3, "answered after \(answer.seconds) s")
        // Others were served meanwhile, and still are.
        #expect(try await InspectorServerTests.ask(port, "/api/session?token=\(server.token)").status == 200)
    }

    @Test func aBadChunkSizeIsABadRequest() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let answer = await Self.exchange(
            Self.request(
                "POST /api/operations/send?token=\(server.token) HTTP/1.1", port: port,
                headers: ["Content-Type: application/json", "Transfer-Encoding: chunked"],
                body: Array("zz\r\n{}\r\n0\r\n\r\n".utf8)),
            port: port)
        #expect(
            answer.status == 400 && answer.body.contains("'zz' is not a chunk size"), "\(answer.head)\n\(answer.body)")
    }

    @Test func aChunkedBodyWithinTheLimitIsRead() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let answer = await Self.exchange(
            Self.request(
                "POST /api/operations/send?token=\(server.token) HTTP/1.1", port: port,
                headers: ["Content-Type: application/json; charset=utf-8", "Transfer-Encoding: chunked"],
                body: Array("a;ext=1\r\n{\"action\":\r\n10\r\n \"setCount 5\"}  \r\n0\r\nX-Trailer: 1\r\n\r\n".utf8)),
            port: port)
        #expect(answer.status == 200 && answer.body.contains(#""ok":true"#), "\(answer.head)\n\(answer.body)")
        #expect(
            try await InspectorServerTests.ask(port, "/api/state?token=\(server.token)").body.contains(#""count":5"#))
    }

    /// 64 MiB in chunks of 64 KiB, with a wrong token: refused once the limit (1 MiB) is
    /// passed, long before the client has sent it all.
    @Test func anOversizedChunkedBodyIsRefusedBeforeItIsAllRead() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let chunk = Array("10000\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 65_536) + Array("\r\n".utf8)
        var body: [UInt8] = []
        body.reserveCapacity(chunk.count * 1024 + 5)
        for _ in 0..<1024 { body.append(contentsOf: chunk) }
        body.append(contentsOf: "0\r\n\r\n".utf8)
        let request = Self.request(
            "POST /api/operations/send?token=wrong HTTP/1.1", port: port,
            headers: ["Content-Type: application/json", "Transfer-Encoding: chunked"], body: body)
        let answer = await Self.exchange(request, port: port)
        #expect(answer.status == 413, "\(answer.head)")
        #expect(answer.sent < request.count / 4, "the client sent \(answer.sent) of \(request.count) bytes")
        #expect(answer.seconds < 5, "answered after \(answer.seconds) s")
    }

    @Test func aSecondHostIsABadRequest() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let answer = await Self.exchange(
            Self.request(
                "GET /api/session?token=\(server.token) HTTP/1.1", port: port,
                headers: ["Host: evil.example", "Host: 127.0.0.1:\(port)"]),
            port: port)
        #expect(answer.status == 400 && answer.body.contains("more than one host header"), "\(answer.head)")
    }

    @Test func anAbsoluteTargetIsABadRequest() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let answer = await Self.exchange(
            Self.request("GET http://127.0.0.1:\(port)/api/session?token=\(server.token) HTTP/1.1", port: port),
            port: port)
        #expect(answer.status == 400 && answer.body.contains("origin form"), "\(answer.head)")
    }

    @Test func anotherMediaTypeThanJSONIsRefused() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let body = Array(#"{"action": "increment"}"#.utf8)
        let answer = await Self.exchange(
            Self.request(
                "POST /api/operations/send?token=\(server.token) HTTP/1.1", port: port,
                headers: ["Content-Type: application/jsonx", "Content-Length: \(body.count)"], body: body),
            port: port)
        #expect(answer.status == 415, "\(answer.head)")
        #expect(
            try await InspectorServerTests.ask(port, "/api/state?token=\(server.token)").body.contains(#""count":0"#))
    }

    /// Requests that cannot be read are answered with why, not with a closed connection.
    @Test func anUnreadableRequestIsAnsweredWithWhy() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let token = server.token
        let cases: [(String, [String], Int)] = [
            ("GET /api/state HTTP/2.0", [], 505),
            ("GET /api/state HTTP/1.1 extra", [], 400),
            ("GET  /api/state HTTP/1.1", [], 400),
            ("GET /api/state HTTP/1.1", ["No colon here"], 400),
            ("GET /api/state HTTP/1.1", ["Name : value"], 400),
            ("GET /api/state HTTP/1.1", ["X-Folded: a", " b"], 400),
            ("POST /api/operations/send?token=\(token) HTTP/1.1", ["Transfer-Encoding: gzip"], 501),
            (
                "POST /api/operations/send?token=\(token) HTTP/1.1",
                ["Content-Length: 5", "Transfer-Encoding: chunked"], 400
            ),
            ("POST /api/operations/send?token=\(token) HTTP/1.1", ["Content-Length: -1"], 400),
            ("POST /api/operations/send?token=\(token) HTTP/1.1", ["Content-Length: 2000000"], 413),
            ("GET /api/state HTTP/1.1", ["Content-Length: 3"], 400),
            ("GET * HTTP/1.1", [], 400),
        ]
        for (line, headers, status) in cases {
            let answer = await Self.exchange(Self.request(line, port: port, headers: headers), port: port)
            #expect(answer.status == status, "\(line) \(headers): \(answer.head)\n\(answer.body)")
            #expect(answer.head.contains("Connection: close"), "\(line) \(headers): \(answer.head)")
        }
        let noHost = await Self.exchange(Array("GET /api/state HTTP/1.1\r\n\r\n".utf8), port: port)
        #expect(noHost.status == 400 && noHost.body.contains("needs a Host"), "\(noHost.head)")
    }

    /// More connections than the server serves at once, each sending nothing or half a
    /// head: the ones waiting longest make room, and a page's request is still answered.
    @Test func idleConnectionsHoldNoPlaceAPageNeeds() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let held = await RawHTTP.onThread { () -> [Int32] in
            (0..<80).compactMap { index in
                guard let fd = try? RawHTTP.connect(port: port) else { return nil }
                if index.isMultiple(of: 2) { try? RawHTTP.send(fd, "GET /api/state HTTP/1.1\r\nHost: 1") }
                return fd
            }
        }
        defer { for fd in held { close(fd) } }
        #expect(held.count == 80)
        let get = await Self.exchange(
            Self.request("GET /api/session?token=\(server.token) HTTP/1.1", port: port), port: port)
        #expect(get.status == 200, "\(get.status) after \(get.seconds) s")
    }

    /// Two requests in one write, on one kept-alive connection: both answered, in order.
    @Test func pipelinedRequestsAreBothAnswered() async throws {
        let (server, port) = try await InspectorServerTests.inspector()
        defer { Task { await server.stop() } }
        let first = "GET /api/state?token=\(server.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        let second = Self.request("GET /nowhere?token=\(server.token) HTTP/1.1", port: port)
        let answer = await Self.exchange(Array(first.utf8) + second, port: port)
        #expect(answer.status == 200 && answer.body.contains("HTTP/1.1 404 Not Found"), "\(answer.body)")
    }
}
