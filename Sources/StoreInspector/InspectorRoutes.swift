import InspectorRelay
import StoreService
import StoreShell
import StoreValue

/// One answer: a status, a type, and bytes or an event stream.
struct InspectorResponse: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case events(EventStream)
    }

    var status: Int
    var contentType: String
    var headers: [String: String] = [:]
    var body: Body

    static func json(_ text: String, status: Int = 200) -> InspectorResponse {
        InspectorResponse(
            status: status, contentType: "application/json; charset=utf-8", body: .bytes(Array(text.utf8)))
    }

    static func text(_ status: Int, _ text: String) -> InspectorResponse {
        InspectorResponse(
            status: status, contentType: "text/plain; charset=utf-8", body: .bytes(Array((text + "\n").utf8)))
    }
}

extension InspectorServer {
    /// The answer to one request: refused unless `RequestGuard` allows it, then the page,
    /// a read, an operation or the event stream.
    func respond(to request: RelayedRequest) async -> InspectorResponse {
        guard let guardian else { return .text(503, "the inspector is not listening") }
        if case .refused(let status, let reason) = guardian.check(
            method: request.method, path: request.path, queryToken: request.query["token"], headers: request.headers)
        {
            return .text(status, reason)
        }
        let number = { (name: String, otherwise: Int) in request.query[name].flatMap { Int($0) } ?? otherwise }
        let model = request.query["model"] ?? service.core.current?.model.qualifiedName ?? ""
        switch request.path {
        case "/", "/index.html":
            return PageAssets.page(nonce: RequestGuard.newToken())
        case "/api/session":
            return .json(service.summaryJSON())
        case "/api/operations":
            return .json(operationsJSON())
        case "/api/timeline":
            return .json(service.timeline.json(after: number("after", 0)))
        case "/api/history":
            return .json(service.historyJSON(model: model, from: number("from", 1), count: number("count", 100)))
        case "/api/state":
            return .json(service.stateJSON(model: model, after: number("after", Int.max)))
        case "/api/events":
            return eventStream()
        default:
            if request.path.hasPrefix("/api/operations/") {
                return await perform(String(request.path.dropFirst("/api/operations/".count)), body: request.body)
            }
            return .text(404, "no such page: \(request.path)")
        }
    }

    /// Runs one operation: the body is a JSON object of its arguments (empty: none), read
    /// as JSON into values (`JSONArguments`) that go to the service as they are.
    private func perform(_ name: String, body: [UInt8]) async -> InspectorResponse {
        guard body.count <= RelayedRequest.bodyLimit else {
            return .text(413, "an operation's arguments are at most 1 MiB")
        }
        let arguments: [String: Value]
        do throws(OperationError) {
            arguments = try JSONArguments.read(body)
        } catch {
            return .json(JSON.object([("ok", "false"), ("error", JSON.string(error.message))]), status: 400)
        }
        return .json(await service.perform(name, arguments: arguments).rendered().record)
    }

    /// Every operation on offer, for a page that makes forms of them.
    private func operationsJSON() -> String {
        JSON.array(
            service.operations.map { operation in
                JSON.object([
                    ("name", JSON.string(operation.name)), ("summary", JSON.string(operation.summary)),
                    ("readsOnly", operation.readsOnly ? "true" : "false"),
                    (
                        "parameters",
                        JSON.array(
                            operation.parameters.map { parameter in
                                JSON.object([
                                    ("name", JSON.string(parameter.name)),
                                    ("required", parameter.required ? "true" : "false"),
                                    ("doc", JSON.string(parameter.doc)),
                                ])
                            })
                    ),
                ])
            })
    }

    /// The service's events as server-sent events: `session` (the summary, after any
    /// change of state or of the operations on offer), `timeline` (the new entries) and
    /// `note` (what the shell said between operations that is not on the timeline: a
    /// reload, a plugin loaded). A comment every 15 seconds finds a page that went away.
    private func eventStream() -> InspectorResponse {
        let (stream, continuation) = EventStream.make()
        let id = nextStream
        nextStream += 1
        streams[id] = continuation
        continuation.yield(EventStream.message("session", service.summaryJSON()))
        let service = self.service
        let events = service.events()
        // Counted now, as the events are subscribed to: counted when the task first ran, an
        // action sent before that was counted as sent, and its entry never was (a flaky
        // `eventsArriveAsTheSessionGoes` on a loaded machine).
        let subscribedAt = service.timeline.count
        let forwarding = Task { @MainActor in
            var sent = subscribedAt
            let formatter = OutputFormatter(format: .json)
            for await event in events {
                switch event {
                case .stateChanged, .operationsChanged:
                    continuation.yield(EventStream.message("session", service.summaryJSON()))
                case .timelineChanged:
                    continuation.yield(EventStream.message("timeline", service.timeline.json(after: sent)))
                    sent = service.timeline.count
                case .output(let output):
                    switch output {
                    case .info, .report, .loaded:
                        continuation.yield(EventStream.message("note", formatter.lines(for: output).joined()))
                    default: break
                    }
                }
            }
        }
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 15_000_000_000)
                continuation.yield(Array(": still here\n\n".utf8))
            }
        }
        continuation.onTermination = { _ in
            forwarding.cancel()
            beat.cancel()
            Task { @MainActor [weak self] in self?.streams[id] = nil }
        }
        return InspectorResponse(status: 200, contentType: "text/event-stream; charset=utf-8", body: .events(stream))
    }
}
