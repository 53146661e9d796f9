import Foundation
import InspectorRelay

/// The server's side of the relay: each HTTP request goes to storesh with a number, and
/// its answer comes back as a head and a stream of body parts. Thread-safe: handlers run
/// on the connections' tasks, answers arrive on the reading thread.
final class Relay: @unchecked Sendable {
    /// An answer under way: its head still awaited, then its body's parts.
    private struct Pending {
        var head: CheckedContinuation<RelayedHead?, Never>?
        let body: AsyncStream<[UInt8]>.Continuation
    }

    private let writer: RelayWriter
    private let lock = NSLock()
    private var lastID: UInt32 = 0
    private var pending: [UInt32: Pending] = [:]
    private var storeshGone = false

    init(writer: RelayWriter) { self.writer = writer }

    /// Relays `request` and waits for its answer's head; the body's parts follow on the
    /// stream. Nil when storesh is gone. Dropping the stream before it ends tells storesh
    /// the client went away.
    func ask(_ request: RelayedRequest) async -> (head: RelayedHead, body: AsyncStream<[UInt8]>)? {
        let id: UInt32 = lock.withLock {
            lastID &+= 1
            return lastID
        }
        let (body, parts) = AsyncStream<[UInt8]>.makeStream()
        parts.onTermination = { [weak self] ending in
            if case .cancelled = ending { self?.abandon(id) }
        }
        let head = await withCheckedContinuation { (continuation: CheckedContinuation<RelayedHead?, Never>) in
            let registered = lock.withLock {
                guard !storeshGone else { return false }
                pending[id] = Pending(head: continuation, body: parts)
                return true
            }
            guard registered else { return continuation.resume(returning: nil) }
            if !writer.send(.request(id: id, request)) { finish(id) }
        }
        guard let head else { return nil }
        return (head, body)
    }

    /// Takes one message from storesh.
    func deliver(_ message: RelayMessage) {
        switch message {
        case .head(let id, let head):
            let continuation: CheckedContinuation<RelayedHead?, Never>? = lock.withLock {
                defer { pending[id]?.head = nil }
                return pending[id]?.head
            }
            continuation?.resume(returning: head)
        case .body(let id, let bytes):
            _ = lock.withLock { pending[id]?.body }?.yield(bytes)
        case .end(let id):
            finish(id)
        case .listening, .cannotListen, .request, .closed:
            break  // the server's own messages: storesh does not send them
        }
    }

    /// storesh closed its side: every answer under way ends, and none is asked again.
    func endAll() {
        let all: [UInt32] = lock.withLock {
            storeshGone = true
            return Array(pending.keys)
        }
        for id in all { finish(id) }
    }

    /// Ends answer `id`: a head still awaited is nil, the body ends.
    private func finish(_ id: UInt32) {
        guard let ended = lock.withLock({ pending.removeValue(forKey: id) }) else { return }
        ended.head?.resume(returning: nil)
        ended.body.finish()
    }

    /// The client of answer `id` went away while it ran: storesh is told to stop.
    private func abandon(_ id: UInt32) {
        guard lock.withLock({ pending.removeValue(forKey: id) }) != nil else { return }
        writer.send(.closed(id: id))
    }
}
