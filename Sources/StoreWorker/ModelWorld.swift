/// The clocks, entropy and executors the worker's model sees, process-wide: storesh-worker
/// backs this with the C functions of its deterministic world (CWorkerWorld,
/// docs/decisions/0002-a-deterministic-world-in-the-worker.md). A server without one (in
/// tests) leaves the model the real world.
@MainActor
package protocol ModelWorld: AnyObject {
    /// Turns the world on with its entropy restarted from `seed`, or off.
    func enable(_ on: Bool, seed: UInt64)
    /// Whether it is on.
    var isOn: Bool { get }
    /// Moves the time the model reads to the session's `now` (ns).
    func setNow(_ now: Int64)
    /// Work handed to a queue, or on its way to the clock, that has not run yet.
    var outstanding: Int64 { get }
    /// Which kinds of call the world has answered since it was turned on: clock, entropy,
    /// delay, task (bits 1, 2, 4, 8).
    var callsSeen: UInt32 { get }
    /// The edges of plugin code taken since the last take (`storesh_coverage_take`).
    func takeCoverage() -> [UInt32]
}
