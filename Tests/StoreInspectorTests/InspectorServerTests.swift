import Foundation
import HostTestSupport
import StoreHost
import StoreService
import StoreShell
import Synchronization
import Testing

@testable import StoreInspector

/// The inspector over a real socket: who it answers, what it answers, and its events.
@MainActor
@Suite(.serialized) struct InspectorServerTests {
    /// An inspector of a Counter session, listening on a free port (its server process
    /// started with `options`).
    static func inspector(_ plugin: String = "Counter", options: [String] = []) async throws -> (InspectorServer, Int) {
        let host = makeHost()
        let core = ShellCore(host: host) { _ in }
        let loaded = try host.load(plugin)
        try core.use(loaded.models[0].qualifiedName)
        let server = InspectorServer(service: SessionService(core: core))
        server.serverOptions = options
        let address = try await server.start()
        let port = try #require(server.guardian?.port)
        #expect(address == "http://127.0.0.1:\(port)/?token=\(server.token)")
        return (server, port)
    }

    /// One request, made off the main actor (the server answers on it).
    nonisolated static func ask(
        _ port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:], body: String = ""
    ) async throws -> RawHTTP.Response {
        try await RawHTTP.onThread {
            Result { () throws(RawHTTP.Failure) in
                try RawHTTP.request(port: port, method, target, headers: headers, body: body)
            }
        }.get()
    }

    /// `GET /api/session` waited for a running script, whose lines hold the main actor, so
    /// its `busy` always read false. It is answered while one runs, as of its last step.
    @Test func theSessionIsReadWhileAScriptRuns() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        let target = "/api/session?token=\(server.token)"
        let idle = try await Self.ask(port, target)
        #expect(idle.body.contains(#""busy":false"#) && idle.body.contains(#""position":0"#), "\(idle.body)")
        var during: RawHTTP.Response?
        await server.service.runOutside {
            _ = await server.service.core.execute("increment")
            _ = await server.service.core.execute("increment")
            during = Self.readHoldingTheMainActor(port, target)
            _ = await server.service.core.execute("increment")
        }
        let read = try #require(during, "answered within 10 s while the main actor was held")
        #expect(read.status == 200)
        #expect(read.body.contains(#""busy":true"#) && read.body.contains(#""position":2"#), "\(read.body)")
        let after = try await Self.ask(port, target)
        #expect(after.body.contains(#""busy":false"#) && after.body.contains(#""position":3"#), "\(after.body)")
        // Refused as ever without the token, busy or not (and at once: the refusal needs no session).
        var refused: RawHTTP.Response?
        await server.service.runOutside { refused = Self.readHoldingTheMainActor(port, "/api/session") }
        #expect(refused?.status == 401)
    }

    /// A request made on another thread, waited for on this one (at most 10 s) without
    /// giving up the main actor, as a script's lines do not give it up.
    static func readHoldingTheMainActor(_ port: Int, _ target: String) -> RawHTTP.Response? {
        let answered = DispatchSemaphore(value: 0)
        let response = Mutex<RawHTTP.Response?>(nil)
        Thread {
            let made = try? RawHTTP.request(port: port, "GET", target)
            response.withLock { $0 = made }
            answered.signal()
        }.start()
        guard answered.wait(timeout: .now() + 10) == .success else { return nil }
        return response.withLock { $0 }
    }

    @Test func withoutItsTokenNothingIsAnswered() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        #expect(try await Self.ask(port, "/").status == 401)
        #expect(try await Self.ask(port, "/api/state").status == 401)
        #expect(try await Self.ask(port, "/api/events").status == 401)
        #expect(try await Self.ask(port, "/?token=0123").status == 403)
        let page = try await Self.ask(port, "/?token=\(server.token)")
        #expect(page.status == 200)
        #expect(page.body.contains("<title>storesh inspector</title>"))
        #expect(page.head.contains("Content-Security-Policy: default-src 'none'"), "\(page.head)")
        #expect(!page.body.contains("{{"), "every part of the page is put in place")
    }

    @Test func anotherOriginOrHostIsRefusedAndChangesNothing() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        let send = ["Content-Type": "application/json"]
        let evil = try await Self.ask(
            port, "/api/operations/send?token=\(server.token)", method: "POST",
            headers: send.merging(["Origin": "http://evil.example"]) { $1 }, body: #"{"action": "increment"}"#)
        #expect(evil.status == 403)
        let rebound = try await Self.ask(
            port, "/api/operations/send?token=\(server.token)", method: "POST",
            headers: send.merging(["Host": "evil.example:\(port)"]) { $1 }, body: #"{"action": "increment"}"#)
        #expect(rebound.status == 403)
        let byGet = try await Self.ask(port, "/api/operations/send?token=\(server.token)&action=increment")
        #expect(byGet.status == 405)
        let state = try await Self.ask(port, "/api/state?token=\(server.token)")
        #expect(state.body.contains(#""state":{"count":0}"#), "\(state.body)")
        let sent = try await Self.ask(
            port, "/api/operations/send?token=\(server.token)", method: "POST",
            headers: send.merging(["Origin": "http://127.0.0.1:\(port)"]) { $1 }, body: #"{"action": "increment"}"#)
        #expect(sent.status == 200 && sent.body.contains(#""ok":true"#), "\(sent.body)")
        let after = try await Self.ask(port, "/api/state?token=\(server.token)")
        #expect(after.body.contains(#""state":{"count":1}"#), "\(after.body)")
        let bad = try await Self.ask(
            port, "/api/operations/send?token=\(server.token)", method: "POST", headers: send, body: #"{"action": "#)
        #expect(bad.status == 400 && bad.body.contains("not JSON"), "\(bad.body)")
    }

    /// An operation's body is read as JSON, not as action text: a literal that is no JSON
    /// is refused, and the values of a JSON object reach the model as they are.
    @Test func anOperationsArgumentsAreReadAsJSON() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        let send = ["Content-Type": "application/json"]
        let literal = try await Self.ask(
            port, "/api/operations/action_setCount?token=\(server.token)", method: "POST", headers: send,
            body: #"{arg1: 5}"#)
        #expect(literal.status == 400 && literal.body.contains("not JSON"), "\(literal.body)")
        let array = try await Self.ask(
            port, "/api/operations/action_setCount?token=\(server.token)", method: "POST", headers: send,
            body: "[5]")
        #expect(array.status == 400 && array.body.contains("must be a JSON object, not array"), "\(array.body)")
        let set = try await Self.ask(
            port, "/api/operations/action_setCount?token=\(server.token)", method: "POST", headers: send,
            body: #"{"arg1": 5}"#)
        #expect(set.status == 200 && set.body.contains(#""action":"setCount 5""#), "\(set.body)")
        let state = try await Self.ask(port, "/api/state?token=\(server.token)")
        #expect(state.body.contains(#""state":{"count":5}"#), "\(state.body)")
    }

    @Test func itListensOnOneLoopbackAddressOnly() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        // 127.0.0.2 is this machine's loopback too: a server on 0.0.0.0 would answer there.
        let other = await RawHTTP.onThread { () -> RawHTTP.Failure? in
            do throws(RawHTTP.Failure) {
                let fd = try RawHTTP.connect("127.0.0.2", port: port)
                close(fd)
                return nil
            } catch {
                return error
            }
        }
        #expect(other == .connect(ECONNREFUSED))
        #expect(try await Self.ask(port, "/api/session?token=\(server.token)").status == 200)
    }

    @Test func thePastIsReadWithoutMovingTheSession() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        for action in ["increment", "setCount 7", "increment"] {
            _ = await server.service.perform("send", arguments: ["action": .string(action)])
        }
        let second = try await Self.ask(port, "/api/state?token=\(server.token)&after=2")
        #expect(
            second.body.contains(#""position":2"#) && second.body.contains(#""state":{"count":7}"#), "\(second.body)")
        #expect(second.body.contains(#""path":"count""#) && second.body.contains(#""new":7"#), "\(second.body)")
        let page = try await Self.ask(port, "/api/history?token=\(server.token)&from=2&count=5")
        #expect(
            page.body.contains(#""action":"setCount 7""#)
                && !page.body.contains(
                    #""action":"increment","changed":true,"skipped":false,"undone":false,"index":1"#),
            "\(page.body)")
        #expect(page.body.contains(#""count":3"#) && page.body.contains(#""position":3"#), "\(page.body)")
        #expect(await server.service.perform("state", arguments: ["path": .string("count")]).rendered().text == "8")
    }

    @Test func eventsArriveAsTheSessionGoes() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        let token = server.token
        let stream = Task {
            await RawHTTP.onThread {
                Result { () throws(RawHTTP.Failure) -> String in
                    let fd = try RawHTTP.connect(port: port)
                    defer { close(fd) }
                    try RawHTTP.send(fd, "GET /api/events?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                    return RawHTTP.read(fd, until: "setCount 42")
                }
            }
        }
        // The stream is open once the first event is written; then an action is sent.
        while server.streams.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        _ = await server.service.perform("send", arguments: ["action": .string("setCount 42")])
        let text = try await stream.value.get()
        #expect(text.contains("text/event-stream"), "\(text)")
        #expect(text.contains("event: session\ndata: {\"models\":[{\"name\":\"counter.counter\""), "\(text)")
        #expect(text.contains("event: timeline\ndata: {"), "\(text)")
        #expect(text.contains(#""kind":"action","action":"setCount 42""#), "\(text)")
    }

    /// The server is a process of its own: when it dies, the session goes on, the end is
    /// said, and the next start serves the same session on a new server.
    @Test func aServerProcessThatDiesIsSaidAndStartedAnew() async throws {
        let (server, port) = try await Self.inspector()
        defer { Task { await server.stop() } }
        var said = 0
        server.endedUnasked = { said += 1 }
        let pid = try #require(server.serverProcessID)
        #expect(kill(pid, SIGKILL) == 0)
        for _ in 0..<500 where server.address != nil { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(server.address == nil && said == 1)
        let sent = await server.service.perform("send", arguments: ["action": .string("setCount 3")]).rendered().text
        #expect(sent.contains("count"), "\(sent)")
        let address = try await server.start()
        let newPort = try #require(server.guardian?.port)
        #expect(address.contains(":\(newPort)/") && server.serverProcessID != pid)
        let state = try await Self.ask(newPort, "/api/state?token=\(server.token)")
        #expect(state.body.contains(#""state":{"count":3}"#), "\(state.body)")
        if newPort != port { #expect(throws: RawHTTP.Failure.self) { _ = try RawHTTP.connect(port: port) } }
        await server.stop()
        #expect(said == 1, "a stop asked for is not said")
    }

    @Test func theEmbeddedPageIsThePageInTheRepository() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/StoreInspector/Page"
        ).standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: page.path).sorted()
        #expect(names == PageAssets.files.map(\.name).sorted())
        for file in PageAssets.files {
            var text = try String(contentsOf: page.appendingPathComponent(file.name), encoding: .utf8)
            while text.hasSuffix("\n") { text.removeLast() }
            #expect(text == file.text, "Page/\(file.name) changed: run scripts/embed-inspector-page")
        }
    }
}
