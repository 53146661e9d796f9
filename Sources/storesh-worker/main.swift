// storesh-worker: runs one plugin in a process of its own, for storesh (see
// docs/worker-protocol.md). It speaks the protocol on fds 3 (requests) and 4 (replies);
// whatever the plugin prints goes to the shell through stdout and stderr.
import Dispatch
import Foundation
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

MainActor.assumeIsolated {
    let server = WorkerServer(input: 3, output: 4)
    server.start()
    WorkerServer.keepAlive(server)
}
dispatchMain()
