import Dispatch
import Foundation

/// Carries messages from effects, which may run on any thread, to the main queue.
///
/// Messages are delivered in the order they were posted, on a later main-queue turn than
/// the one that posted them (so a store never re-enters `send`), and in batches: one
/// main-queue hop serves every message posted before it runs.
public final class EffectMailbox<Message>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Message] = []
    private var isScheduled = false
    /// Only touched on the main queue, inside `drain`; kept to reuse its storage.
    private var draining: [Message] = []
    private let deliver: @MainActor (Message) -> Void

    /// `deliver` runs on the main actor once per message. It should hold its store weakly,
    /// so that messages arriving after the store is gone are dropped.
    public init(deliver: @escaping @MainActor (Message) -> Void) {
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

    private func drain() {
        lock.lock()
        swap(&pending, &draining)
        isScheduled = false
        lock.unlock()
        MainActor.assumeIsolated {
            for message in draining {
                deliver(message)
            }
        }
        draining.removeAll(keepingCapacity: true)
    }
}

/// The effects a store has in flight: a handle to cancel each, and its cancellation id.
///
/// Main-actor only, like the stores that own it (their deinit is isolated too), so it
/// needs no lock.
@MainActor
public final class InFlightEffects<Handle> {
    private struct Entry {
        let handle: Handle
        let cancelID: CancelID?
    }

    private var entries: [UInt64: Entry] = [:]
    private var lastID: UInt64 = 0

    public init() {}

    /// The number of effects in flight.
    public var count: Int { entries.count }

    /// Reserves the next effect id (1, 2, 3, … per store).
    public func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Records a started effect.
    public func insert(_ id: UInt64, handle: Handle, cancelID: CancelID?) {
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
    public func remove(cancelID: CancelID) -> [(id: UInt64, handle: Handle)] {
        let matching = entries.filter { $0.value.cancelID == cancelID }.keys.sorted()
        return matching.map { id in (id, entries.removeValue(forKey: id)!.handle) }
    }

    /// Removes every effect and returns them, oldest first.
    public func removeAll() -> [(id: UInt64, handle: Handle)] {
        let all = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.handle) }
        entries.removeAll()
        return all
    }
}
