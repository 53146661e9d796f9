import Dispatch
import Foundation
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// One worker process and the pipes to it, seen from the shell: requests go out, and the
/// replies and events that come back are read here, on the main thread. Replies are
/// matched to requests in order (each request gets a ticket). Events are handed on in the
/// order they came, those before a reply when the reply is taken; events that arrive
/// between requests are seen by a watcher thread and read on the main queue.
@MainActor
package final class WorkerProcess {
    let pid: pid_t
    /// Where requests go out.
    private let requests: Int32
    /// Where replies and events come in.
    let replies: Int32
    /// Where the worker's stdout and stderr come in.
    let stderr: Int32
    /// Bytes read from `replies` and not yet a whole frame.
    var frames = FrameBuffer()
    /// Where `readReplies` reads to.
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    /// What came in and was not yet handed on, oldest first from `inboxStart`.
    var inbox: [Incoming] = []
    var inboxStart = 0
    /// The tickets of the requests sent and not yet answered, in order; nil for a request
    /// whose reply nobody wants (a store destroyed in passing).
    var awaited: [UInt64?] = []
    var awaitedStart = 0
    private var lastTicket: UInt64 = 0
    /// Watches the reply and stderr pipes between requests.
    var watcher: PipeWatcher?

    /// A frame that came in: an event, or the reply to the request with this ticket.
    enum Incoming {
        case event(type: UInt8, body: [UInt8])
        case reply(ticket: UInt64, body: [UInt8])
    }

    /// A request sent and not yet answered.
    package struct Ticket {
        fileprivate let number: UInt64
        /// The worker the request went to: its answer can come from no other (a worker
        /// started since would never answer it, and would be waited for until it counted
        /// as hung).
        let process: WorkerProcess
    }
    /// The end of the worker's stderr, for crash reports.
    var lastWords = TailBuffer(limit: 16 * 1024)
    /// What of the worker's stderr is forwarded to `onStderr`.
    var stderrLines = StderrLines()
    /// Time spent reading and forwarding the worker's output, which is not the plugin's:
    /// a wait for a reply does not count it against the action timeout.
    var forwardingNanoseconds: UInt64 = 0
    /// How the worker ended, once it has (reaped then, so later checks do not wait).
    var exited: WorkerLoss.Cause?
    /// Set once the worker is gone; every request then fails with it.
    package internal(set) var loss: WorkerLoss?
    /// Each event, in order. Set by the owner.
    var onEvent: ((UInt8, [UInt8]) -> Void)?
    /// The worker died while nobody was waiting for it (an effect crashed it).
    var onLoss: ((WorkerLoss) -> Void)?
    /// Forwards the worker's stderr (the plugin's own prints) as it comes.
    var onStderr: ((String) -> Void)?

    /// Starts `executable` with the protocol on fds 3 (requests) and 4 (replies), stdout
    /// and stderr on one pipe, stdin from /dev/null, in a process group of its own (so
    /// Ctrl-C at the terminal reaches storesh alone, which decides what to stop).
    init(executable: String, environment: [String: String]) throws(WorkerLoss) {
        // Each pipe's ends are above the worker's fds 0–4 and close-on-exec, so storesh's
        // ends leak into no worker.
        var pipes: [(read: Int32, write: Int32)] = []
        do throws(Spawn.Failure) {
            for _ in 0..<3 { pipes.append(try Spawn.pipe()) }
        } catch {
            for made in pipes {
                close(made.read)
                close(made.write)
            }
            throw WorkerLoss(cause: .couldNotStart("cannot make pipes: \(error)"), lastWords: "")
        }
        let (requestPipe, replyPipe, errorPipe) = (pipes[0], pipes[1], pipes[2])
        let child: pid_t
        do throws(Spawn.Failure) {
            child = try Spawn.start(
                executable,
                environment: environment,
                descriptors: [
                    .nullInput, .copy(of: errorPipe.write), .copy(of: errorPipe.write), .copy(of: requestPipe.read),
                    .copy(of: replyPipe.write),
                ],
                ownProcessGroup: true
            )
        } catch {
            for fd in [
                requestPipe.read, replyPipe.write, errorPipe.write, requestPipe.write, replyPipe.read, errorPipe.read,
            ] { close(fd) }
            throw WorkerLoss(cause: .couldNotStart("cannot start the worker \(executable): \(error)"), lastWords: "")
        }
        for fd in [requestPipe.read, replyPipe.write, errorPipe.write] { close(fd) }
        pid = child
        requests = requestPipe.write
        replies = replyPipe.read
        stderr = errorPipe.read
        for fd in [replies, stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        // Between requests a thread of the watcher's own polls the pipes and hands
        // readiness to the main queue. (libdispatch read sources were used first: tearing
        // one down as its worker died and making the next worker's crashed libdispatch's
        // event loop now and then.) The watcher closes the two fds when it stops.
        let watcher = PipeWatcher(fds: [replies, stderr]) { [weak self] ready in
            MainActor.assumeIsolated {
                guard let self, self.loss == nil else { return }
                if ready.contains(1) { _ = self.readStderr() }
                if ready.contains(0) { self.readBetweenRequests() }
            }
        }
        watcher.start()
        self.watcher = watcher
    }

    isolated deinit {
        stop()
        watcher?.stop()  // closes `replies` and `stderr`
        close(requests)
        chunk.deallocate()
    }

    /// Kills the worker (if it still runs) and every process it started, and reaps it.
    package func stop() {
        guard loss == nil else { return }
        forwardOutput()
        killGroup()
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        loss = WorkerLoss(cause: .signal(SIGKILL), lastWords: lastWords.text)
    }

    /// Sends a request and waits for its reply, handing on events that come first.
    /// `timeout`: seconds before the worker counts as hung (nil: no limit); it is then
    /// killed, as it is when `interrupted()` says so. Returns the reply body, or the
    /// worker's refusal (an error it reports, which is not a crash).
    func request(_ type: WorkerProtocol.Request, _ body: [UInt8], timeout: Double?, interrupted: () -> Bool)
        throws(WorkerLoss) -> Result<WireReader, RemoteRefusal>
    {
        try wait(for: send(type, body), timeout: timeout, interrupted: interrupted)
    }

    /// Sends a request without waiting: `wait(for:)` takes its reply later (replies come in
    /// the order requests went out).
    func send(_ type: WorkerProtocol.Request, _ body: [UInt8]) throws(WorkerLoss) -> Ticket {
        if let loss { throw loss }
        try write(WireWriter.frame(type.rawValue, body))
        lastTicket += 1
        awaited.append(lastTicket)
        return Ticket(number: lastTicket, process: self)
    }

    /// Waits for the reply to `ticket` and hands on the events that came before it.
    func wait(for ticket: Ticket, timeout: Double?, interrupted: () -> Bool) throws(WorkerLoss) -> Result<
        WireReader, RemoteRefusal
    > {
        var reader = WireReader(try waitForReply(ticket.number, timeout: timeout, interrupted: interrupted))
        scheduleStrandedEvents()
        do {
            if try reader.u8() == 0 { return .success(reader) }
            return .failure(RemoteRefusal(message: try reader.string()))
        } catch {
            throw lose(.protocolError("\(error)"))
        }
    }

    /// A reply that does not decode: the worker is broken, so it is stopped.
    func malformed(_ error: WireError) -> WorkerLoss {
        lose(.protocolError(error.description))
    }

    /// Sends a request whose reply nobody needs.
    func post(_ type: WorkerProtocol.Request, _ body: [UInt8]) {
        guard loss == nil else { return }
        do {
            try write(WireWriter.frame(type.rawValue, body))
            awaited.append(nil)
        } catch {}
    }

    private func write(_ frame: [UInt8]) throws(WorkerLoss) {
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { Glibc.write(requests, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EINTR {
                // The worker is busy writing to us: read while we wait, or both stall.
                var fds = [
                    pollfd(fd: requests, events: Int16(POLLOUT), revents: 0),
                    pollfd(fd: replies, events: Int16(POLLIN), revents: 0),
                ]
                _ = poll(&fds, 2, 50)
                if fds[1].revents != 0 { try readReplies() }
            } else {
                throw lose(reapedCause())
            }
        }
    }
}

/// The worker refused a request (an error it reports, not a crash): its message.
struct RemoteRefusal: Error {
    let message: String
}
