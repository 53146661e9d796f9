import Foundation

/// The connections being served, at most `limit` at once. When one more comes, the one
/// that has waited longest for a request's head (idle on keep-alive, or sending a head
/// slowly) is ended to make room: so clients that open connections and send nothing hold
/// no place a page needs. Only when none waits (all are reading a body or being answered,
/// each within its deadlines) is the newcomer refused. Ending is cancelling the
/// connection's task: its socket wait ends at once, and the task closes its own socket.
final class Connections: @unchecked Sendable {
    private struct Entry {
        var task: Task<Void, Never>?
        /// Since when it waits for a head; nil while a request is read or answered.
        var waitingSince: ContinuousClock.Instant?
    }

    private let limit: Int
    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var lastID = 0

    init(limit: Int) { self.limit = limit }

    /// Serves one more connection with `serve` (given its number, for `waiting`), ending the
    /// longest-waiting one to make room if need be; false when there is no room.
    func admit(_ serve: @escaping @Sendable (Int) async -> Void) -> Bool {
        let (id, evicted): (Int?, Task<Void, Never>?) = lock.withLock {
            var evicted: Task<Void, Never>?
            if entries.count >= limit {
                let oldest = entries.filter { $0.value.waitingSince != nil }
                    .min { $0.value.waitingSince! < $1.value.waitingSince! }
                guard let oldest else { return (nil, nil) }
                evicted = entries.removeValue(forKey: oldest.key)?.task
            }
            lastID += 1
            entries[lastID] = Entry(task: nil, waitingSince: .now)
            return (lastID, evicted)
        }
        evicted?.cancel()
        guard let id else { return false }
        let task = Task {
            await serve(id)
            self.leave(id)
        }
        lock.withLock { entries[id]?.task = task }  // absent if it has already ended
        return true
    }

    /// Connection `id` waits for a request's head (true), or reads or answers one.
    func waiting(_ id: Int, _ isWaiting: Bool) {
        lock.withLock { entries[id]?.waitingSince = isWaiting ? .now : nil }
    }

    private func leave(_ id: Int) {
        _ = lock.withLock { entries.removeValue(forKey: id) }
    }
}
