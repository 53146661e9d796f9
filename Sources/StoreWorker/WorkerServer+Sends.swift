import StoreHost
import StoreValue

// Sending actions: one at a time, in plain batches, and in observed batches (each action
// answered as `send` answers it, with the messages it caused in front of its answer).
extension WorkerServer {
    enum SendAnswer {
        case refused(String)
        case applied(startedEffects: Bool)
    }

    /// One action as `send` answers it: writes whether it changed the state, how many
    /// effects it started and, when asked and changed, the state; or says why the model
    /// refused it.
    func sendAction(
        _ index: Int, _ arguments: [Value], to store: InProcessConnection, wantState: Bool, into reply: inout WireWriter
    ) -> SendAnswer {
        let actions = store.model.actions
        guard actions.indices.contains(index) else { return .refused("no action \(index)") }
        let outcome: SendSummary
        do {
            outcome = try store.send(actions[index], arguments: arguments)
        } catch {
            return .refused(error.message)
        }
        reply.sendAnswer(changed: outcome.changed, effectsStarted: outcome.effectsStarted)
        if wantState, outcome.changed {
            // Written straight into the reply; a failed read leaves nothing behind it.
            let start = reply.bytes.count
            reply.sendStateFollows()
            do {
                try writeState(of: store, into: &reply)
            } catch {
                reply.bytes.removeSubrange(start...)
                reply.sendStateUnreadable(error)
            }
        } else {
            reply.sendStateNone()
        }
        return .applied(startedEffects: outcome.effectsStarted > 0)
    }

    /// Send batch: applies the actions in order without reading the state, past refusals
    /// unless asked to stop at the first; the state after them when asked.
    func sendBatch(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) {
        let store = try store(try reader.u32())
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
                guard store.model.actions.indices.contains(index) else {
                    throw SessionError(message: "no action \(index)")
                }
                let outcome = try store.send(store.model.actions[index], arguments: arguments)
                outcomes.u8((outcome.changed ? 1 : 0) | (outcome.effectsStarted > 0 ? 2 : 0))
                if outcome.effectsStarted > 0 { outcomes.u32(UInt32(clamping: outcome.effectsStarted)) }
            } catch {
                outcomes.u8(4)
                outcomes.string(error.message)
                stopped = stopAtFailure
            }
        }
        reply.u32(processed)
        reply.bytes += outcomes.bytes
        writeStateAfter(stateAfter, of: store, into: &reply)
    }

    /// Replay batch: the actions' updates in order, stopping at the first refused.
    func replayBatch(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) {
        let store = try store(try reader.u32())
        var flags: [UInt8] = []
        var stopped: String?
        for _ in 0..<(try reader.u32()) {
            let name = try reader.string()
            let arguments = try reader.values()
            guard stopped == nil else { continue }
            do {
                flags.append(try store.replay(name, arguments: arguments) ? 1 : 0)
            } catch {
                stopped = error.message
            }
        }
        reply.u32(UInt32(flags.count))
        reply.bytes += flags
        reply.bool(stopped != nil)
        if let stopped { reply.string(stopped) }
    }

    /// Send observed: each action as `send` answers it, preceded by the messages it caused
    /// (effect events, effect actions with their states, log lines, timers), kept in order
    /// so the shell handles them after that action and before the next. It stops after an
    /// action that starts effects, and after a refusal when asked to; a batch continuing a
    /// batch it stopped that way is skipped.
    func sendObserved(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) {
        let id = try reader.u32()
        let store = try store(id)
        let stopAtFailure = try reader.bool()
        let wantState = try reader.bool()
        let continuing = try reader.bool()
        let stateAfter = try reader.bool()
        let stopAtBrokenCheck = try reader.bool()
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
        for _ in 0..<(try reader.u32()) {
            let index = Int(try reader.u32())
            let arguments = try reader.values()
            guard !stopped else { continue }
            processed += 1
            messages.bytes.removeAll(keepingCapacity: true)
            answer.bytes.removeAll(keepingCapacity: true)
            captured = (messages, 0)
            messages = WireWriter()  // the capture holds the buffer alone while it grows
            let sent = sendAction(index, arguments, to: store, wantState: wantState, into: &answer)
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
                // action at a time. After a check that does not hold, the shell asks why.
                stopped = startedEffects || (stopAtBrokenCheck && !Self.checksHold(in: store))
            }
        }
        for byte in 0..<4 { reply.bytes[countAt + byte] = UInt8(truncatingIfNeeded: processed >> (8 * byte)) }
        // The state after the last action processed, for the history snapshot the shell
        // keeps there: asked for when the states are not sent with each action.
        writeStateAfter(stateAfter && processed > 0 && !wantState, of: store, into: &reply)
    }

    /// Whether every check the model makes in its code holds of `store` now (one that cannot
    /// be asked counts as not holding: the shell asks it again, and reports why).
    private static func checksHold(in store: InProcessConnection) -> Bool {
        store.model.checks.indices.allSatisfy { (try? store.check($0).holds) ?? false }
    }

    /// A batch's closing state: `bool` present, then the state, when `wanted` and readable.
    private func writeStateAfter(_ wanted: Bool, of store: InProcessConnection, into reply: inout WireWriter) {
        guard wanted else { return reply.bool(false) }
        var state = WireWriter()
        guard (try? writeState(of: store, into: &state)) != nil else { return reply.bool(false) }
        reply.bool(true)
        reply.bytes += state.bytes
    }
}
