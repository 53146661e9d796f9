import Dispatch
import Foundation

/// Carries messages from effects, which may run on any thread, to the main queue.
///
/// Messages are delivered in the order they were posted, on a later main-queue turn than
/// the one that posted them (so a store never re-enters `send`), and in batches: one
/// main-queue hop, and one call of `deliver`, serves every message posted before it runs
/// (an isolated closure checks its executor on every call, so once per batch is cheaper).
public final class EffectMailbox<Message>: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    @exclusivity(unchecked) private var pending: [Message] = []
    @exclusivity(unchecked) private var isScheduled = false
    /// Only touched on the main queue, inside `drain`; kept to reuse its storage.
    @exclusivity(unchecked) private var draining: [Message] = []
    private let deliver: @MainActor ([Message]) -> Void

    /// `deliver` runs on the main actor with each batch of messages, in the order posted.
    /// It should hold its store weakly, so that messages arriving after the store is gone
    /// are dropped.
    public init(deliver: @escaping @MainActor (_ messages: [Message]) -> Void) {
        self.deliver = deliver
    }

    /// Queues `message` for delivery on the main queue. Safe from any thread.
    public func post(_ message: Message) {
        lock.lock()
        pending.append(message)
        let mustSchedule = !isScheduled
        isScheduled = true
        lock.unlock()
        if mustSchedule {
            DispatchQueue.main.async { self.drain() }
        }
    }

    /// Runs `body` holding the mailbox's lock: for the small state of the effects that
    /// post here (one lock per store, not one allocated per effect). `body` must not post.
    public func withLock(_ body: () -> Void) {
        lock.lock()
        body()
        lock.unlock()
    }

    private func drain() {
        lock.lock()
        swap(&pending, &draining)
        isScheduled = false
        lock.unlock()
        MainActor.assumeIsolated {
            deliver(draining)
        }
        draining.removeAll(keepingCapacity: true)
    }
}

/// What a store keeps to stop an effect: a Combine subscriber, a task.
public protocol EffectHandle {
    /// Stops the effect; what it produces after this is dropped.
    func cancel()
}

extension Task: EffectHandle {}

/// The effects a store has in flight: a handle to cancel each, and its cancellation id.
///
/// Main-actor only, like the stores that own it (their deinit is isolated too), so it
/// needs no lock. Not generic: a store runs its effects in unspecialized generic code,
/// where a generic dictionary would look up its type metadata on every insert and remove.
@MainActor
public final class InFlightEffects {
    private struct Entry {
        let handle: any EffectHandle
        let cancelID: CancelID?
    }

    @exclusivity(unchecked) private var entries: [UInt64: Entry] = [:]
    @exclusivity(unchecked) private var lastID: UInt64 = 0

    /// No effects in flight.
    public init() {}

    /// The number of effects in flight.
    public var count: Int { entries.count }

    /// Reserves the next effect id (1, 2, 3, … per store).
    public func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Records a started effect.
    public func insert(_ id: UInt64, handle: any EffectHandle, cancelID: CancelID?) {
        entries[id] = Entry(handle: handle, cancelID: cancelID)
    }

    /// True while effect `id` is in flight (started, not finished or cancelled).
    public func contains(_ id: UInt64) -> Bool {
        entries[id] != nil
    }

    /// Forgets a finished effect. Returns false if it was not in flight.
    @discardableResult
    public func remove(_ id: UInt64) -> Bool {
        entries.removeValue(forKey: id) != nil
    }

    /// Removes every effect started with `cancelID` and returns them, oldest first.
    public func remove(cancelID: CancelID) -> [(id: UInt64, handle: any EffectHandle)] {
        let matching = entries.filter { $0.value.cancelID == cancelID }.keys.sorted()
        return matching.map { id in (id, entries.removeValue(forKey: id)!.handle) }
    }

    /// Removes every effect and returns them, oldest first.
    public func removeAll() -> [(id: UInt64, handle: any EffectHandle)] {
        let all = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.handle) }
        entries.removeAll()
        return all
    }
}
