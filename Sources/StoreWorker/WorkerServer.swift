import Dispatch
import Foundation
import StoreHost
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's side of the protocol (docs/worker-protocol.md): runs in `storesh-worker`,
/// loads one plugin in its own process and answers the shell's requests on the main
/// thread. Each store it hosts is an `InProcessConnection` — the same connection storesh
/// uses with `--in-process` — whose state updates it passes on; it holds no state itself.
@MainActor
package final class WorkerServer {
    private let input: Int32
    private let output: Int32
    private var frames = FrameBuffer()
    var host: PluginHost?
    var plugin: LoadedPlugin?
    var stores: [UInt32: InProcessConnection] = [:]
    let clock = ShellTime()
    /// The model's clocks and entropy: the session's while the world is on.
    let world: (any ModelWorld)?
    /// The shell's `--check-changes`, for the host made at `load`.
    var checksChanges = false
    private var source: (any DispatchSourceRead)?
    /// While an action of a `sendObserved` batch runs: the messages it causes, kept for
    /// the reply instead of sent.
    var captured: (writer: WireWriter, count: UInt32)?
    /// Stores whose last observed batch was cut short (after an action that started effects,
    /// or at a refusal when asked to stop).
    var cutShort: Set<UInt32> = []
    /// The checks probes sent, parsed (by context and text).
    var parsedConditions: [String: StateCondition] = [:]

    /// Keeps the server of this process alive while the main queue runs.
    package static func keepAlive(_ server: WorkerServer) { running = server }
    /// The server of this process, once `keepAlive` has it.
    package private(set) static var running: WorkerServer?

    /// Serves requests from `input` and answers on `output` (fds 3 and 4 in a worker);
    /// `world` is the process's deterministic world, when it has one.
    package init(input: Int32, output: Int32, world: (any ModelWorld)? = nil) {
        self.input = input
        self.output = output
        self.world = world
    }

    /// Puts `fire` on the session's clock, `delay` ns from now (the world's delayed work).
    package func wake(after delay: Int64, _ fire: @escaping @MainActor () -> Void) {
        let (deadline, overflow) = clock.shellNow.addingReportingOverflow(delay)
        _ = clock.wake(at: overflow ? .max : deadline, fire)
    }

    /// Starts reading requests on the main queue; the caller then runs the main queue
    /// (`dispatchMain()`). The process exits when the shell closes the pipe.
    package func start() {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        clock.onWake = { [weak self] timer, deadline in
            var body = WireWriter()
            body.u64(timer)
            body.i64(deadline)
            self?.send(.wake, body)
        }
        clock.onAnswer = { [weak self] timer, service in
            var body = WireWriter()
            body.u64(timer)
            body.string(service)
            self?.send(.answer, body)
        }
        clock.onCancel = { [weak self] timer in
            var body = WireWriter()
            body.u64(timer)
            self?.send(.cancel, body)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: input, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readRequests() } }
        source.resume()
        self.source = source
    }

    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)

    private func readRequests() {
        readAvailableRequests()
        guard lingering, !lingerQueued else { return }
        // Behind whatever the requests queued on this queue (an abandoned store's
        // cancellation, a timer's registration): that runs first, as it does when the
        // next request comes through the dispatch source, so the order of events is the same.
        lingerQueued = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.lingerQueued = false
                if self.lingering, Self.nextRequestArrives(on: self.input) { self.readRequests() }
            }
        }
    }

    /// After a probe, the next request is the explorer's next batch or run, due within
    /// microseconds: waiting for it on the pipe, not through the dispatch source (whose
    /// wake-up passes through two threads), takes a quarter off a run in a worker. Set by a
    /// probe that ran to its end; kept through the requests that start the next run;
    /// cleared by any other, and given up after a millisecond without a request. The wait
    /// is queued behind the work on this queue, never in front of it.
    var lingering = false
    /// A wait for the next request is on the queue (at most one is).
    private var lingerQueued = false

    /// Whether a request arrives on `input` within a millisecond: looked for without
    /// sleeping for the first 50 µs when there is another processor to run the shell on (a
    /// sleeping process takes tens of microseconds to wake), then waited for.
    private static func nextRequestArrives(on input: Int32) -> Bool {
        var ready = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        return PipeSpin.poll(&ready) > 0 || poll(&ready, 1, 1) > 0
    }

    private func readAvailableRequests() {
        while true {
            let count = read(input, chunk.baseAddress!, chunk.count)
            if count > 0 {
                frames.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                if count < chunk.count { break }
            } else if count == 0 {
                exit(0)  // the shell is gone
            } else if errno == EINTR {
                continue
            } else {
                break
            }
        }
        do {
            while let frame = try frames.next() { handle(frame.type, frame.body) }
        } catch {
            StandardStreams.error("storesh-worker: \(error)\n")
            exit(3)
        }
    }

    private func handle(_ type: UInt8, _ body: [UInt8]) {
        var reader = WireReader(body)
        var reply = WireWriter()
        reply.u8(0)
        do {
            clock.shellNow = try reader.i64()
            world?.setNow(clock.shellNow)
            guard let request = WorkerProtocol.Request(rawValue: type) else {
                throw WireError(description: "unknown request \(type)")
            }
            // Explore's runs go probe, coverage, destroy, world, create, probe…: those keep the
            // worker waiting on the pipe; any other request hands it back to the queue.
            switch request {
            case .probe, .coverage, .destroy, .world, .create: break
            default: lingering = false
            }
            if let refusal = try answer(request, &reader, into: &reply) {
                reply = WireWriter()
                reply.u8(1)
                reply.string(refusal)
            }
        } catch {
            StandardStreams.error("storesh-worker: a request does not decode: \(error)\n")
            exit(3)
        }
        send(.reply, reply)
    }

    /// Answers one request into `reply`; returns a refusal message instead when the
    /// request cannot be done (the worker goes on).
    private func answer(_ request: WorkerProtocol.Request, _ reader: inout WireReader, into reply: inout WireWriter)
        throws(WireError) -> String?
    {
        switch request {
        case .hello:
            let version = try reader.u32()
            guard version == WorkerProtocol.version else {
                reply.u32(WorkerProtocol.version)
                return nil
            }
            clock.isVirtual = try reader.bool()
            checksChanges = try reader.bool()
            try setWorld(&reader)
            reply.u32(WorkerProtocol.version)
            reply.u32(PluginHost.abiVersion)
            reply.string(PluginHost.toolchain)
            reply.i64(Int64(getpid()))
        case .load:
            return load(try reader.string(), into: &reply)
        case .create:
            return try create(&reader, into: &reply)
        case .destroy:
            let id = try reader.u32()
            stores.removeValue(forKey: id)?.destroy()
            cutShort.remove(id)
        case .send:
            let id = try reader.u32()
            let store = try store(id)
            let index = Int(try reader.u32())
            let arguments = try reader.values()
            let wantState = try reader.bool()
            if case .refused(let message) = sendAction(index, arguments, to: store, wantState: wantState, into: &reply)
            {
                return message
            }
        case .replay:
            let store = try store(try reader.u32())
            let name = try reader.string()
            let arguments = try reader.values()
            do {
                reply.bool(try store.replay(name, arguments: arguments))
            } catch {
                return error.message
            }
        case .restore:
            let store = try store(try reader.u32())
            let state = try reader.value()
            do {
                reply.bool(try store.restore(state))
            } catch {
                return error.message
            }
        case .snapshot:
            let store = try store(try reader.u32())
            let whole = try reader.bool()
            do {
                try writeState(of: store, whole: whole, into: &reply)
            } catch {
                return error.message
            }
        case .stub:
            return try stub(&reader)
        case .fire:
            clock.fire(try reader.u64())
        case .replayBatch:
            try replayBatch(&reader, into: &reply)
        case .sendBatch:
            try sendBatch(&reader, into: &reply)
        case .sendObserved:
            try sendObserved(&reader, into: &reply)
        case .effectsIdle:
            let store = try store(try reader.u32())
            do {
                // Work the world holds for the main queue is the model's too.
                let modelSays = try store.effectsIdle()
                let worldQuiet = (world?.outstanding ?? 0) == 0
                reply.u8(worldQuiet ? modelSays.map { $0 ? 1 : 0 } ?? 2 : 0)
            } catch {
                return error.message
            }
        case .world:
            try setWorld(&reader)
        case .check:
            return try check(&reader, into: &reply)
        case .probe:
            return try probe(&reader, into: &reply)
        case .coverage:
            // The edges of plugin code taken since the last ask (plugins built with
            // trace-pc-guard), in the order first taken.
            let edges = world?.takeCoverage() ?? []
            reply.u32(UInt32(edges.count))
            for edge in edges { reply.u32(edge) }
        }
        return nil
    }

    /// Reads the world's setting (u8 on, u64 seed) and applies it: on only on a virtual
    /// clock, and only where the process has a world to turn on.
    private func setWorld(_ reader: inout WireReader) throws(WireError) {
        let on = try reader.bool()
        let seed = try reader.u64()
        let enabled = on && clock.isVirtual && world != nil
        world?.enable(enabled, seed: seed)
        clock.controlsTheWorld = enabled
    }

    func store(_ id: UInt32) throws(WireError) -> InProcessConnection {
        guard let store = stores[id] else { throw WireError(description: "no store \(id)") }
        return store
    }

    /// Writes the store's state for the shell: whole when asked (or when reads go whole:
    /// then as the plugin wrote it, without decoding), else its changes since the last
    /// state sent.
    func writeState(of store: InProcessConnection, whole: Bool = false, into writer: inout WireWriter)
        throws(SessionError)
    {
        if let number = try store.readEncodedWhole(whole: whole) {
            writer.wholeState(number: number, encoded: store.encodedState)
        } else {
            writer.state(try store.read(whole: whole))
        }
    }

    /// Sends a message to the shell, or keeps it for the reply while an observed batch's
    /// action runs.
    func send(_ type: WorkerProtocol.Message, _ body: WireWriter) {
        if var kept = captured {
            captured = nil  // no copy of the kept bytes while appending
            kept.writer.u8(type.rawValue)
            kept.writer.counted(body.bytes)
            kept.count += 1
            captured = kept
            return
        }
        // What the plugin printed goes first, so the shell shows it before this message (C's
        // stdio holds a pipe's output until a buffer fills; Swift's print is C's stdout).
        fflush(nil)
        let frame = WireWriter.frame(type.rawValue, body.bytes)
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                exit(0)  // the shell is gone
            }
        }
    }
}
