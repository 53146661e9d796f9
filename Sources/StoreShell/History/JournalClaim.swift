import Foundation
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

extension Journal {
    /// One journal, one writer: the journal file, opened for appending and locked for as
    /// long as this process writes it. A second storesh that wants to write the same
    /// journal (`--journal` or `--resume`) is refused with the holder's pid; the lock goes
    /// with the process that held it, so a storesh that died leaves nothing in the way.
    ///
    /// Two advisory locks, on bytes past anything a journal holds: an open-file-description
    /// lock (`F_OFD_SETLK`) on byte 0 is the exclusion — it is not dropped when this
    /// process closes another descriptor of the same file (a journal read while it is
    /// written) — and a process lock (`F_SETLK`) on byte 1 names the writer, which only
    /// process locks can (`F_GETLK` reports their pid).
    package final class Claim {
        /// The journal, open for appending (close-on-exec), locked; closed (and so
        /// unlocked) when the claim goes, or when another claim in this process takes
        /// the file over (-1 then).
        private(set) var descriptor: Int32
        let path: String
        /// The file's device and inode, by which claims in this process find each other.
        private let file: FileID
        /// Set when a later claim in this process took the file over: nothing more may be
        /// written through this one.
        private(set) var revoked = false

        private struct FileID: Hashable {
            let device: UInt64
            let inode: UInt64
        }

        /// The live claims of this process, by file. Locks exclude other processes; within
        /// one process the newest claim of a file wins (a session whose shell is not yet
        /// released must not block the next), and the older one is revoked, so there is
        /// still one writer.
        nonisolated(unsafe) private static var live: [FileID: Weak<Claim>] = [:]
        private static let liveLock = NSLock()

        /// Opens and locks the journal at `path` (made when `create`). Throws when it
        /// cannot be opened, is not a regular file, or another process writes it.
        package init(path: String, create: Bool) throws(Problem) {
            // What is there is looked at before it is opened, and opened without waiting: a
            // FIFO no process reads would hold a plain open for writing for ever.
            var status = stat()
            if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
                throw Problem(message: Self.notAJournal(path, mode: status.st_mode))
            }
            descriptor = open(
                path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (create ? O_CREAT : 0), 0o644)
            guard descriptor >= 0 else { throw Problem(message: "cannot open journal \(path): \(Journal.lastError)") }
            self.path = path
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw Problem(message: Self.notAJournal(path, mode: status.st_mode))
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            file = FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            Self.liveLock.lock()
            let earlier = Self.live[file]?.value
            Self.liveLock.unlock()
            earlier?.revoke()
            // A lock that is held for a moment only is waited for (a second at most): a
            // process that forks shares the lock with its child until the child's exec
            // closes the descriptor. A storesh that writes the journal holds it for good.
            var exclusion = Self.range(0)
            var attempts = 0
            while fcntl(descriptor, Self.setOpenFileLock, &exclusion) != 0, errno == EAGAIN || errno == EACCES,
                attempts < 50
            {
                attempts += 1
                usleep(20_000)
                exclusion = Self.range(0)
            }
            guard fcntl(descriptor, Self.setOpenFileLock, &exclusion) == 0 else {
                let reason =
                    errno == EAGAIN || errno == EACCES
                    ? Self.holder(of: descriptor, path: path) : "cannot lock \(path): \(Journal.lastError)"
                close(descriptor)
                throw Problem(message: reason)
            }
            Self.liveLock.lock()
            Self.live[file] = Weak(self)
            Self.liveLock.unlock()
        }

        /// "cannot use /dev/full as a journal: it is a character device, not a regular file".
        package static func notAJournal(_ path: String, mode: UInt32) -> String {
            "cannot use \(path) as a journal: \(notARegularFile(mode))"
        }

        /// Gives the file up to a later claim in this process.
        private func revoke() {
            revoked = true
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        /// Claims the journal at `path` to go on writing it, when it is a file (a journal
        /// read from a pipe or a device goes on in another file: nil).
        package static func forResuming(_ path: String) throws(Problem) -> Claim? {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            return try Claim(path: path, create: false)
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
            Self.liveLock.lock()
            if Self.live[file]?.value == nil { Self.live[file] = nil }
            Self.liveLock.unlock()
        }

        /// Names this process as the writer, for the message a second writer gets. Made
        /// after the journal was read: closing a descriptor of the file drops a process lock.
        func nameWriter() {
            var marker = Self.range(1)
            _ = fcntl(descriptor, F_SETLK, &marker)
        }

        /// Why the journal cannot be written: who writes it.
        private static func holder(of descriptor: Int32, path: String) -> String {
            var marker = range(1)
            let pid = fcntl(descriptor, F_GETLK, &marker) == 0 && marker.l_type != Int16(F_UNLCK) ? marker.l_pid : 0
            let who = pid > 0 ? "storesh (pid \(pid))" : "another process"
            return
                "\(path) is being written by \(who): a journal has one writer at a time; wait for it to end, or resume a copy of the journal with --journal NEW --resume \(path)"
        }

        /// A write lock on the one byte at `offset`.
        private static func range(_ offset: off_t) -> Glibc.flock {
            var lock = Glibc.flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = offset
            lock.l_len = 1
            return lock
        }

        /// `F_OFD_SETLK` (Linux 3.15), which Glibc's module does not export.
        private static let setOpenFileLock: Int32 = 37
    }
}
