import Dispatch
import Foundation
import Glibc
import Synchronization

/// `storesh test --jobs N` stopped by SIGTERM, SIGINT or SIGHUP: the children running
/// transcripts are stopped with it (each child's workers end with their parent), no new
/// one starts, and the run is reported as interrupted. Without this the runner died alone
/// and left its children and their workers running, adopted by init.
final class TestInterruption: Sendable {
    /// The signals that stop a run.
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// The signal that stopped the run, 0 while none has.
    private let caught = Atomic<Int32>(0)
    /// The children running now, under `lock` (an `NSLock`, a pthread mutex that
    /// ThreadSanitizer understands: it took `Synchronization.Mutex`'s futex for no lock).
    nonisolated(unsafe) private var children: Set<pid_t> = []
    private let lock = NSLock()
    /// Touched only in init and deinit.
    nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

    /// Catches the signals from now on (until the value is gone).
    init() {
        let queue = DispatchQueue(label: "storesh.test.signals")
        var made: [any DispatchSourceSignal] = []
        for signal in Self.signals {
            Glibc.signal(signal, SIG_IGN)  // delivered to the source instead
            made.append(DispatchSource.makeSignalSource(signal: signal, queue: queue))
        }
        sources = made
        for (signal, source) in zip(Self.signals, sources) {
            source.setEventHandler { [weak self] in self?.stop(by: signal) }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
        for signal in Self.signals { Glibc.signal(signal, SIG_DFL) }
    }

    /// The signal that stopped the run, if one did.
    var signal: Int32? {
        let value = caught.load(ordering: .acquiring)
        return value == 0 ? nil : value
    }

    /// Registers a child just started; false (and the child is stopped) when the run was
    /// stopped meanwhile.
    func started(_ child: pid_t) -> Bool {
        let stopped = lock.withLock {
            children.insert(child)
            return signal != nil
        }
        if stopped { kill(child, SIGTERM) }
        return !stopped
    }

    /// The child has been waited for.
    func ended(_ child: pid_t) {
        _ = lock.withLock { children.remove(child) }
    }

    private func stop(by signal: Int32) {
        guard caught.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        let running = lock.withLock { children }
        for child in running { kill(child, SIGTERM) }
    }

    /// "SIGTERM", "SIGINT", "SIGHUP".
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
