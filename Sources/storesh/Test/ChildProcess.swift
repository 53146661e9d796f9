import Foundation
import Glibc

/// A child storesh of `storesh test --jobs`, started with `posix_spawn` and waited for with
/// `waitpid`, so its end is known when it ends, whatever it left running. (Foundation's
/// `Process` learns of a child's end from a socket it hands down, which every process the
/// child starts inherits too: a helper a model left running held the whole run until the
/// helper ended.)
struct ChildProcess {
    /// How the child ended.
    enum Ending {
        case exited(Int32)
        case signalled(Int32)
    }

    let pid: pid_t
    /// The read ends of the child's standard output and standard error.
    let output: Int32, errors: Int32

    /// Starts `executable` with `arguments` and this process's environment, standard input
    /// from /dev/null, standard output and error on pipes, and no other descriptor of this
    /// process (a runner's own pipes and sockets stay with it). Throws what went wrong.
    static func start(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        var outputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw ChildProcessError(errno: errno) }
        guard pipe(&errorPipe) == 0 else {
            let problem = errno
            outputPipe.forEach { close($0) }
            throw ChildProcessError(errno: problem)
        }
        // Close-on-exec, so no other child started meanwhile gets them (the child's own
        // are its dup2 copies).
        for fd in outputPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        _ = addCloseFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), unblocked = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGPIPE, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(outputPipe[1])
        close(errorPipe[1])
        guard status == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw ChildProcessError(errno: status)
        }
        return ChildProcess(pid: child, output: outputPipe[0], errors: errorPipe[0])
    }

    /// Waits for the child to end (only this child: others are not reaped).
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        // WIFSIGNALED and friends are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// Reads `fd` into `bytes` until its writers have all closed it, on a thread of its own;
    /// then closes it.
    static func drain(_ fd: Int32, into bytes: ReadBytes) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.append(Data(buffer[0..<count]))
            }
            close(fd)
            bytes.finish()
        }.start()
    }
}

/// Why a child could not be started.
struct ChildProcessError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { String(cString: strerror(errno)) }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which its Swift module does
/// not export: the child closes every descriptor from `lowest` on.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32

/// Bytes read on one thread and looked at from another.
final class ReadBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    private var finished = false

    func append(_ data: Data) {
        lock.lock()
        stored.append(data)
        lock.unlock()
    }

    func finish() {
        lock.lock()
        finished = true
        lock.unlock()
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
