import Foundation
import MCP
import StoreService
import StoreShell

/// The session's resources: the state (whole, or a part by path), the timeline of actions
/// and effects, and the current model's schema. Reads go through the `SessionService`,
/// in turn with the operations.
enum SessionResources {
    static let state = "storesh://state"
    static let statePrefix = "storesh://state/"
    static let timeline = "storesh://timeline"
    static let schema = "storesh://schema"

    static let list: [Resource] = [
        Resource(
            name: "state", uri: state, title: "State", description: "The current model's state, as JSON.",
            mimeType: "application/json"),
        Resource(
            name: "timeline", uri: timeline, title: "Timeline",
            description:
                "The newest actions, effect events and actions effects applied, in order, as JSON (the log tool gives the whole history).",
            mimeType: "application/json"),
        Resource(
            name: "schema", uri: schema, title: "Schema",
            description: "The current model's actions: names, parameters and their kinds, docs.",
            mimeType: "application/json"),
    ]

    static let templates: [Resource.Template] = [
        Resource.Template(
            uriTemplate: "storesh://state/{path}", name: "state-part", title: "Part of the state",
            description:
                "The part of the state at a path: count, todos[0].title, todos[\"t1\"] (percent-encoded where a URI needs it).",
            mimeType: "application/json")
    ]

    /// Throws unless `uri` names one of the resources (a part of the state by any path:
    /// whether the path names something is known when it is read).
    static func check(_ uri: String) throws {
        guard uri == state || uri == timeline || uri == schema || uri.hasPrefix(statePrefix) else {
            throw MCPError.invalidParams("no resource \(uri); resources/list lists them")
        }
    }

    /// The contents of `uri`; an error with the shell's message when the read fails (no
    /// model, a path that names nothing) or the URI is none of these.
    @MainActor static func read(_ uri: String, from service: SessionService) async throws -> [Resource.Content] {
        let limit = Outcome.characterLimit
        switch uri {
        case timeline:
            var last = Timeline.capacity
            var text = service.timeline.json(last: last)
            while text.utf8.count > limit, last > 1 {
                last /= 2
                text = service.timeline.json(last: last)
            }
            return [.text(text, uri: uri, mimeType: "application/json")]
        case schema:
            return [
                .text(try await record(of: service.run(":actions"), uri: uri), uri: uri, mimeType: "application/json")
            ]
        case state:
            return try await stateContents(path: nil, uri: uri, service: service)
        default:
            try check(uri)
            let encoded = String(uri.dropFirst(statePrefix.count))
            let path = encoded.removingPercentEncoding ?? encoded
            return try await stateContents(path: path.isEmpty ? nil : path, uri: uri, service: service)
        }
    }

    @MainActor private static func stateContents(path: String?, uri: String, service: SessionService) async throws
        -> [Resource.Content]
    {
        let outcome = await service.perform("state", arguments: path.map { ["path": .string($0)] } ?? [:])
        guard outcome.succeeded, case .state(_, let value, _, _)? = outcome.outputs.last else {
            throw MCPError.invalidParams(outcome.errors.first?.message ?? "the state could not be read")
        }
        let json = JSON.value(value)
        guard json.utf8.count <= Outcome.characterLimit else {
            let note =
                "The state\(path.map { " at \($0)" } ?? "") is \(json.utf8.count) characters of JSON, more than the \(Outcome.characterLimit) a read gives: read a part, storesh://state/PATH (such as \(statePrefix)todos%5B0%5D), or use the state tool with a depth."
            return [.text(note, uri: uri, mimeType: "text/plain")]
        }
        return [.text(json, uri: uri, mimeType: "application/json")]
    }

    /// The `--format json` record of the last thing `outcome` reported.
    private static func record(of outcome: Outcome, uri: String) throws -> String {
        guard outcome.succeeded, let last = outcome.outputs.last else {
            throw MCPError.invalidParams(outcome.errors.first?.message ?? "\(uri) could not be read")
        }
        return OutputFormatter(format: .json).lines(for: last).joined()
    }
}
