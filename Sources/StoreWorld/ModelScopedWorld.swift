import CWorkerWorld
import StoreHost
import StoreValue

/// The deterministic world for models run in process (`--in-process`), backed by
/// CWorkerWorld scoped to model images: only a call made from a model's own code reads
/// the driving host's virtual clock and the seeded entropy, or waits on that clock.
/// Installed by storesh's executables (`installInProcessWorld()`); see
/// docs/decisions/0002-a-deterministic-world-in-the-worker.md.
@MainActor
final class ModelScopedWorld: InProcessWorld {
    private(set) var clock: VirtualClock?

    func drive(with clock: VirtualClock?, seed: UInt64, restarting: Bool) {
        self.clock?.onMove = nil
        self.clock = clock
        guard let clock else {
            storesh_world_enable(0, 0)
            return
        }
        storesh_world_set_now(clock.now)
        clock.onMove = { storesh_world_set_now($0) }
        if restarting || storesh_world_is_on() == 0 {
            storesh_world_enable(1, seed)
        } else {
            storesh_world_restart_clock()
        }
    }

    var outstanding: Int64 { storesh_world_outstanding() }

    func takeCoverage() -> [UInt32] {
        // No more edges can be pending than were numbered; only the taken ones are kept.
        var room = [UInt32](repeating: 0, count: Int(storesh_coverage_edges()))
        let count = min(Int(storesh_coverage_take(&room, UInt32(room.count))), room.count)
        return Array(room[..<count])
    }

    func takeUncontrolled() -> [(plugin: String, call: String)] {
        var reports: [(plugin: String, call: String)] = []
        var name: UnsafePointer<CChar>?
        while case let call = storesh_world_take_uncontrolled(&name), call != 0, let name {
            reports.append((String(cString: name), Self.describe(call)))
        }
        return reports
    }

    private static func describe(_ call: UInt32) -> String {
        switch call {
        case UInt32(STORESH_WORLD_CALL_TASK.rawValue):
            "a task of its own on Swift's shared pool (Task { } or Task.detached)"
        case UInt32(STORESH_WORLD_CALL_DELAY.rawValue): "a delayed dispatch"
        case UInt32(STORESH_WORLD_CALL_RANDOM.rawValue): "an entropy source"
        default: "a clock"
        }
    }
}

/// Gives this process's in-process hosts a deterministic world for their models: only for
/// an executable that links CWorkerWorld and exports its functions (Package.swift).
@MainActor
package func installInProcessWorld() {
    let world = ModelScopedWorld()
    PluginHost.modelImageLoaded = { address, plugin in storesh_world_add_model_image(address, plugin) }
    storesh_world_install(
        { delay, work in
            let work = Unchecked(work)
            return MainActor.assumeIsolated {
                guard let world = PluginHost.inProcessWorld, let clock = world.clock else { return 0 }
                let (deadline, overflow) = clock.now.addingReportingOverflow(delay)
                _ = clock.wake(at: overflow ? .max : deadline) { storesh_world_fire(work.value) }
                return 1
            }
        }, 0)
    PluginHost.inProcessWorld = world
}
