import StoreHost
import StoreValue

// Probe (docs/worker-protocol.md): a batch of actions checked here after each, answered
// with the states' hashes instead of the states — `storesh explore`'s hot path.
extension WorkerServer {
    /// Reads a probe, runs it on the store (`InProcessConnection.probe`) and writes its
    /// answer: the messages its actions caused (the shell handles them first, as if they
    /// had come on their own), per action taken whether it was accepted and its state's
    /// hash, how it ended, and after a probe that ran to the end the state. A check that
    /// does not parse, or an action the model does not have, is refused.
    func probe(_ reader: inout WireReader, into reply: inout WireWriter) throws(WireError) -> String? {
        let store = try store(try reader.u32())
        let inCode = try reader.bool()
        var invariants: [StateCondition] = []
        var postconditions: [ExplorePostcondition] = []
        var problem: String?
        for _ in 0..<(try reader.u32()) {
            let text = try reader.string()
            do {
                invariants.append(try condition(text, context: .state))
            } catch {
                problem = problem ?? "the invariant \(text) does not parse: \(error)"
            }
        }
        for _ in 0..<(try reader.u32()) {
            let action = try reader.string()
            let text = try reader.string()
            do {
                postconditions.append(
                    ExplorePostcondition(action: action, condition: try condition(text, context: .action)))
            } catch {
                problem = problem ?? "the postcondition \(text) does not parse: \(error)"
            }
        }
        var actions: [(ActionDescriptor, [Value])] = []
        let schema = store.model.actions
        for _ in 0..<(try reader.u32()) {
            let index = Int(try reader.u32())
            let arguments = try reader.values()
            guard schema.indices.contains(index) else {
                problem = problem ?? "no action \(index)"
                continue
            }
            actions.append((schema[index], arguments))
        }
        if let problem { return problem }
        // What the actions cause is kept for the answer, in front of it: storesh hands it on
        // as if it had come on its own, as for an observed batch.
        captured = (WireWriter(), 0)
        defer { captured = nil }
        let outcome = store.runProbe(
            actions, checks: ProbeChecks(invariants: invariants, postconditions: postconditions, inCode: inCode))
        let messages = captured ?? (WireWriter(), 0)
        reply.u32(messages.count)
        reply.bytes += messages.writer.bytes
        reply.u32(UInt32(outcome.accepted.count))
        for accepted in outcome.accepted { reply.bool(accepted) }
        reply.u32(UInt32(outcome.stateHashes.count))
        for hash in outcome.stateHashes { reply.i64(Int64(hash)) }
        switch outcome.end {
        case .ran: reply.u8(0)
        case .startedEffects: reply.u8(1)
        case .broke: reply.u8(2)
        case .unreadable(let message):
            reply.u8(3)
            reply.string(message)
        }
        if case .ran = outcome.end, let state = outcome.stateAfter {
            reply.state(state)
            lingering = true
        }
        return nil
    }

    /// A check's text parsed, once per text for the worker's life (a search sends the same
    /// few with every probe).
    private func condition(_ text: String, context: PropertyParser.Context) throws(TextError) -> StateCondition {
        let key = "\(context == .state ? "s" : "a")\(text)"
        if let parsed = parsedConditions[key] { return parsed }
        let parsed = try StateCondition.parse(text, context: context)
        parsedConditions[key] = parsed
        return parsed
    }
}
