import StoreValue
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a worker process is gone: it crashed (a signal or an exit), did not answer in time,
/// was interrupted, or broke the protocol. `lastWords` is the end of what it wrote to
/// stderr (a Swift runtime failure, a fatal error, a backtrace).
public struct WorkerLoss: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        case signal(Int32)
        case exit(Int32)
        case hung(seconds: Double)
        case interrupted
        case protocolError(String)
        case couldNotStart(String)
    }

    public let cause: Cause
    public let lastWords: String

    public init(cause: Cause, lastWords: String) {
        self.cause = cause
        self.lastWords = lastWords
    }

    /// "SIGILL: arithmetic overflow, Counter.swift:18", "exit status 3", "no answer in 5s".
    public var description: String {
        let crash = CrashReport(lastWords)
        var parts: [String] = []
        switch cause {
        case .signal(let number): parts.append(Self.signalName(number))
        case .exit(let status): parts.append("exit status \(status)")
        case .hung(let seconds): parts.append("no answer in \(Self.seconds(seconds))")
        case .interrupted: parts.append("interrupted")
        case .protocolError(let what): parts.append("protocol error: \(what)")
        case .couldNotStart(let why): parts.append(why)
        }
        if let message = crash.message { parts[0] += ": \(message)" }
        if let place = crash.place { parts.append(place) }
        return parts.joined(separator: ", ")
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))s" : "\(value)s"
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGILL: "SIGILL"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGTRAP: "SIGTRAP"
        default: "signal \(number)"
        }
    }
}

