import Foundation
import InspectorRelay
import StoreHost

#if canImport(Glibc)
    import Glibc
#endif

/// The inspector's HTTP server: `storesh-inspector`, a process of storesh's own (beside
/// storesh, or `$STORESH_INSPECTOR`). storesh writes it answers on its descriptor 3 and
/// reads its requests from its descriptor 4; closing our end of the first ends it.
final class ServerProcess: @unchecked Sendable {
    /// Why the server could not be started.
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    /// Where answers go.
    let writer: RelayWriter
    /// What the server says, in order: first `listening` or `cannotListen`, then requests.
    /// Ends when the server ends (or says nothing within 5 seconds of its start).
    let messages: AsyncStream<RelayMessage>
    private let lock = NSLock()
    private var stopped = false

    /// Starts a server that is to listen on 127.0.0.1 at `port` (0: any), with `options`
    /// after `--port` (tests shorten its deadlines: `--head-seconds 0.5`).
    init(port: Int, options: [String] = []) throws(StartFailure) {
        var searched: [String] = []
        guard
            let program = CompanionProgram.path(
                named: "storesh-inspector", overriddenBy: "STORESH_INSPECTOR", searched: &searched)
        else {
            throw StartFailure(
                description:
                    "storesh-inspector is not beside storesh (looked in \(searched.joined(separator: ", "))); build it with 'swift build --product storesh-inspector', or set STORESH_INSPECTOR to its path"
            )
        }
        let answers: (read: Int32, write: Int32)
        let requests: (read: Int32, write: Int32)
        do {
            answers = try Spawn.pipe()
            requests = try Spawn.pipe()
        } catch {
            throw StartFailure(description: "cannot make its pipes: \(error)")
        }
        // Its output, should it say anything (a crash), is storesh's standard error.
        let errors = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 10)
        defer { if errors >= 0 { close(errors) } }
        let output: Spawn.Descriptor = errors >= 0 ? .copy(of: errors) : .nullInput
        do {
            pid = try Spawn.start(
                program, arguments: ["--port", String(port)] + options,
                descriptors: [.nullInput, output, output, .copy(of: answers.read), .copy(of: requests.write)],
                ownProcessGroup: true)
        } catch {
            for fd in [answers.read, answers.write, requests.read, requests.write] { close(fd) }
            throw StartFailure(description: "cannot run \(program): \(error)")
        }
        close(answers.read)
        close(requests.write)
        writer = RelayWriter(fd: answers.write)
        let (messages, continuation) = AsyncStream<RelayMessage>.makeStream()
        self.messages = messages
        let fd = requests.read
        Thread.detachNewThread {
            var reader = RelayReader(fd: fd)
            if reader.waitForInput(seconds: 5) {
                while let message = try? reader.next() { continuation.yield(message) }
            }
            continuation.finish()
            close(fd)  // read to its end, or given up on: the server gets EPIPE should it still write
        }
    }

    /// Ends the server: our end of its answers closes, so it exits; it is waited for on
    /// a thread of its own (and killed if it has not ended within a second).
    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // The reaper first: a close that waits for an answer stuck writing to a hung
        // server is freed by the kill.
        let pid = self.pid
        defer { writer.close() }
        Thread.detachNewThread {
            var status: Int32 = 0
            for _ in 0..<100 {
                if waitpid(pid, &status, WNOHANG) != 0 { return }
                usleep(10_000)
            }
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
    }

    deinit { stop() }
}
