import Dispatch

/// Whether the caller runs on the main queue — the main actor's executor, where a host
/// makes every call into a store — asked through a mark libdispatch keeps on the queue.
/// That costs a fifth of `MainActor.assumeIsolated`'s own check (18 ns against 75–100 ns
/// measured here), which every action and every snapshot of a store made: a tenth of a
/// small state's observed action in a worker.
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Void = DispatchQueue.main.setSpecific(key: key, value: true)

    /// True on the main queue. Not `Thread.isMainThread`: once the main thread calls
    /// `dispatchMain()` (as async programs and test runners on Linux do), main-queue work
    /// runs on another thread.
    static var isCurrent: Bool {
        _ = marked
        // The overlay marks a queue under its key object's address.
        return dispatchGetSpecific(Unmanaged.passUnretained(key).toOpaque()) != nil
    }

    /// `MainActor.assumeIsolated(body)`, with the main queue's mark asked first; off the
    /// main queue the actor's own check decides (and stops a call from elsewhere).
    @inline(__always)
    static func run<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
        if isCurrent { return try onCurrent(body) }
        return try MainActor.assumeIsolated(body)
    }

    /// `body`, run as the main actor's where `isCurrent` said the caller is on the main
    /// queue (as `MainActor.assumeIsolated` runs it once its own check passed).
    @inline(__always)
    static func onCurrent<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
        try withoutActuallyEscaping(body) { isolated in
            try unsafeBitCast(isolated, to: (() throws -> T).self)()
        }
    }
}

/// libdispatch's `dispatch_get_specific`, which the Swift overlay wraps in a generic box
/// that costs twice the call.
@_silgen_name("dispatch_get_specific")
private func dispatchGetSpecific(_ key: UnsafeRawPointer) -> UnsafeMutableRawPointer?
