// storesh-worker: runs one plugin in a process of its own, for storesh (see
// docs/worker-protocol.md). It speaks the protocol on fds 3 (requests) and 4 (replies);
// whatever the plugin prints goes to the shell through stdout and stderr.
import Dispatch
import Foundation
import StoreHost

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
