import Dispatch
import Foundation

#if canImport(Glibc)
    package import Glibc
#endif

/// Looking for the other process's next message on a pipe without sleeping, briefly: a
/// sleeping process takes tens of microseconds to wake, and most of storesh's round trips
/// to a worker take less (`storesh explore` makes thousands a second). Both sides spin
/// before they sleep: storesh for a reply, a worker for the explorer's next request.
package enum PipeSpin {
    /// Whether spinning pays: there is another processor for the other process to run on
    /// meanwhile (with one, spinning only takes its time).
    package static let pays = ProcessInfo.processInfo.activeProcessorCount >= 2

    /// How long to look before sleeping.
    static let nanoseconds: UInt64 = 50_000

    /// Polls `fds` without sleeping for up to 50 µs, yielding the processor between looks,
    /// when spinning pays; the number ready (0: none yet, or it does not pay).
    package static func poll(_ fds: inout [pollfd]) -> Int32 {
        guard pays else { return 0 }
        let until = DispatchTime.now().uptimeNanoseconds + nanoseconds
        repeat {
            let ready = Glibc.poll(&fds, nfds_t(fds.count), 0)
            if ready != 0 { return ready }
            sched_yield()
        } while DispatchTime.now().uptimeNanoseconds < until
        return 0
    }
}
