#if canImport(Glibc)
    package import Glibc
#endif

/// How storesh starts a process of its own (a worker, a `storesh test` child): one recipe.
///
/// `posix_spawn`, never Foundation's `Process` (which hands down a socket that every
/// process the child starts inherits, so a helper left running holds up whoever waits
/// for the child). The child gets the descriptors it is handed and no other: everything
/// from the first descriptor not handed down is closed in the child, close-on-exec or
/// not. Its signal mask is empty (a libdispatch thread blocks every signal, and a child
/// inherits its starter's mask) and the signals storesh handles or ignores are back to
/// their default actions. On request it leads a process group of its own.
package enum Spawn {
    /// What one of the child's descriptors is.
    package enum Descriptor: Sendable {
        /// /dev/null, opened read-only (standard input with nothing to read).
        case nullInput
        /// A copy of this process's descriptor `fd`.
        case copy(of: Int32)
    }

    /// Why a process could not be started or a pipe made: the system's error number.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let errno: Int32

        package init(errno: Int32) { self.errno = errno }

        /// The system's words for it ("No such file or directory").
        package var description: String { String(cString: strerror(errno)) }
    }

    /// How a child ended, from the status `waitpid` gives.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// Decodes `status` (WIFSIGNALED and friends are macros Swift does not import).
        package init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }
    }

    /// The signals whose action the child gets back to the default: those storesh
    /// catches or ignores.
    private static let defaultedSignals = [SIGINT, SIGPIPE, SIGTERM, SIGQUIT]

    /// Starts `executable` with `arguments` after its name, `environment` (nil: this
    /// process's), and `descriptors` as its descriptors 0, 1, 2, …; it inherits no other.
    /// `ownProcessGroup`: the child leads a new process group (so Ctrl-C at the terminal
    /// does not reach it). The descriptors copied must be numbered `descriptors.count` or
    /// above, as `pipe()`'s are, so that no copy lands on one still to be copied. Returns
    /// the child's pid; the caller closes its copies of the child's ends and reaps it.
    package static func start(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String]? = nil,
        descriptors: [Descriptor],
        ownProcessGroup: Bool = false
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, descriptor) in descriptors.enumerated() {
            let number = Int32(number)
            switch descriptor {
            case .nullInput:
                posix_spawn_file_actions_addopen(&actions, number, "/dev/null", O_RDONLY, 0)
            case .copy(let fd):
                precondition(
                    fd >= descriptors.count, "a descriptor to hand down is numbered below \(descriptors.count)")
                posix_spawn_file_actions_adddup2(&actions, fd, number)
            }
        }
        // Should it fail, the descriptors of storesh's own pipes are close-on-exec still.
        _ = addCloseFrom(&actions, Int32(descriptors.count))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaulted = sigset_t()
        var unblocked = sigset_t()
        sigemptyset(&defaulted)
        for signal in defaultedSignals { sigaddset(&defaulted, signal) }
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        } else {
            status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        }
        guard status == 0 else { throw Failure(errno: status) }
        return child
    }

    /// A pipe for a child: both ends close-on-exec (no other child gets them; the one
    /// they are for gets its copy) and numbered 10 or above (above any descriptor a child
    /// is handed, so `start` can copy them anywhere).
    package static func pipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw Failure(errno: errno) }
        return (lifted(ends[0]), lifted(ends[1]))
    }

    /// `fd` moved to 10 or above, close-on-exec (only made close-on-exec if it cannot move).
    private static func lifted(_ fd: Int32) -> Int32 {
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
        guard moved >= 0 else {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return fd
        }
        close(fd)
        return moved
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which its Swift module does
/// not export: the child closes every descriptor from `lowest` on.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32
