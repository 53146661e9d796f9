import FlyingSocks
import InspectorHTTP

/// A client's socket as the bytes of its requests.
struct SocketBytes: RequestByteSource {
    let socket: AsyncSocket

    func read(atMost count: Int, before deadline: ContinuousClock.Instant) async throws -> [UInt8]? {
        let socket = self.socket
        return try await within(deadline) { try await socket.read(atMost: count) }
    }
}

/// The result of `work`, or nil when `deadline` comes first (`work` is then cancelled: a
/// socket wait ends at once when its task is cancelled).
func within<T: Sendable>(
    _ deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () async throws -> T
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}
