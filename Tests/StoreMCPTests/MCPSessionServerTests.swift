import Foundation
import HostTestSupport
import MCP
import StoreHost
import StoreMCP
import StoreService
import StoreShell
import Testing

/// `storesh mcp`'s server, through the Swift SDK's own client over an in-memory pair of
/// transports: tools, results, errors, resources and notifications as a client sees them.
@MainActor
@Suite(.serialized) struct MCPSessionServerTests {
    /// A connected client and the server it talks to, on a shell with `plugin` loaded.
    struct Connection {
        let client: Client
        let server: MCPSessionServer
        let notes: Notes
    }

    /// Notifications a client received, as "method uri".
    final class Notes: Sendable {
        let received = Locked<[String]>([])
        func contains(_ note: String) -> Bool { received.current.contains(note) }
    }

    static func connect(_ plugin: String, host: PluginHost = makeHost()) async throws -> Connection {
        let core = ShellCore(host: host) { _ in }
        let loaded = try host.load(plugin)
        try core.use(loaded.models[0].qualifiedName)
        let server = MCPSessionServer(service: SessionService(core: core), version: "test")
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        try await server.start(on: serverSide)
        let client = Client(name: "tests", version: "1")
        let notes = Notes()
        await client.onNotification(ResourceUpdatedNotification.self) { message in
            notes.received.update { $0.append("updated \(message.params.uri)") }
        }
        await client.onNotification(ToolListChangedNotification.self) { _ in
            notes.received.update { $0.append("tools changed") }
        }
        _ = try await client.connect(transport: clientSide)
        return Connection(client: client, server: server, notes: notes)
    }

    static func call(_ client: Client, _ name: String, _ arguments: [String: MCP.Value] = [:]) async throws
        -> CallTool.Result
    {
        let context: RequestContext<CallTool.Result> = try await client.callTool(name: name, arguments: arguments)
        return try await context.value
    }

    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test func toolsHaveSchemasMadeFromTheModel() async throws {
        let connection = try await Self.connect("Todos")
        let tools = try await connection.client.listTools().tools
        let add = try #require(tools.first { $0.name == "action_add" })
        #expect(add.inputSchema.objectValue?["required"] == ["title", "priority"])
        #expect(add.inputSchema.objectValue?["properties"]?.objectValue?["priority"]?.objectValue?["type"] == "integer")
        let state = try #require(tools.first { $0.name == "state" })
        #expect(state.annotations.readOnlyHint == true)
        #expect(tools.contains { $0.name == "send" } && tools.contains { $0.name == "run" })
        await connection.server.stop()
    }

    @Test func sendAnswersTextAndRecords() async throws {
        let connection = try await Self.connect("Counter")
        let result = try await Self.call(connection.client, "send", ["action": "setCount 3"])
        #expect(result.isError == nil)
        #expect(Self.text(result) == "setCount 3: state changed\n  ~ count: 0 → 3")
        let output = result.structuredContent?.objectValue?["outputs"]?.arrayValue?.first?.objectValue
        #expect(output?["diff"]?.arrayValue?.first?.objectValue?["new"] == 3)
        await connection.server.stop()
    }

    @Test func badRequestsAreErrorsAndTheSessionGoesOn() async throws {
        let connection = try await Self.connect("Counter")
        let bad = try await Self.call(connection.client, "send", ["action": "setCount(1"])
        #expect(bad.isError == true)
        #expect(bad.structuredContent?.objectValue?["column"] != nil)
        let wrongType = try await Self.call(connection.client, "action_setCount", ["arg1": .array([1, 2])])
        #expect(wrongType.isError == true && Self.text(wrongType).contains("'arg1' should be an int, not array [1, 2]"))
        var deep: MCP.Value = 1
        for _ in 0..<300 { deep = .array([deep]) }
        let tooDeep = try await Self.call(connection.client, "expect", ["path": "count", "op": "==", "value": deep])
        #expect(Self.text(tooDeep).contains("nests deeper than 256 levels"))
        await #expect(throws: MCPError.self) { try await Self.call(connection.client, "no_such_tool") }
        await #expect(throws: MCPError.self) { try await connection.client.readResource(uri: "storesh://nothing") }
        let after = try await Self.call(connection.client, "action_increment")
        #expect(Self.text(after) == "increment: state changed\n  ~ count: 0 → 1")
        await connection.server.stop()
    }

    @Test func resourcesGiveTheStateAndItsParts() async throws {
        let connection = try await Self.connect("Todos")
        _ = try await Self.call(connection.client, "action_add", ["title": "milk", "priority": 1])
        let uris = try await connection.client.listResources().resources.map(\.uri)
        #expect(uris == ["storesh://state", "storesh://timeline", "storesh://schema"])
        let part = try await connection.client.readResource(uri: "storesh://state/todos%5B0%5D.title")
        #expect(part.first?.text == "\"milk\"")
        let schema = try await connection.client.readResource(uri: "storesh://schema")
        #expect(schema.first?.text?.contains("\"toggleLater\"") == true)
        do {
            _ = try await connection.client.readResource(uri: "storesh://state/todos%5B9%5D")
            Issue.record("a path that names nothing must fail")
        } catch let error as MCPError {
            #expect("\(error)".contains("index 9 is out of range: todos has 1 items"))
        }
        await connection.server.stop()
    }

    @Test func subscribersHearOfStatesEffectsChange() async throws {
        let connection = try await Self.connect(
            "Todos", host: PluginHost(clock: RealClock(), searchPath: [buildDirectory]))
        try await connection.client.subscribeToResource(uri: "storesh://state")
        _ = try await Self.call(connection.client, "action_add", ["title": "milk", "priority": 1])
        await eventually { connection.notes.contains("updated storesh://state") }
        connection.notes.received.update { $0.removeAll() }
        _ = try await Self.call(connection.client, "action_toggleLater", ["id": "t1", "milliseconds": 50])
        await eventually { connection.notes.contains("updated storesh://state") }
        let done = try await connection.client.readResource(uri: "storesh://state/todos%5B0%5D.done")
        #expect(done.first?.text == "true")
        _ = try await Self.call(connection.client, "load", ["plugin": "Counter"])
        await eventually { connection.notes.contains("tools changed") }
        await connection.server.stop()
    }

    @Test func aCrashIsAToolErrorAndTheSessionRecovers() async throws {
        let host = makeHost()
        host.isolation = .workers
        let connection = try await Self.connect("Faulty", host: host)
        _ = try await Self.call(connection.client, "action_add", ["arg1": 5])
        let crash = try await Self.call(connection.client, "action_overflow")
        #expect(crash.isError == true)
        #expect(Self.text(crash).contains("crashed while handling 'overflow'"))
        let after = try await Self.call(connection.client, "action_increment")
        #expect(after.isError == nil && Self.text(after).contains("count: 5 → 6"))
        await connection.server.stop()
    }
}
