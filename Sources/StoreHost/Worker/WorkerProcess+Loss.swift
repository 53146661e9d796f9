import Dispatch
import Foundation
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// How a worker comes to be lost, and why: it exited or was killed by a signal (reaped
/// here), stopped answering, or broke the protocol.
extension WorkerProcess {
    /// True while a debugger is attached to the worker: it is stopped on purpose then.
    var isTraced: Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") })
        else { return false }
        return line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) != "0" } ?? false
    }

    /// Marks the worker lost (killing it first when it still runs, and what it started
    /// either way) and returns why.
    func lose(_ cause: WorkerLoss.Cause) -> WorkerLoss {
        if let loss { return loss }
        killGroup()
        switch cause {
        case .signal, .exit: break
        default:
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        drainStderr()
        salvageReplies()
        let loss = WorkerLoss(cause: cause, lastWords: lastWords.text)
        self.loss = loss
        watcher?.stop()
        return loss
    }

    /// Kills the worker's process group: what a plugin started (a helper, a daemon) ends
    /// with its worker. The worker leads a group of its own (`Spawn`'s `ownProcessGroup`);
    /// its id is not reused while a process is in it, even after the worker is reaped (and
    /// an emptied one only when the kernel's pid counter comes round again). A worker that
    /// ended by itself is reaped first, so its own exit status is what the loss reports.
    /// A process that left the group (`setsid`, `setpgid`) is out of reach.
    func killGroup() {
        kill(-pid, SIGKILL)
    }

    /// The worker closed its end: wait for it to exit and say how it ended.
    func reapedCause() -> WorkerLoss.Cause {
        if let exited { return exited }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .protocolError("the worker closed its pipe") }
        }
        return Self.cause(of: status)
    }

    /// Whether the worker has exited though its pipes are still open: a crash reporter
    /// it started can hold them after it is gone.
    func hasExited() -> Bool {
        if exited != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        exited = Self.cause(of: status)
        return true
    }

    /// How the worker ended, from the status `waitpid` gave.
    static func cause(of status: Int32) -> WorkerLoss.Cause {
        switch Spawn.Ending(waitStatus: status) {
        case .signalled(let signal): .signal(signal)
        case .exited(let code): .exit(code)
        }
    }
}
