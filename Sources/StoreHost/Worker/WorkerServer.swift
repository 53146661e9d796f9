import Dispatch
import Foundation
import StoreValue
#if canImport(Glibc)
import Glibc
#endif

/// The worker's side of the protocol: runs in `storesh-worker`, loads one plugin in its
/// own process and answers the shell's requests on the main thread, through the same
/// in-process `PluginHost` and `Session` storesh uses with `--in-process`.
@MainActor
public final class WorkerServer {
    private let input: Int32
    private let output: Int32
    private var frames = FrameBuffer()
    private var host: PluginHost?
    private var plugin: LoadedPlugin?
    private var stores: [UInt32: Session] = [:]
    /// Per store, the number of the last state read sent to the shell: the next read's
    /// changes are sent instead of the whole state when they apply to it.
    private var sentReads = SentReads()
    private let clock = ShellTime()
    /// The shell's `--check-changes`, for the host made at `load`.
    private var checksChanges = false
    private var source: (any DispatchSourceRead)?
    /// While an action of a `sendObserved` batch runs: the messages it causes, kept for
    /// the reply instead of sent.
    private var captured: (writer: WireWriter, count: UInt32)?
    /// Stores whose last observed batch was cut short (after an action that started effects,
    /// or at a refusal when asked to stop).
    private var cutShort: Set<UInt32> = []

    /// Keeps the server of this process alive while the main queue runs.
    public static func keepAlive(_ server: WorkerServer) { running = server }
    private static var running: WorkerServer?

