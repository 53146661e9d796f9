// storesh-worker: runs one plugin in a process of its own, for storesh (see
// docs/worker-protocol.md). It speaks the protocol on fds 3 (requests) and 4 (replies);
// whatever the plugin prints goes to the shell through stdout and stderr.
import CWorkerWorld
import Dispatch
import Foundation
import StoreHost
import StoreValue
import StoreWorker

// Nothing else storesh had open belongs here (fds without close-on-exec that it got from
// its own parent: a test runner's sockets, say); a crash reporter this process starts
// would keep them open as long as it runs.
let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
for fd in inherited.compactMap({ Int32($0) }) where fd > 4 { close(fd) }

// The protocol's pipes stay with this process: a crash reporter it starts must not hold
// them open after it is gone (storesh sees the end of the pipe as the worker's death).
_ = fcntl(3, F_SETFD, FD_CLOEXEC)
_ = fcntl(4, F_SETFD, FD_CLOEXEC)

// Ctrl-C is the shell's to handle: it decides whether to stop this worker.
signal(SIGINT, SIG_IGN)
signal(SIGPIPE, SIG_IGN)

// A worker outlives its shell only by mistake (a plugin spinning when storesh was
// killed): once the parent is gone, exit.
let parent = getppid()
Thread.detachNewThread {
    while true {
        sleep(1)
        if getppid() != parent { exit(0) }
    }
}

/// The C world of this process (CWorkerWorld), as the server sees it.
@MainActor
final class ProcessWorld: ModelWorld {
    func enable(_ on: Bool, seed: UInt64) { storesh_world_enable(on ? 1 : 0, seed) }
    var isOn: Bool { storesh_world_is_on() != 0 }
    func setNow(_ now: Int64) { storesh_world_set_now(now) }
    var outstanding: Int64 { storesh_world_outstanding() }
    var callsSeen: UInt32 { storesh_world_calls_seen() }
    func takeCoverage() -> [UInt32] {
        // No more edges can be pending than were numbered; only the taken ones are kept.
        var room = [UInt32](repeating: 0, count: Int(storesh_coverage_edges()))
        let count = min(Int(storesh_coverage_take(&room, UInt32(room.count))), room.count)
        return Array(room[..<count])
    }
}

MainActor.assumeIsolated {
    let server = WorkerServer(input: 3, output: 4, world: ProcessWorld())
    server.start()
    WorkerServer.keepAlive(server)
    // The world's delayed work waits on the session's clock (called on the main thread).
    PluginHost.modelImageLoaded = { address, plugin in storesh_world_add_model_image(address, plugin) }
    storesh_world_install(
        { delay, work in
            let work = Unchecked(work)
            return MainActor.assumeIsolated {
                guard let server = WorkerServer.running else { return 0 }
                server.wake(after: delay) { storesh_world_fire(work.value) }
                return 1
            }
        }, 1)
}

dispatchMain()