/// One worker process and the pipes to it, seen from the shell: requests go out, and the
/// replies and events that come back are read here, on the main thread. Replies are
/// matched to requests in order (each request gets a ticket). Events are handed on in the
/// order they came, those before a reply when the reply is taken; events that arrive
/// between requests are seen by a watcher thread and read on the main queue.
@MainActor
package final class WorkerProcess {
    let pid: pid_t
    private let requests: Int32
    private let replies: Int32
    private let stderr: Int32
    private var frames = FrameBuffer()
    /// What came in and was not yet handed on, oldest first from `inboxStart`.
    private var inbox: [Incoming] = []
    private var inboxStart = 0
    /// The tickets of the requests sent and not yet answered, in order; nil for a request
    /// whose reply nobody wants (a store destroyed in passing).
    private var awaited: [UInt64?] = []
    private var awaitedStart = 0
    private var lastTicket: UInt64 = 0
    /// Watches the reply and stderr pipes between requests.
    private var watcher: PipeWatcher?

    private enum Incoming {
        case event(type: UInt8, body: [UInt8])
        case reply(ticket: UInt64, body: [UInt8])
    }

    /// A request sent and not yet answered.
    package struct Ticket {
        fileprivate let number: UInt64
    }
    /// The end of the worker's stderr, for crash reports.
    private(set) var lastWords = TailBuffer(limit: 16 * 1024)
    /// Set once the worker is gone; every request then fails with it.
    package private(set) var loss: WorkerLoss?
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
        var requestPipe: [Int32] = [0, 0], replyPipe: [Int32] = [0, 0], errorPipe: [Int32] = [0, 0]
        guard pipe(&requestPipe) == 0, pipe(&replyPipe) == 0, pipe(&errorPipe) == 0 else {
            throw WorkerLoss(cause: .couldNotStart("cannot make pipes: \(String(cString: strerror(errno)))"), lastWords: "")
        }
        // Moved above the worker's fds 0–4, so no dup2 below lands on a pipe end it still
        // needs; and close-on-exec, so storesh's ends leak into no worker.
        requestPipe = requestPipe.map(Self.lifted)
        replyPipe = replyPipe.map(Self.lifted)
        errorPipe = errorPipe.map(Self.lifted)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        posix_spawn_file_actions_adddup2(&actions, requestPipe[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replyPipe[1], 4)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGPIPE, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let arguments = [executable]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        for fd in [requestPipe[0], replyPipe[1], errorPipe[1]] { close(fd) }
        guard status == 0 else {
            for fd in [requestPipe[1], replyPipe[0], errorPipe[0]] { close(fd) }
            throw WorkerLoss(cause: .couldNotStart("cannot start the worker \(executable): \(String(cString: strerror(status)))"), lastWords: "")
        }
        pid = child
        requests = requestPipe[1]
        replies = replyPipe[0]
        stderr = errorPipe[0]
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

    /// `fd` moved to 10 or above, close-on-exec.
    private static func lifted(_ fd: Int32) -> Int32 {
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
        guard moved >= 0 else {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return fd
        }
        close(fd)
        return moved
    }

    isolated deinit {
        stop()
        watcher?.stop() // closes `replies` and `stderr`
        close(requests)
        chunk.deallocate()
    }

    /// Kills the worker (if it still runs) and reaps it.
    package func stop() {
        guard loss == nil else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        loss = WorkerLoss(cause: .signal(SIGKILL), lastWords: lastWords.text)
    }

    /// Sends a request and waits for its reply, handing on events that come first.
    /// `timeout`: seconds before the worker counts as hung (nil: no limit); it is then
    /// killed, as it is when `interrupted()` says so. Returns the reply body, or the
    /// worker's refusal (an error it reports, which is not a crash).
    func request(_ type: WorkerProtocol.Request, _ body: [UInt8], timeout: Double?, interrupted: () -> Bool) throws(WorkerLoss) -> Result<WireReader, RemoteRefusal> {
        try wait(for: send(type, body), timeout: timeout, interrupted: interrupted)
    }

    /// Sends a request without waiting: `wait(for:)` takes its reply later (replies come in
    /// the order requests went out).
    func send(_ type: WorkerProtocol.Request, _ body: [UInt8]) throws(WorkerLoss) -> Ticket {
        if let loss { throw loss }
        try write(WireWriter.frame(type.rawValue, body))
        lastTicket += 1
        awaited.append(lastTicket)
        return Ticket(number: lastTicket)
    }

    /// Waits for the reply to `ticket` and hands on the events that came before it.
    func wait(for ticket: Ticket, timeout: Double?, interrupted: () -> Bool) throws(WorkerLoss) -> Result<WireReader, RemoteRefusal> {
        var reader = WireReader(try waitForReply(ticket.number, timeout: timeout, interrupted: interrupted))
        scheduleStrandedEvents()
        do {
            if try reader.u8() == 0 { return .success(reader) }
            return .failure(RemoteRefusal(message: try reader.string()))
        } catch {
            throw lose(.protocolError("\(error)"))
        }
    }

    /// Events that came after the reply just taken were read off the pipe by this wait, so
    /// no new bytes will wake the watcher for them: hand them on at the next main-queue
    /// turn (in order, before anything read later) unless a request still waits for its
    /// reply, whose taking hands them on.
    private func scheduleStrandedEvents() {
        guard inboxStart < inbox.count, !awaited[awaitedStart...].contains(where: { $0 != nil }) else { return }
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.loss == nil else { return }
                self.deliverUpToReply()
            }
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
                var fds = [pollfd(fd: requests, events: Int16(POLLOUT), revents: 0), pollfd(fd: replies, events: Int16(POLLIN), revents: 0)]
                _ = poll(&fds, 2, 50)
                if fds[1].revents != 0 { try readReplies() }
            } else {
                throw lose(reapedCause())
            }
        }
    }

    /// Reads until the reply to `ticket` is in; hands on the events before it, in order,
    /// and returns it. Events after it stay for the next reply, or for between requests.
    private func waitForReply(_ ticket: UInt64, timeout: Double?, interrupted: () -> Bool) throws(WorkerLoss) -> [UInt8] {
        let started = DispatchTime.now().uptimeNanoseconds
        while true {
            try readReplies()
            if let reply = takeReply(ticket) { return reply }
            var fds = [pollfd(fd: replies, events: Int16(POLLIN), revents: 0), pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 50)
            if ready > 0, fds[1].revents != 0 { _ = readStderr() }
            if interrupted() { throw lose(.interrupted) }
            if hasExited() {
                try readReplies() // what it sent before it died
                if let reply = takeReply(ticket) { return reply }
                throw lose(reapedCause())
            }
            if let timeout {
                let waited = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                if waited >= timeout, !isTraced {
                    throw lose(.hung(seconds: timeout))
                }
            }
        }
    }

    /// The reply to `ticket` if it is in, after handing on the events before it. A reply
    /// to an earlier request before it (a batch still in flight when this request was
    /// made) stays for that request's own wait: dropped, its wait would last until the
    /// worker counted as hung.
    private func takeReply(_ ticket: UInt64) -> [UInt8]? {
        guard let found = inbox[inboxStart...].firstIndex(where: { if case .reply(ticket, _) = $0 { true } else { false } }),
              case .reply(_, let body) = inbox[found] else { return nil }
        var events: [Incoming] = []
        for index in inboxStart..<found {
            guard case .event(let type, _) = inbox[index], type != 0 else { continue }
            events.append(inbox[index])
            inbox[index] = .event(type: 0, body: []) // taken
        }
        inbox[found] = .event(type: 0, body: [])
        while inboxStart < inbox.count, case .event(type: 0, _) = inbox[inboxStart] { inboxStart += 1 }
        compactInbox()
        deliver(events)
        return body
    }

    private func compactInbox() {
        if inboxStart == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxStart = 0
        } else if inboxStart > 1024, inboxStart * 2 > inbox.count {
            inbox.removeSubrange(0..<inboxStart)
            inboxStart = 0
        }
    }

    /// True while a debugger is attached to the worker: it is stopped on purpose then.
    private var isTraced: Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }) else { return false }
        return line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) != "0" } ?? false
    }

    /// Reads whatever the worker has sent, into frames; throws when it is gone.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    private func readReplies() throws(WorkerLoss) {
        if let loss { throw loss }
        while true {
            let count = read(replies, chunk.baseAddress!, chunk.count)
            if count > 0 {
                frames.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                do throws(WireError) {
                    while let frame = try frames.next() { try take(frame) }
                } catch {
                    throw lose(.protocolError(error.description))
                }
                if count < chunk.count { return }
            } else if count == 0 {
                throw lose(reapedCause())
            } else if errno == EINTR {
                continue
            } else {
                return // EAGAIN: nothing more for now
            }
        }
    }

    /// Files one frame: an event, or the reply to the oldest request still unanswered
    /// (dropped when nobody wants it).
    private func take(_ frame: (type: UInt8, body: [UInt8])) throws(WireError) {
        guard frame.type == WorkerProtocol.Message.reply.rawValue else {
            inbox.append(.event(type: frame.type, body: frame.body))
            return
        }
        guard awaitedStart < awaited.count else { throw WireError(description: "a reply to no request") }
        let ticket = awaited[awaitedStart]
        awaitedStart += 1
        if awaitedStart == awaited.count {
            awaited.removeAll(keepingCapacity: true)
            awaitedStart = 0
        }
        if let ticket { inbox.append(.reply(ticket: ticket, body: frame.body)) }
    }

    /// Between requests: events arrive (effects at work), or the worker dies.
    private func readBetweenRequests() {
        guard loss == nil else { return }
        do {
            try readReplies()
        } catch {
            deliverUpToReply()
            onLoss?(error)
            return
        }
        deliverUpToReply()
    }

    /// Hands on the events that arrived before any reply still waiting for its request.
    private func deliverUpToReply() {
        let end = inbox[inboxStart...].firstIndex { if case .reply = $0 { true } else { false } } ?? inbox.count
        let events = Array(inbox[inboxStart..<end])
        inboxStart = end
        compactInbox()
        deliver(events)
    }

    /// Hands on `events` in order. Reentrant: a handler may make a request, which reads
    /// (and files) more.
    private func deliver(_ events: [Incoming]) {
        for case .event(let type, let body) in events where type != 0 {
            onEvent?(type, body)
        }
    }

    /// Reads the worker's stderr; false at its end.
    private func readStderr() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(stderr, $0.baseAddress!, $0.count) }
            if count > 0 {
                let text = String(decoding: chunk[0..<count], as: UTF8.self)
                lastWords.append(text)
                forwardLines(text)
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count != 0
            }
        }
    }

    /// Hands on whole lines of what the plugin prints, until a crash report starts (that
    /// goes into the error storesh reports, and `:crash` shows it whole).
    private func forwardLines(_ text: String) {
        guard !crashing else { return }
        partialLine += text
        guard let end = partialLine.lastIndex(of: "\n") else { return }
        let lines = partialLine[...end]
        partialLine = String(partialLine[partialLine.index(after: end)...])
        var forwarded = ""
        for line in lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if CrashReport.failureKinds.contains(where: { line.contains($0) }) || line.hasPrefix("*** Signal ") || line.hasPrefix("💣") {
                crashing = true
                break
            }
            // Blank lines wait for the next line: a crash report starts with one.
            if line.isEmpty {
                blankLines += 1
                continue
            }
            forwarded += String(repeating: "\n", count: blankLines) + line + "\n"
            blankLines = 0
        }
        if !forwarded.isEmpty { onStderr?(forwarded) }
    }

    private var blankLines = 0
    private var partialLine = ""
    private var crashing = false

    /// Marks the worker lost (killing it first when it still runs) and returns why.
    private func lose(_ cause: WorkerLoss.Cause) -> WorkerLoss {
        if let loss { return loss }
        switch cause {
        case .signal, .exit: break
        default:
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
        drainStderr()
        let loss = WorkerLoss(cause: cause, lastWords: lastWords.text)
        self.loss = loss
        watcher?.stop()
        return loss
    }

    /// The worker closed its end: wait for it to exit and say how it ended.
    private func reapedCause() -> WorkerLoss.Cause {
        if let exited { return exited }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .protocolError("the worker closed its pipe") }
        }
        return Self.cause(of: status)
    }

    /// How the worker ended, once it has (reaped here, so later checks do not wait).
    private var exited: WorkerLoss.Cause?

    /// Whether the worker has exited though its pipes are still open: a crash reporter
    /// it started can hold them after it is gone.
    private func hasExited() -> Bool {
        if exited != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        exited = Self.cause(of: status)
        return true
    }

    private static func cause(of status: Int32) -> WorkerLoss.Cause {
        let signal = status & 0x7f
        if signal != 0 { return .signal(signal) }
        return .exit((status >> 8) & 0xff)
    }

    /// After the worker is gone: the rest of its stderr (its last words).
    private func drainStderr() {
        let deadline = DispatchTime.now().uptimeNanoseconds + 500_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            var fds = [pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { return }
            if !readStderr() { return }
        }
    }
}

/// The worker refused a request (an error it reports, not a crash): its message.
struct RemoteRefusal: Error {
    let message: String
}

/// The last `limit` bytes of a text stream.
struct TailBuffer {
    let limit: Int
    private var bytes: [UInt8] = []

    init(limit: Int) { self.limit = limit }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Polls a worker's pipes on a thread of its own while the main thread is not waiting on
/// them, and reports which are readable (by index) on the main queue — one report at a
/// time: the next poll waits until the main queue has read, so a pipe that stays readable
/// (a dead worker's) does not spin. `stop` ends the thread, which then closes the fds.
private final class PipeWatcher: @unchecked Sendable {
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

    /// Ends the thread (at its next poll); it closes the fds on its way out.
    func stop() {
        lock.lock()
        let first = !stopped
        stopped = true
        lock.unlock()
        if first, wake[1] >= 0 {
            var byte: UInt8 = 1
            _ = write(wake[1], &byte, 1)
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
            for fd in wake where fd >= 0 { close(fd) }
        }
        while !isStopped {
            var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } + [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            let count = poll(&polled, nfds_t(polled.count), -1)
            if count < 0 {
                if errno == EINTR { continue }
                return
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