    /// Serves requests from `input` and answers on `output` (fds 3 and 4 in a worker).
    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Starts reading requests on the main queue; the caller then runs the main queue
    /// (`dispatchMain()`). The process exits when the shell closes the pipe.
    public func start() {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        clock.onWake = { [weak self] timer, deadline in
            var body = WireWriter()
            body.u64(timer)
            body.i64(deadline)
            self?.send(.wake, body)
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
        while true {
            let count = read(input, chunk.baseAddress!, chunk.count)
            if count > 0 {
                frames.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                if count < chunk.count { break }
            } else if count == 0 {
                exit(0) // the shell is gone
            } else if errno == EINTR {
                continue
            } else {
                break
            }
        }
        do {
            while let frame = try frames.next() { handle(frame.type, frame.body) }
        } catch {
            FileHandle.standardError.write(Data("storesh-worker: \(error)\n".utf8))
            exit(3)
        }
    }

    private func handle(_ type: UInt8, _ body: [UInt8]) {
        var reader = WireReader(body)
        var reply = WireWriter()
        reply.u8(0)
        do {
            clock.shellNow = try reader.i64()
            guard let request = WorkerProtocol.Request(rawValue: type) else { throw WireError(description: "unknown request \(type)") }
            if let refusal = try answer(request, &reader, into: &reply) {
                reply = WireWriter()
                reply.u8(1)
                reply.string(refusal)
            }
        } catch {
            FileHandle.standardError.write(Data("storesh-worker: a request does not decode: \(error)\n".utf8))
            exit(3)
        }
        send(.reply, reply)
    }

    /// Answers one request into `reply`; returns a refusal message instead when the
    /// request cannot be done (the worker goes on).
    private func answer(_ request: WorkerProtocol.Request, _ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) -> String? {
        switch request {
        case .hello:
            let version = try reader.u32()
            clock.isVirtual = try reader.bool()
            checksChanges = try reader.bool()
            reply.u32(WorkerProtocol.version)
            guard version == WorkerProtocol.version else { return nil }
            reply.u32(PluginHost.abiVersion)
            reply.string(PluginHost.toolchain)
            reply.i64(Int64(getpid()))
        case .load:
            return load(try reader.string(), into: &reply)
        case .create:
            let id = try reader.u32()
            let index = Int(try reader.u32())
            guard let plugin, plugin.models.indices.contains(index), let host else { return "no model \(index) in this worker" }
            do {
                let session = try Session(model: plugin.models[index], host: host)
                session.keepsEncodedState = true
                stores[id] = session
                session.onEvent = { [weak self] event in self?.forward(event, from: id) }
                guard let read = session.lastRead else { return "the store's state was not read" }
                writeState(read, of: id, into: &reply, whole: true)
            } catch {
                return error.message
            }
        case .destroy:
            let id = try reader.u32()
            stores[id] = nil
            sentReads[id] = nil
            cutShort.remove(id)
        case .send:
            let id = try reader.u32()
            let session = try store(id)
            let index = Int(try reader.u32())
            let arguments = try reader.values()
            let wantState = try reader.bool()
            if case .refused(let message) = sendAction(index, arguments, of: session.model.actions, to: session, id: id, wantState: wantState, into: &reply) { return message }
        case .replay:
            let session = try store(&reader)
            let name = try reader.string()
            let arguments = try reader.values()
            do {
                reply.bool(try session.replay(name, arguments: arguments))
            } catch {
                return error.message
            }
        case .restore:
            let session = try store(&reader)
            let state = try reader.value()
            do {
                reply.bool(try session.restore(state))
            } catch {
                return error.message
            }
        case .snapshot:
            let id = try reader.u32()
            let session = try store(id)
            let whole = try reader.bool()
            do {
                writeState(try session.read(), of: id, into: &reply, whole: whole)
            } catch {
                return error.message
            }
        case .stub:
            return try stub(&reader)
        case .fire:
            clock.fire(try reader.u64())
        case .replayBatch:
            let session = try store(&reader)
            var flags: [UInt8] = []
            var stopped: String?
            for _ in 0..<(try reader.u32()) {
                let name = try reader.string()
                let arguments = try reader.values()
                guard stopped == nil else { continue }
                do {
                    flags.append(try session.replay(name, arguments: arguments) ? 1 : 0)
                } catch {
                    stopped = error.message
                }
            }
            reply.u32(UInt32(flags.count))
            reply.bytes += flags
            reply.bool(stopped != nil)
            if let stopped { reply.string(stopped) }
        case .sendBatch:
            let id = try reader.u32()
            let session = try store(id)
            let stopAtFailure = try reader.bool()
            let stateAfter = try reader.bool()
            var outcomes = WireWriter()
            var processed: UInt32 = 0
            var stopped = false
            for _ in 0..<(try reader.u32()) {
                let index = Int(try reader.u32())
                let arguments = try reader.values()
                guard !stopped else { continue }
                processed += 1
                do throws(SessionError) {
                    guard session.model.actions.indices.contains(index) else { throw SessionError(message: "no action \(index)") }
                    let result = try session.send(session.model.actions[index], arguments: arguments, observe: false)
                    outcomes.u8((result.stateChanged ? 1 : 0) | (result.effectsStarted > 0 ? 2 : 0))
                } catch {
                    outcomes.u8(4)
                    outcomes.string(error.message)
                    stopped = stopAtFailure
                }
            }
            reply.u32(processed)
            reply.bytes += outcomes.bytes
            let read = stateAfter ? try? session.read() : nil
            reply.bool(read != nil)
            if let read { writeState(read, of: id, into: &reply) }
        case .sendObserved:
            try sendObserved(&reader, into: &reply)
        }
        return nil
    }

    private enum SendAnswer {
        case refused(String)
        case applied(startedEffects: Bool)
    }

    /// One action as `send` answers it: writes whether it changed the state, how many
    /// effects it started and, when asked and changed, the state; or says why the model
    /// refused it.
    private func sendAction(_ index: Int, _ arguments: [Value], of actions: [ActionDescriptor], to session: Session, id: UInt32, wantState: Bool, into reply: inout WireWriter) -> SendAnswer {
        guard actions.indices.contains(index) else { return .refused("no action \(index)") }
        do {
            let result = try session.send(actions[index], arguments: arguments, observe: false)
            reply.bool(result.stateChanged)
            reply.u32(UInt32(result.effectsStarted))
            if wantState, result.stateChanged {
                do {
                    if let read = try session.readEncodedWhole() {
                        reply.u8(1)
                        reply.wholeState(number: read.number, encoded: read.bytes)
                        sentReads[id] = read.number
                    } else {
                        let read = try session.read()
                        reply.u8(1)
                        writeState(read, of: id, into: &reply)
                    }
                } catch {
                    reply.u8(2)
                    reply.string(error.message)
                }
            } else {
                reply.u8(0)
            }
            return .applied(startedEffects: result.effectsStarted > 0)
        } catch {
            return .refused(error.message)
        }
    }

    /// Send observed: each action as `send` answers it, preceded by the messages it caused
    /// (effect events, effect actions with their states, log lines, timers), kept in order
    /// so the shell handles them after that action and before the next. It stops after an
    /// action that starts effects, and after a refusal when asked to; a batch continuing a
    /// batch it stopped that way is skipped.
    private func sendObserved(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) {
        let id = try reader.u32()
        let session = try store(id)
        let stopAtFailure = try reader.bool()
        let wantState = try reader.bool()
        let continuing = try reader.bool()
        let stateAfter = try reader.bool()
        var processed: UInt32 = 0
        // The count goes first and is known last: written as 0, then set.
        let countAt = reply.bytes.count
        reply.u32(0)
        // A batch continuing one this worker cut short is skipped whole: the shell sends its
        // actions again once it has shown the ones before.
        var stopped = continuing && cutShort.contains(id)
        defer {
            captured = nil
            if stopped { cutShort.insert(id) } else { cutShort.remove(id) }
        }
        // One action's messages and answer are gathered apart (the messages come first in
        // the reply, the answer is written as the action runs), in buffers kept for the
        // whole batch: a new pair per action cost more than copying the bytes.
        var messages = WireWriter()
        var answer = WireWriter()
        let actions = session.model.actions
        for _ in 0..<(try reader.u32()) {
            let index = Int(try reader.u32())
            let arguments = try reader.values()
            guard !stopped else { continue }
            processed += 1
            messages.bytes.removeAll(keepingCapacity: true)
            answer.bytes.removeAll(keepingCapacity: true)
            captured = (messages, 0)
            messages = WireWriter() // the capture holds the buffer alone while it grows
            let sent = sendAction(index, arguments, of: actions, to: session, id: id, wantState: wantState, into: &answer)
            let count: UInt32
            (messages, count) = captured ?? (WireWriter(), 0)
            captured = nil
            reply.u32(count)
            reply.bytes += messages.bytes
            switch sent {
            case .refused(let message):
                reply.u8(1)
                reply.string(message)
                stopped = stopAtFailure
            case .applied(let startedEffects):
                reply.u8(0)
                reply.bytes += answer.bytes
                // Their events may come before the next action's: the shell goes on one
                // action at a time.
                stopped = startedEffects
            }
        }
        for byte in 0..<4 { reply.bytes[countAt + byte] = UInt8(truncatingIfNeeded: processed >> (8 * byte)) }
        // The state after the last action processed, for the history snapshot the shell
        // keeps there: asked for when the states are not sent with each action.
        let read = stateAfter && processed > 0 && !wantState ? try? session.read() : nil
        reply.bool(read != nil)
        if let read { writeState(read, of: id, into: &reply) }
    }

    private func store(_ reader: inout WireReader) throws(WireError) -> Session {
        try store(try reader.u32())
    }

    private func store(_ id: UInt32) throws(WireError) -> Session {
        guard let session = stores[id] else { throw WireError(description: "no store \(id)") }
        return session
    }

    /// Writes a state read for the shell: its changes when they apply to the last state
    /// sent for the store, else (or with `whole`) the whole state.
    private func writeState(_ read: StateRead, of store: UInt32, into writer: inout WireWriter, whole: Bool = false) {
        writer.state(read, shellHolds: sentReads[store], whole: whole)
        sentReads[store] = read.number
    }

    private func load(_ path: String, into reply: inout WireWriter) -> String? {
        guard plugin == nil else { return "this worker has a plugin loaded already" }
        let host = PluginHost(clock: clock.isVirtual ? clock : RealClock(), searchPath: [])
        host.checksChanges = checksChanges
        host.log = { [weak self] level, message in
            var body = WireWriter()
            body.i64(Int64(level.rawValue))
            body.string(message)
            self?.send(.log, body)
        }
        self.host = host
        do {
            let loaded = try host.load(path)
            plugin = loaded
            reply.string(loaded.name)
            reply.string(loaded.version)
            reply.optionalString(loaded.toolchain)
            reply.string(loaded.path)
            reply.u32(UInt32(loaded.models.count))
            for model in loaded.models {
                reply.string(model.name)
                reply.optionalString(model.doc)
                reply.bool(model.supportsTimeTravel)
                reply.u32(UInt32(model.actions.count))
                for action in model.actions {
                    reply.string(action.name)
                    reply.optionalString(action.doc)
                    reply.bool(action.isTyped)
                    reply.u32(UInt32(action.params.count))
                    for param in action.params {
                        reply.optionalString(param.label)
                        reply.string(param.type.rawValue)
                        reply.optionalString(param.doc)
                    }
                }
                reply.u32(UInt32(model.services.count))
                for service in model.services {
                    reply.string(service.name)
                    reply.optionalString(service.doc)
                    reply.string(service.signature)
                }
                reply.u32(UInt32(model.identityFields.count))
                for field in model.identityFields { reply.string(field) }
            }
            return nil
        } catch {
            return error.description
        }
    }

    private func stub(_ reader: inout WireReader) throws(WireError) -> String? {
        let id = try reader.u32()
        guard let session = stores[id] else { throw WireError(description: "no store \(id)") }
        let index = Int(try reader.u32())
        guard session.model.services.indices.contains(index) else { return "no service \(index)" }
        let service = session.model.services[index]
        var script: StubScript?
        if try reader.bool() {
            var answers: [StubScript.Answer] = []
            for _ in 0..<(try reader.u32()) {
                answers.append(try reader.u8() == 0 ? .value(try reader.value()) : .fail(try reader.string()))
            }
            do {
                script = try StubScript(service: service, answers: answers)
            } catch {
                return error.message
            }
        }
        do {
            try session.useStub(script, for: service.name)
        } catch {
            return error.message
        }
        session.localStub(for: service.name)?.onCall = { [weak self] in
            var body = WireWriter()
            body.u32(id)
            body.u32(UInt32(index))
            self?.send(.stubCalled, body)
        }
        return nil
    }

    private func forward(_ event: SessionEvent, from store: UInt32) {
        var body = WireWriter()
        body.u32(store)
        switch event {
        case .effect(let record):
            body.u32(record.kind.rawValue)
            body.u64(record.effect)
            body.optionalString(record.label)
            body.optionalString(record.action)
            body.optionalString(record.message)
            send(.effect, body)
        case .applied(let action, _, let changed):
            body.string(action)
            body.u8(changed ? 1 : 0)
            if let session = stores[store], (try? session.currentState()) != nil, let read = session.lastRead {
                body.bool(true)
                writeState(read, of: store, into: &body)
            } else {
                body.bool(false)
            }
            send(.applied, body)
        }
    }

    private func send(_ type: WorkerProtocol.Message, _ body: WireWriter) {
        if var kept = captured {
            captured = nil // no copy of the kept bytes while appending
            kept.writer.u8(type.rawValue)
            kept.writer.counted(body.bytes)
            kept.count += 1
            captured = kept
            return
        }
        let frame = WireWriter.frame(type.rawValue, body.bytes)
        var offset = 0
        while offset < frame.count {
            let written = frame.withUnsafeBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                exit(0) // the shell is gone
            }
        }
    }
}

