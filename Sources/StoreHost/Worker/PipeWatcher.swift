import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Polls a worker's pipes on a thread of its own, for what comes while the main thread is
/// not waiting on them (an effect's events between requests), and reports which are
/// readable (by index) on the main queue — one report at a time: the next poll waits until
/// the main queue has read, so a pipe that stays readable (a dead worker's) does not spin.
/// It polls during a request too, so it wakes at each reply and the main queue finds it
/// taken: holding it off for a request would wake it just the same, to say so.
/// `stop` ends the thread, which then closes the fds.
final class PipeWatcher: @unchecked Sendable {
    private let fds: [Int32]
    private let onReadable: @Sendable (Set<Int>) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var wake: [Int32] = [-1, -1]
    private let handled = DispatchSemaphore(value: 0)

    init(fds: [Int32], onReadable: @escaping @Sendable (Set<Int>) -> Void) {
        self.fds = fds
        self.onReadable = onReadable
        if pipe(&wake) == 0 {
            for fd in wake { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
    }

    func start() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Ends the thread (at its next poll); it closes the fds on its way out. The wake byte
    /// is written under the lock the thread closes the wake pipe under: a thread that was
    /// already leaving (woken by a dying worker's pipe, or by a failed poll) may have
    /// closed it, and its number may be another pipe's by now.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if wake[1] >= 0 {
            var byte: UInt8 = 1
            _ = write(wake[1], &byte, 1)
        }
    }

    /// Blocks until `stop` has been called (its wake byte, or the lock's word).
    private func waitForStop() {
        var byte: UInt8 = 0
        while !isStopped {
            if read(wake[0], &byte, 1) < 0, errno != EINTR { usleep(10_000) }
        }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func run() {
        defer {
            for fd in fds { close(fd) }
            lock.lock()
            for fd in wake where fd >= 0 { close(fd) }
            wake = [-1, -1]
            lock.unlock()
        }
        while !isStopped {
            var polled =
                fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [
                    pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)
                ]
            let count = poll(&polled, nfds_t(polled.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                // The fds stay open until `stop`: the worker's side still reads them, and
                // a number closed early could be another pipe's by its next read.
                return waitForStop()
            }
            if isStopped { return }
            let ready = Set(polled.indices.dropLast().filter { polled[$0].revents != 0 })
            guard !ready.isEmpty else { continue }
            let report = onReadable
            let handled = self.handled
            DispatchQueue.main.async {
                report(ready)
                handled.signal()
            }
            handled.wait()
        }
    }
}
