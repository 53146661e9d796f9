/// The seam between hosts and a deterministic world for models run in process
/// (docs/decisions/0002-a-deterministic-world-in-the-worker.md).
///
/// In a worker the world is the whole process. In process it cannot be: storesh's own
/// timers and tokens use the same clocks and entropy. storesh's executable installs an
/// implementation (`PluginHost.inProcessWorld`, backed by CWorkerWorld scoped to model
/// images) that answers only calls made from a model's own code, on the clock of the host
/// that drives it; what it cannot scope — tasks a model starts on Swift's shared pool — it
/// reports, and storesh says so once. Without one (tests, embedders), models in process
/// see the real world.
@MainActor
package protocol InProcessWorld: AnyObject {
    /// Makes `clock` the world's clock; `restarting`: with every model's entropy restarted
    /// from `seed` (a new session or `:seed`), else where it was (another host takes over,
    /// so the models draw no id twice). nil turns the world off.
    func drive(with clock: VirtualClock?, seed: UInt64, restarting: Bool)
    /// The clock the world runs on now.
    var clock: VirtualClock? { get }
    /// Work the world holds for the main queue that has not run yet.
    var outstanding: Int64 { get }
    /// Calls models made that the world could not control since last asked: each the
    /// plugin's name and what the call was.
    func takeUncontrolled() -> [(plugin: String, call: String)]
    /// The edges of plugin code taken since the last take, by plugins built with
    /// SanitizerCoverage's trace-pc-guard, in the order first taken.
    func takeCoverage() -> [UInt32]
}

extension PluginHost {
    /// The in-process world of this process, when its executable has one.
    package static var inProcessWorld: (any InProcessWorld)? {
        get { InProcessWorldSlot.world }
        set { InProcessWorldSlot.world = newValue }
    }

    /// Told of each plugin image loaded in this process (an address in it, and the
    /// plugin's name): the world's model code. Set by storesh's executables.
    package static var modelImageLoaded: ((UnsafeRawPointer, String) -> Void)? {
        get { InProcessWorldSlot.imageLoaded }
        set { InProcessWorldSlot.imageLoaded = newValue }
    }

    /// True when models this host runs in process get the world.
    var drivesInProcessWorld: Bool { worldIsOn && isolation == .inProcess && Self.inProcessWorld != nil }

    /// Points the in-process world at this host's clock (a host that runs models in
    /// process calls it before they run), restarting its entropy when `reseeding`.
    package func driveInProcessWorld(reseeding: Bool = false) {
        guard drivesInProcessWorld, let world = Self.inProcessWorld, let clock = clock as? VirtualClock else { return }
        if reseeding || world.clock !== clock {
            world.drive(with: clock, seed: seed, restarting: reseeding || world.clock == nil)
        }
    }

    /// True while the in-process world holds work of this host's models not yet run.
    package var worldWorkPending: Bool {
        drivesInProcessWorld && (Self.inProcessWorld?.clock === clock) && (Self.inProcessWorld?.outstanding ?? 0) > 0
    }
}

@MainActor
private enum InProcessWorldSlot {
    static var world: (any InProcessWorld)?
    static var imageLoaded: ((UnsafeRawPointer, String) -> Void)?
}
