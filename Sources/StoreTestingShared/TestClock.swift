import Dispatch
import Foundation

/// A clock that stands still until the test moves it: give it to a model's environment
/// (as `any Clock<Duration>`), and effects that sleep on it wake only when
/// `advance(by:)` reaches their deadline — in deadline order, then in the order they went
/// to sleep. Timed effects become instant and repeatable.
public final class TestClock: Clock, @unchecked Sendable {
    /// A point on the test clock: the time since it was made.
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public let offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration = .zero) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// True when `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant()
    private var sleepers: [Sleeper] = []
    private var lastID: UInt64 = 0

    /// A clock standing at its start.
    public init() {}

    /// Where the clock stands: moved only by `advance(by:)`.
    public var now: Instant { lock.withLock { current } }
    /// Any duration can be slept exactly.
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to move.
    public var sleeping: Int { lock.withLock { sleepers.count } }

    /// Waits until `advance(by:)` reaches `deadline` (at once if it has passed); throws
    /// `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = lock.withLock { () -> UInt64 in
            lastID += 1
            return lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock `onCancel` takes: a cancel that came before this sleep was
                // listed found nothing to remove, and would leave it listed for good.
                let wake = lock.withLock { () -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let wake { continuation.resume(with: wake) }
            }
        } onCancel: {
            let cancelled = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking each sleep that falls due in order and
    /// letting what it wakes run (effects deliver through the main queue) before the next.
    @MainActor
    public func advance(by duration: Duration) async {
        await Self.settle()  // work already started reaches its sleep first
        let target = now.advanced(by: duration)
        while let next = takeNext(dueBy: target) {
            next.continuation.resume()
            await Self.settle()
        }
        lock.withLock { current = max(current, target) }
        await Self.settle()
    }

    private func takeNext(dueBy target: Instant) -> Sleeper? {
        lock.withLock {
            guard
                let index = sleepers.indices.min(by: {
                    (sleepers[$0].deadline, sleepers[$0].id) < (sleepers[$1].deadline, sleepers[$1].id)
                }),
                sleepers[index].deadline <= target
            else { return nil }
            let sleeper = sleepers.remove(at: index)
            current = max(current, sleeper.deadline)
            return sleeper
        }
    }

    /// A few turns of the main queue and of the task pool, so work a wake-up started
    /// (an effect's task, its action on the way to the store) gets where it is going.
    @MainActor
    static func settle() async {
        for _ in 0..<8 {
            await Task.yield()
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
    }
}