/// The clock a worker's plugin sees: the shell's. Virtual time is the time the shell
/// last sent, and timers are the shell's to fire; real time is read here.
@MainActor
final class ShellTime: HostClock {
    var isVirtual = false
    var shellNow: Int64 = 0
    var onWake: ((UInt64, Int64) -> Void)?
    var onCancel: ((UInt64) -> Void)?
    private var lastTimer: UInt64 = 0
    private var callbacks: [UInt64: @MainActor () -> Void] = [:]

    var now: Int64 { shellNow }

    func wake(at deadline: Int64, _ fire: @escaping @MainActor () -> Void) -> UInt64 {
        lastTimer += 1
        callbacks[lastTimer] = fire
        onWake?(lastTimer, deadline)
        return lastTimer
    }

    func cancel(_ timer: UInt64) {
        guard callbacks.removeValue(forKey: timer) != nil else { return }
        onCancel?(timer)
    }

    func fire(_ timer: UInt64) {
        callbacks.removeValue(forKey: timer)?()
    }
}

/// The number of the last state read sent to the shell, per store. The store sent to last
/// is kept apart from the table: an observed batch reads and sets its entry after every
/// action, and two hashes per action showed in the worker's time.
private struct SentReads {
    private var table: [UInt32: UInt64] = [:]
    /// The store sent to last and its entry, which the table's may lag behind.
    private var recent: (store: UInt32, number: UInt64?)?

    subscript(store: UInt32) -> UInt64? {
        get {
            if let recent, recent.store == store { return recent.number }
            return table[store]
        }
        set {
            if let recent, recent.store != store { table[recent.store] = recent.number }
            recent = (store, newValue)
        }
    }
}
