package import StoreValue

extension WorkerConnection {
    /// One `probe` request (docs/worker-protocol.md): the worker sends the actions and
    /// checks after each; the checks travel as their text and are parsed there.
    package func probe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) throws(SessionError)
        -> ProbeOutcome?
    {
        var body = try start()
        body.bool(checks.inCode)
        body.u32(UInt32(checks.invariants.count))
        for invariant in checks.invariants { body.string(invariant.description) }
        body.u32(UInt32(checks.postconditions.count))
        for postcondition in checks.postconditions {
            body.string(postcondition.action)
            body.string(postcondition.condition.description)
        }
        body.u32(UInt32(actions.count))
        for (action, arguments) in actions {
            body.u32(UInt32(action.index))
            body.values(arguments)
        }
        var reply = try call(.probe, body, doing: "handling a batch of \(actions.count) actions")
        let what = "probing a batch of actions"
        let (messages, decoded) = try decode(what) { () throws(WireError) in
            try Self.probeAnswer(&reply, sent: actions.count)
        }
        for message in messages { plugin.handle(message.type, message.body) }
        var outcome = decoded
        if let state = outcome.stateAfter {
            outcome.stateAfter = take(state)
            if outcome.stateAfter == nil { outcome.stateAfter = try read(whole: true) }
        }
        return outcome
    }

    /// Reads a probe's answer to `sent` actions: the messages its actions caused (handed on
    /// by the caller first), then the outcome. `nonisolated` for the fuzz target.
    nonisolated static func probeAnswer(_ reply: inout WireReader, sent: Int) throws(WireError) -> (
        messages: [(type: UInt8, body: [UInt8])], outcome: ProbeOutcome
    ) {
        let messageCount = Int(try reply.u32())
        // Each message takes at least its type byte and count: a count past the bytes left
        // is a broken answer, not a reason to reserve memory.
        guard messageCount <= (reply.byteCount - reply.offset) / 5 else {
            throw WireError(description: "\(messageCount) messages in \(reply.byteCount) bytes")
        }
        var messages: [(type: UInt8, body: [UInt8])] = []
        for _ in 0..<messageCount { messages.append((try reply.u8(), try reply.counted())) }
        var outcome = ProbeOutcome()
        let count = Int(try reply.u32())
        guard count <= sent else { throw WireError(description: "answers for \(count) actions of \(sent)") }
        outcome.accepted = try (0..<count).map { _ throws(WireError) in try reply.bool() }
        let hashes = Int(try reply.u32())
        guard hashes <= count else { throw WireError(description: "\(hashes) hashes for \(count) actions") }
        outcome.stateHashes = try (0..<hashes).map { _ throws(WireError) in Int(try reply.i64()) }
        switch try reply.u8() {
        case 0: outcome.end = .ran
        case 1: outcome.end = .startedEffects
        case 2: outcome.end = .broke
        case 3: outcome.end = .unreadable(try reply.string())
        case let end: throw WireError(description: "a probe cannot end with \(end)")
        }
        if outcome.end == .ran { outcome.stateAfter = try reply.state() }
        return (messages, outcome)
    }
}
