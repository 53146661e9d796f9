import CStorePlugin
import Dispatch
public import ObservableStore

/// The host clock as a Combine-style scheduler, for publisher effects:
/// `Just(.done).delay(for: .milliseconds(500), scheduler: environment.scheduler)`.
/// Work runs on the main thread.
public struct HostScheduler: Scheduler, Sendable {
    public typealias SchedulerOptions = Never
    let services: HostServices

    /// A point on the host clock.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        public let nanoseconds: Int64

        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds - nanoseconds)
        }

        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: nanoseconds + stride.nanoseconds)
        }

        /// A span of host-clock time, in nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Sendable
        {
            public var nanoseconds: Int64

            public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
            public init(floatLiteral seconds: Double) { nanoseconds = Int64(seconds * 1e9) }
            public init(integerLiteral seconds: Int64) { nanoseconds = seconds * 1_000_000_000 }
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int64(exactly: source) else { return nil }
                nanoseconds = seconds * 1_000_000_000
            }

            public var magnitude: Int64 { nanoseconds.magnitude > UInt64(Int64.max) ? .max : Int64(nanoseconds.magnitude) }

            public static func seconds(_ s: Int) -> Stride { .init(nanoseconds: Int64(s) * 1_000_000_000) }
            public static func seconds(_ s: Double) -> Stride { .init(nanoseconds: Int64(s * 1e9)) }
            public static func milliseconds(_ ms: Int) -> Stride { .init(nanoseconds: Int64(ms) * 1_000_000) }
            public static func microseconds(_ us: Int) -> Stride { .init(nanoseconds: Int64(us) * 1_000) }
            public static func nanoseconds(_ ns: Int) -> Stride { .init(nanoseconds: Int64(ns)) }

            public static func < (a: Stride, b: Stride) -> Bool { a.nanoseconds < b.nanoseconds }
            public static func + (a: Stride, b: Stride) -> Stride { .init(nanoseconds: a.nanoseconds + b.nanoseconds) }
            public static func - (a: Stride, b: Stride) -> Stride { .init(nanoseconds: a.nanoseconds - b.nanoseconds) }
            public static func * (a: Stride, b: Stride) -> Stride { .init(nanoseconds: a.nanoseconds * b.nanoseconds / 1_000_000_000) }
            public static func += (a: inout Stride, b: Stride) { a = a + b }
            public static func -= (a: inout Stride, b: Stride) { a = a - b }
            public static func *= (a: inout Stride, b: Stride) { a = a * b }
        }
    }

    init(services: HostServices) {
        self.services = services
    }

    public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: HostTimers.now(services)) }
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        DispatchQueue.main.async { work.run() }
    }

    public func schedule(after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        HostTimers.Pending(services).start(deadline: date.nanoseconds, fire: { work.run() }, onCancel: {})
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repeating = RepeatingTimer(services: services, action: UncheckedAction(action), interval: interval.nanoseconds)
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
        pending.start(deadline: deadline, fire: { [weak self] in
            guard let self, !self.isCancelled else { return }
            self.action.run()
            self.schedule(at: deadline + self.interval)
        }, onCancel: {})
    }

    func cancel() {
        isCancelled = true
        current?.cancel()
    }
}
