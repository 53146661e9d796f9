package import MCP
import MCPLines
package import StoreService
import StoreShell
import StoreValue

/// `storesh mcp`: a `SessionService` offered over the Model Context Protocol. A thin
/// adapter: operations become tools (`ToolCatalog`), the state, timeline and schema
/// become resources (`SessionResources`), and the service's events become notifications
/// (resources updated, tool list changed, log messages for what effects do).
///
/// A bad request is an answer, never the server's end: an unknown tool or resource is a
/// protocol error, and anything an operation refuses or fails at is a tool error
/// (`isError`) with the shell's message.
@MainActor
package final class MCPSessionServer {
    /// The session the server drives.
    package let service: SessionService
    /// The SDK's server: messages, the handshake, dispatch.
    package let server: Server
    /// URIs a client subscribed to.
    private var subscriptions = Set<String>()
    /// The least severe log level the client wants (`logging/setLevel`).
    private var logLevel = LogLevel.info
    private var forwarding: Task<Void, Never>?
    /// How a record (JSON text) goes into a message: in its own bytes on the stdio
    /// transport (`RecordSplice`), else read into the SDK's value tree.
    private var carry: @Sendable (String) -> MCP.Value = ValueBridge.json

    /// A server for `service`, not yet started.
    package init(service: SessionService, version: String) {
        self.service = service
        server = Server(
            name: "storesh", version: version, title: "storesh",
            instructions: """
                A storesh session: a model (an Elm-style store) loaded from a plugin. Send actions with send \
                (as typed at the storesh prompt) or the action_ tools, read the state with state or the \
                storesh://state resources, travel in time with log, goto, undo and redo, check with expect. \
                run takes any storesh line (:help lists the commands).
                """,
            capabilities: .init(
                logging: .init(), resources: .init(subscribe: true, listChanged: true), tools: .init(listChanged: true))
        )
    }

    /// Starts answering on `transport`; returns once the server runs.
    package func start(on transport: any Transport) async throws {
        let lines = transport as? LineTransport
        if let records = lines?.records {
            carry = { records.placeholder(for: $0) }
        }
        let checks = await register()
        if let lines {
            await lines.check(with: checks)
            await lines.answerToolCalls(with: directCalls())
        }
        try await server.start(transport: transport)
        let events = service.events()
        forwarding = Task { [weak self] in
            for await event in events {
                await self?.forward(event)
            }
        }
    }

    /// Stops the server and its notifications.
    package func stop() async {
        forwarding?.cancel()
        await server.stop()
    }

    /// Registers the handlers; answers the params check of each method handled, the SDK's
    /// own (`initialize`, `ping`) included.
    private func register() async -> [String: IncomingMessage.ParameterCheck] {
        let service = service
        let carry = carry
        var checks = Dictionary(
            uniqueKeysWithValues: [ParameterChecks.check(Initialize.self), ParameterChecks.check(Ping.self)])
        func handle<M: MCP.Method>(
            _ method: M.Type, _ body: @escaping @Sendable (M.Parameters) async throws -> M.Result
        ) async {
            let (name, check) = ParameterChecks.check(method)
            checks[name] = check
            await server.withMethodHandler(method, handler: body)
        }
        await handle(ListTools.self) { _ in
            await ListTools.Result(tools: service.operations.map(ToolCatalog.tool))
        }
        await handle(CallTool.self) { parameters in
            try await Self.call(parameters, on: service, carry: carry)
        }
        let (toolCall, toolCallCheck) = ParameterChecks.toolCallCheck()
        checks[toolCall] = toolCallCheck
        await handle(ListResources.self) { _ in
            ListResources.Result(resources: SessionResources.list)
        }
        await handle(ListResourceTemplates.self) { _ in
            ListResourceTemplates.Result(templates: SessionResources.templates)
        }
        await handle(ReadResource.self) { parameters in
            ReadResource.Result(contents: try await SessionResources.read(parameters.uri, from: service))
        }
        await handle(ResourceSubscribe.self) { [weak self] parameters in
            try SessionResources.check(parameters.uri)
            await self?.subscribe(parameters.uri, true)
            return Empty()
        }
        await handle(ResourceUnsubscribe.self) { [weak self] parameters in
            try SessionResources.check(parameters.uri)
            await self?.subscribe(parameters.uri, false)
            return Empty()
        }
        await handle(SetLoggingLevel.self) { [weak self] parameters in
            await self?.setLogLevel(parameters.level)
            return Empty()
        }
        return checks
    }

    private static func call(
        _ parameters: CallTool.Parameters, on service: SessionService, carry: @Sendable (String) -> MCP.Value
    ) async throws -> CallTool.Result {
        guard service.operation(named: parameters.name) != nil else {
            var message = "unknown tool '\(parameters.name)'; tools/list lists them"
            if parameters.name.hasPrefix(SessionService.actionPrefix), service.core.current == nil {
                message += " (no model is current, so there are no action tools)"
            }
            throw MCPError.invalidParams(message)
        }
        let arguments: [String: StoreValue.Value]
        do throws(ValueBridge.TooDeep) {
            arguments = try ValueBridge.arguments(parameters.arguments)
        } catch {
            return ToolCatalog.result(
                Outcome(
                    operation: parameters.name, succeeded: false,
                    outputs: [.error(ShellError(error.message, origin: .prompt))]), carry: carry)
        }
        return ToolCatalog.result(await service.perform(parameters.name, arguments: arguments), carry: carry)
    }

    /// Runs a `tools/call` the transport read without the SDK (`DirectToolCall`); a call
    /// to a tool that does not exist goes to the SDK, which answers it as before.
    private func directCalls() -> RequestGate.ToolCallAnswerer {
        let service = service
        let carry = carry
        return { call, reply in
            Task { @MainActor in
                guard service.operation(named: call.name) != nil else { return reply.handOn() }
                reply.answer(
                    ToolCatalog.result(await service.perform(call.name, arguments: call.arguments), carry: carry))
            }
        }
    }

    private func subscribe(_ uri: String, _ on: Bool) {
        if on { subscriptions.insert(uri) } else { subscriptions.remove(uri) }
    }

    private func setLogLevel(_ level: LogLevel) {
        logLevel = level
    }

    /// Tells the client what an event changed: the resources it subscribed to, the list
    /// of tools, and (as log messages) what effects did between calls.
    private func forward(_ event: ServiceEvent) async {
        switch event {
        case .stateChanged:
            for uri in subscriptions.sorted()
            where uri == SessionResources.state || uri.hasPrefix(SessionResources.statePrefix) {
                await notify(ResourceUpdatedNotification.message(.init(uri: uri)))
            }
        case .timelineChanged:
            if subscriptions.contains(SessionResources.timeline) {
                await notify(ResourceUpdatedNotification.message(.init(uri: SessionResources.timeline)))
            }
        case .operationsChanged:
            await notify(ToolListChangedNotification.message())
            if subscriptions.contains(SessionResources.schema) {
                await notify(ResourceUpdatedNotification.message(.init(uri: SessionResources.schema)))
            }
        case .output(let output):
            let level: LogLevel = if case .error = output { .error } else { .info }
            guard LogLevel.allCases.firstIndex(of: level)! >= LogLevel.allCases.firstIndex(of: logLevel)! else {
                return
            }
            let text = OutputFormatter(format: .tree).lines(for: output).joined(separator: "\n")
            let record = OutputFormatter(format: .json).lines(for: output).joined()
            guard !text.isEmpty else { return }
            await notify(
                LogMessageNotification.message(
                    .init(
                        level: level, logger: "storesh",
                        data: .object(["text": .string(text), "record": carry(record)]))))
        }
    }

    /// Sends a notification; one the transport cannot send is dropped (the client is gone).
    private func notify<N: MCP.Notification>(_ message: Message<N>) async {
        try? await server.notify(message)
    }
}

extension MCPSessionServer {
    /// Serves one client on a pair of descriptors, a message per line, until its input
    /// ends and every request read before the end is answered; then stops.
    package func serve(input: Int32, output: Int32) async throws {
        try await start(on: LineTransport(input: input, output: output))
        await server.waitUntilCompleted()
        await stop()
    }
}
