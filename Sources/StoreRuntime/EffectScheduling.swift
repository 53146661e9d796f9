import Dispatch
import Foundation

/// Where effect work runs, and whether any of it can run now — per host.
///
/// By default an effect's task runs on Swift's shared pool, as in an app. A host that
/// runs a virtual clock (storesh's transcripts, `explore`, `--virtual-clock`) has the SDK
/// call `runSerially(in:)` for it: every effect task of that host's stores then runs on
/// the main queue, one piece at a time, in the order the pieces became runnable.
/// Everything that makes a piece runnable — an action's update starting an effect, a host
/// timer firing, a delivery of effects' output — happens on the main queue too, so the
/// order of everything an effect does is fixed by the order of the host's calls: the same
/// actions give the same events, with nothing left to the OS scheduler.
///
/// For such a host it also counts, exactly, what could still run without it: pieces
/// queued on the main queue, deliveries not yet made, and effect tasks that are neither
/// finished nor waiting on a host timer (a task waiting on anything else — a real
/// `Task.sleep`, a network call — may still produce output at any time). `isIdle(_:)` is
/// true when all three are zero; the host settles its virtual clock by it instead of
/// guessing from counts of timers.
///
/// A *scope* is one host (the SDK uses its services table's address): a process may run
/// several, and one plugin image serves them all, so nothing here is counted globally.
public enum EffectScheduling {
    /// A host, as the SDK names it; 0 is "no host" (an app), never serial.
    public typealias Scope = UInt

    /// The host whose call the main queue is running now: set by the SDK on each call from
    /// a host, and by a mailbox around each delivery. Main queue only.
    public nonisolated(unsafe) static var scope: Scope = 0

    /// The scope of the effect task running now, when it is counted.
    @TaskLocal public static var taskScope: Scope?

    private static let lock = NSLock()
    // Guarded by `lock`.
    nonisolated(unsafe) private static var hosts: [Scope: Host] = [:]

    private final class Host {
        let executor: AnyObject?
        let worldIsHosts: Bool
        var queued = 0
        var live = 0
        var parked = 0
        init(executor: AnyObject?, worldIsHosts: Bool) {
            self.executor = executor
            self.worldIsHosts = worldIsHosts
        }
    }

    /// Runs the effects of `scope`'s stores serially from now on (for as long as the image
    /// is loaded). `worldIsHosts`: every clock, delay and task of the process is the host's
    /// (a worker's deterministic world), so a task that is suspended waits on the host and
    /// does not keep the scope busy.
    public static func runSerially(in scope: Scope, worldIsHosts: Bool = false) {
        guard scope != 0 else { return }
        var executor: AnyObject?
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) {
            executor = MainQueueTaskExecutor(scope: scope)
        }
        lock.lock()
        if hosts[scope] == nil { hosts[scope] = Host(executor: executor, worldIsHosts: worldIsHosts) }
        lock.unlock()
    }

    /// True when `scope`'s effects run serially.
    public static func isSerial(_ scope: Scope) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return hosts[scope] != nil
    }

    /// True when no effect work of `scope` can run without its host: nothing queued for
    /// the main queue, and every counted effect task finished or waiting on a host timer.
    /// Ask on the main queue. Always true for a scope that does not run serially.
    public static func isIdle(_ scope: Scope) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let host = hosts[scope] else { return true }
        return host.queued == 0 && (host.worldIsHosts || host.live == host.parked)
    }

    /// Runs `body` in a new task for an effect: detached on the shared pool, or (when the
    /// current scope runs serially) on the main queue, counted until it returns.
    @discardableResult
    public static func task(
        priority: TaskPriority? = nil, _ body: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        let scope = self.scope
        guard scope != 0, #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
            let executor = executor(scope) as? MainQueueTaskExecutor
        else {
            return Task.detached(priority: priority, operation: body)
        }
        change(scope, live: 1)
        return Task(executorPreference: executor, priority: priority) {
            await $taskScope.withValue(scope) { await body() }
            change(scope, live: -1)
        }
    }

    /// Runs `work` on the main queue on a later turn, counted for `scope` until it has run
    /// (a plain `DispatchQueue.main.async` where `scope` does not run serially).
    public static func onMainQueue(_ scope: Scope, _ work: @escaping @Sendable () -> Void) {
        guard isSerial(scope) else {
            DispatchQueue.main.async(execute: work)
            return
        }
        change(scope, queued: 1)
        DispatchQueue.main.async {
            within(scope, work)
            change(scope, queued: -1)
        }
    }

    /// Runs `body` as work of `scope` (what a task it starts belongs to), then puts the
    /// scope back. Main queue only.
    public static func within(_ scope: Scope, _ body: () -> Void) {
        let previous = self.scope
        self.scope = scope
        body()
        self.scope = previous
    }

    /// A delivery for `scope` was scheduled on the main queue (+1), or made (-1).
    public static func delivery(_ scope: Scope, _ count: Int) { change(scope, queued: count) }

    /// A task of `scope` now waits on a host timer (`true`), or no longer does.
    public static func parked(_ waiting: Bool, in scope: Scope) { change(scope, parked: waiting ? 1 : -1) }

    private static func executor(_ scope: Scope) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return hosts[scope]?.executor
    }

    static func change(_ scope: Scope, queued: Int = 0, live: Int = 0, parked: Int = 0) {
        lock.lock()
        if let host = hosts[scope] {
            host.queued += queued
            host.live += live
            host.parked += parked
        }
        lock.unlock()
    }
}

/// Runs a task's pieces on the main queue, in the order they are enqueued, counted for
/// its scope while queued.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class MainQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    let scope: EffectScheduling.Scope

    init(scope: EffectScheduling.Scope) { self.scope = scope }

    func enqueue(_ job: consuming ExecutorJob) {
        let piece = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let scope = self.scope
        EffectScheduling.change(scope, queued: 1)
        DispatchQueue.main.async {
            EffectScheduling.within(scope) { piece.runSynchronously(on: executor) }
            EffectScheduling.change(scope, queued: -1)
        }
    }
}
