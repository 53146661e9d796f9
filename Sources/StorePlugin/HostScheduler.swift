import CStorePlugin
import Dispatch
public import ObservableStore
import StoreRuntime

/// The host clock as a Combine-style scheduler, for publisher effects:
/// `Just(.done).delay(for: .milliseconds(500), scheduler: environment.scheduler)`.
/// Work runs on the main thread.
public struct HostScheduler: Scheduler, Sendable {
    /// The scheduler takes no options.
    public typealias SchedulerOptions = Never
    let services: HostServices

    /// A point on the host clock.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// Nanoseconds on the host clock.
        public let nanoseconds: Int64

        /// The time from this point to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds.subtractingSaturated(nanoseconds))
        }

        /// The point `stride` later.
        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: nanoseconds.addingSaturated(stride.nanoseconds))
        }

        /// A span of host-clock time, in nanoseconds. Its arithmetic saturates: a span too
        /// long for 64 bits of nanoseconds (about 292 years) is the longest there is.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Sendable
        {
            /// The span in nanoseconds.
            public var nanoseconds: Int64

            /// A span of `nanoseconds`.
            public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            /// A span of `seconds` (`0.5`).
            public init(floatLiteral seconds: Double) { nanoseconds = Int64(saturating: seconds * 1e9) }
            /// A span of whole `seconds` (`2`).
            public init(integerLiteral seconds: Int64) { nanoseconds = seconds.multipliedSaturated(by: 1_000_000_000) }
            /// A span of `source` whole seconds, if it fits.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int64(exactly: source) else { return nil }
                nanoseconds = seconds.multipliedSaturated(by: 1_000_000_000)
            }

            /// The span's length without its sign.
            public var magnitude: Int64 {
                nanoseconds.magnitude > UInt64(Int64.max) ? .max : Int64(nanoseconds.magnitude)
            }

            /// `s` seconds.
            public static func seconds(_ s: Int) -> Stride {
                .init(nanoseconds: Int64(saturating: s, unit: 1_000_000_000))
            }
            /// `s` seconds, fractions included.
            public static func seconds(_ s: Double) -> Stride { .init(nanoseconds: Int64(saturating: s * 1e9)) }
            /// `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride {
                .init(nanoseconds: Int64(saturating: ms, unit: 1_000_000))
            }
            /// `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride {
                .init(nanoseconds: Int64(saturating: us, unit: 1_000))
            }
            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { .init(nanoseconds: Int64(saturating: ns, unit: 1)) }

            /// True when `a` is shorter than `b`.
            public static func < (a: Stride, b: Stride) -> Bool { a.nanoseconds < b.nanoseconds }
            /// The two spans together.
            public static func + (a: Stride, b: Stride) -> Stride {
                .init(nanoseconds: a.nanoseconds.addingSaturated(b.nanoseconds))
            }
            /// `a` less `b`.
            public static func - (a: Stride, b: Stride) -> Stride {
                .init(nanoseconds: a.nanoseconds.subtractingSaturated(b.nanoseconds))
            }
            /// The product, with spans counted in seconds.
            public static func * (a: Stride, b: Stride) -> Stride {
                .init(nanoseconds: a.nanoseconds.multipliedSaturated(by: b.nanoseconds, dividingBy: 1_000_000_000))
            }
            /// Adds `b` to `a`.
            public static func += (a: inout Stride, b: Stride) { a = a + b }
            /// Takes `b` from `a`.
            public static func -= (a: inout Stride, b: Stride) { a = a - b }
            /// Multiplies `a` by `b` (in seconds).
            public static func *= (a: inout Stride, b: Stride) { a = a * b }
        }
    }

    init(services: HostServices) {
        self.services = services
    }

    /// The host's time now.
    public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: HostTimers.now(services)) }
    /// Timers fire exactly at their deadline.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// Runs `action` on the main thread, on a later turn.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        EffectScheduling.onMainQueue(services.scope) { work.run() }
    }

    /// Runs `action` on the main thread when the host clock reaches `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedAction(action)
        HostTimers.Pending(services).start(deadline: date.nanoseconds, fire: { work.run() }, onCancel: {})
    }

    /// Runs `action` at `date` and every `interval` after, until cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repeating = RepeatingTimer(
            services: services, action: UncheckedAction(action), interval: interval.nanoseconds)
        repeating.schedule(at: date.nanoseconds)
        return repeating
    }
}

/// A scheduler action carried to the main thread. Schedulers run their actions on one
/// thread (here the main one), which is what makes handing them over safe.
private struct UncheckedAction: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// Fires every `interval` until cancelled.
private final class RepeatingTimer: Cancellable, @unchecked Sendable {
    private let services: HostServices
    private let action: UncheckedAction
    private let interval: Int64
    private var current: HostTimers.Pending?
    private var isCancelled = false

    init(services: HostServices, action: UncheckedAction, interval: Int64) {
        self.services = services
        self.action = action
        self.interval = max(1, interval)
    }

    func schedule(at deadline: Int64) {
        let pending = HostTimers.Pending(services)
        current = pending
        pending.start(
            deadline: deadline,
            fire: { [weak self] in
                guard let self, !self.isCancelled else { return }
                self.action.run()
                // The end of time comes once: a timer there is not scheduled there again.
                if deadline < .max { self.schedule(at: deadline.addingSaturated(self.interval)) }
            }, onCancel: {})
    }

    func cancel() {
        isCancelled = true
        current?.cancel()
    }
}
