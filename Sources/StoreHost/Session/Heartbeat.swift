import Synchronization

/// A count that moves while this process's models are being worked: a call into one
/// returns, a probe takes a step, the shell waits a turn for effects. A watchdog beside a
/// search that runs its model in process (a search worker of `storesh explore`) tells a
/// model stuck in one call, where the count stands still, from a long search, where it
/// moves; a worker process's per-request timeout does the same job for models in workers.
package enum Heartbeat {
    private static let beats = Atomic<Int>(0)

    /// Counts one beat: cheap enough for every action.
    @inline(__always)
    package static func beat() {
        beats.wrappingAdd(1, ordering: .relaxed)
    }

    /// The beats so far.
    package static var count: Int { beats.load(ordering: .relaxed) }
}
