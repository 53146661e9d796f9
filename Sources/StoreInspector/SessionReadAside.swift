import Foundation
import InspectorRelay
import StoreService

/// The inspector's `RequestGuard` behind a lock: set on the main actor when the server
/// listens, read by the reader of requests, which runs off it.
final class SharedGuardian: @unchecked Sendable {
    private let lock = NSLock()
    private var guardian: RequestGuard?

    var current: RequestGuard? { lock.withLock { guardian } }
    func set(_ guardian: RequestGuard?) { lock.withLock { self.guardian = guardian } }
}

extension InspectorServer {
    /// Answers, without the main actor, what needs nothing of the session as it is now: a
    /// request `RequestGuard` refuses, and `GET /api/session` while an operation or a
    /// script runs on the main actor (from the snapshot the service published at its last
    /// step, `busy` true). Every other message, and that read when nothing runs (answered
    /// fresh), is left to the main actor: false.
    nonisolated static func answeredAside(
        _ message: RelayMessage, guardian: SharedGuardian, snapshot: SessionSnapshot, to writer: RelayWriter
    ) -> Bool {
        guard case .request(let id, let request) = message, let guardian = guardian.current else { return false }
        let response: InspectorResponse
        switch guardian.check(
            method: request.method, path: request.path, queryToken: request.query["token"], headers: request.headers)
        {
        case .refused(let status, let reason):
            response = .text(status, reason)
        case .allowed:
            let latest = snapshot.latest
            guard request.path == "/api/session", latest.busy else { return false }
            response = .json(latest.json)
        }
        guard case .bytes(let bytes) = response.body else { return false }
        writer.send(
            .head(
                id: id,
                RelayedHead(
                    status: response.status, contentType: response.contentType, headers: RelayedHead.guardHeaders)))
        writer.send(.body(id: id, bytes))
        writer.send(.end(id: id))
        return true
    }
}
