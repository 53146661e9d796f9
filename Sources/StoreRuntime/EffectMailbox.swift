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
    /// The host whose store this is (`EffectScheduling.scope` when it was made), and
    /// whether that host counts its deliveries.
    private let scope: EffectScheduling.Scope
    private let counted: Bool

    /// `deliver` runs on the main actor with each batch of messages, in the order posted.
    /// It should hold its store weakly, so that messages arriving after the store is gone
    /// are dropped.
    public init(deliver: @escaping @MainActor (_ messages: [Message]) -> Void) {
        self.deliver = deliver
        scope = EffectScheduling.scope
        counted = EffectScheduling.isSerial(scope)
    }

    /// Queues `message` for delivery on the main queue. Safe from any thread.
    public func post(_ message: Message) {
        lock.lock()
        pending.append(message)
        let mustSchedule = !isScheduled
        isScheduled = true
        lock.unlock()
        if mustSchedule {
            if counted { EffectScheduling.delivery(scope, 1) }
            DispatchQueue.main.async {
                self.drain()
                if self.counted { EffectScheduling.delivery(self.scope, -1) }
            }
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
        EffectScheduling.within(scope) {
            MainActor.assumeIsolated {
                deliver(draining)
            }
        }
        draining.removeAll(keepingCapacity: true)
    }
}
