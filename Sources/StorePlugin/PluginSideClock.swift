import CStorePlugin
import Foundation
import StoreRuntime

/// The host's clock as a Swift `Clock`. Sleeping schedules a host timer, so under a
/// virtual clock an effect wakes exactly when the host advances time past its deadline.
public struct HostClock: Clock, Sendable {
    let services: HostServices

    /// A point on the host clock, in nanoseconds.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Nanoseconds on the host clock (virtual or real, as the host runs it).
        public let nanoseconds: Int64

        /// The instant at `nanoseconds`.
        public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(nanoseconds: nanoseconds.addingSaturated(duration.nanosecondsClamped))
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            .nanoseconds(other.nanoseconds) - .nanoseconds(nanoseconds)
        }

        /// True when `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    }

    init(services: HostServices) {
        self.services = services
    }

    /// The host's time now.
    public var now: Instant { Instant(nanoseconds: HostTimers.now(services)) }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Waits for a host timer at `deadline`; throws `CancellationError` when the
    /// task is cancelled (the timer is cancelled with it).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let timer = HostTimers.Pending(services, parksTask: EffectScheduling.taskScope != nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                timer.start(deadline: deadline.nanoseconds) {
                    continuation.resume()
                } onCancel: {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            timer.cancel()
        }
    }
}

extension Duration {
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : scaled.addingSaturated(attoseconds / 1_000_000_000)
    }
}

/// Host timers (`clock_wake`, `clock_cancel`) for code on any thread: every call to the
/// host hops to the main thread, as the ABI requires.
enum HostTimers {
    static func now(_ services: HostServices) -> Int64 {
        HostServices.onMain {
            let host = services.host
            return host.clock_now(host.host_data)
        }
    }

    /// One timer: fires once, or is cancelled once, whichever comes first.
    final class Pending: @unchecked Sendable {
        private let services: HostServices
        private let lock = NSLock()
        private var timer: UInt64 = 0
        private var done = false
        /// Set on the main thread by `cancel` before `finish` runs: a `start` whose turn on
        /// the main thread comes after it must not schedule the timer.
        private var cancelRequested = false
        private var fire: (() -> Void)?
        private var cancelled: (() -> Void)?
        /// The effect task that waits on this timer counts as parked while it is scheduled
        /// (`EffectScheduling`): it cannot run until the host fires or cancels it.
        private let parksTask: Bool
        /// Main queue only.
        private var parked = false

        init(_ services: HostServices, parksTask: Bool = false) {
            self.services = services
            self.parksTask = parksTask
        }

        /// Schedules `fire` at `deadline`; `onCancel` runs instead if `cancel` comes first.
        func start(deadline: Int64, fire: @escaping () -> Void, onCancel: @escaping () -> Void) {
            start(fire: fire, onCancel: onCancel) { host, retained in
                host.clock_wake(host.host_data, deadline, Pending.fired, retained)
            }
        }

        /// Runs `fire` when the host delivers the answer of the call to `service` just made
        /// (`service_answer`: the host chooses when); `onCancel` instead if `cancel` comes
        /// first.
        func start(answerOf service: String, fire: @escaping () -> Void, onCancel: @escaping () -> Void) {
            start(fire: fire, onCancel: onCancel) { host, retained in
                service.withCString { host.service_answer(host.host_data, $0, Pending.fired, retained) }
            }
        }

        /// `schedule` asks the host for the callback (on the main thread) and returns its id.
        private func start(
            fire: @escaping () -> Void, onCancel: @escaping () -> Void,
            schedule: @MainActor (storeplugin_host, UnsafeMutableRawPointer) -> UInt64
        ) {
            lock.lock()
            if done {
                lock.unlock()
                onCancel()
                return
            }
            self.fire = fire
            cancelled = onCancel
            lock.unlock()
            let retained = Unmanaged.passRetained(self).toOpaque()
            let scheduled = HostServices.onMain {
                // A cancel decided on the main thread since the check above: no timer (one
                // scheduled now would stay with the host, firing into nothing, and make
                // the shell's settling think an effect waits on it).
                lock.lock()
                let cancelledMeanwhile = cancelRequested || done
                lock.unlock()
                if cancelledMeanwhile {
                    Unmanaged<Pending>.fromOpaque(retained).release()  // the host will never fire it
                    return UInt64(0)
                }
                let timer = schedule(services.host, retained)
                if timer != 0, parksTask {
                    parked = true
                    EffectScheduling.parked(true, in: services.scope)
                }
                return timer
            }
            guard scheduled != 0 else { return }
            lock.lock()
            timer = scheduled
            lock.unlock()
        }

        private static let fired: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
            let pending = Unmanaged<Pending>.fromOpaque(raw!).takeRetainedValue()
            pending.finish(fired: true)
        }

        func cancel() {
            // Decided on the main thread, where timers fire, so fire and cancel never race.
            let cancelledHere: Bool = HostServices.onMain {
                lock.lock()
                let timer = self.timer
                let wasDone = done
                if !wasDone { cancelRequested = true }
                lock.unlock()
                if wasDone { return false }
                if timer != 0 {
                    let host = services.host
                    host.clock_cancel(host.host_data, timer)
                    Unmanaged.passUnretained(self).release()  // the host will never fire it
                }
                unpark()
                return true
            }
            if cancelledHere { finish(fired: false) }
        }

        /// The waiting task may run again (main queue only; once).
        private func unpark() {
            guard parked else { return }
            parked = false
            EffectScheduling.parked(false, in: services.scope)
        }

        private func finish(fired: Bool) {
            lock.lock()
            guard !done else {
                lock.unlock()
                return
            }
            done = true
            let action = fired ? self.fire : cancelled
            self.fire = nil
            cancelled = nil
            lock.unlock()
            // On the main queue (fired or cancelled there): the task is runnable again
            // before the resumption below queues its next piece.
            unpark()
            action?()
        }
    }
}
