package import StoreValue

extension WorkerConnection {
    /// Sends `actions` to be applied and observed one by one, in one request, and returns
    /// without waiting; `observedAnswers` and `next` read the answer. Past refusals unless
    /// `stopAtFailure`; with `wantState`, each action that changed the state brings it;
    /// with `stateAfter` (and not `wantState`), the answer ends with the state after the
    /// last action processed.
    package func startObserved(
        _ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, wantState: Bool, continuing: Bool,
        stateAfter: Bool, stopAtBrokenCheck: Bool
    ) throws(SessionError) -> PendingAnswer {
        PendingAnswer(
            request: try startBatch(
                .sendObserved, actions, flags: stopAtFailure, wantState, continuing, stateAfter, stopAtBrokenCheck))
    }

    /// Sends a batch request: the store, its flags, then each action's index and arguments.
    private func startBatch(_ request: WorkerProtocol.Request, _ actions: [(ActionDescriptor, [Value])], flags: Bool...)
        throws(SessionError) -> WorkerProcess.Ticket
    {
        var body = try start()
        for flag in flags { body.bool(flag) }
        body.u32(UInt32(actions.count))
        for (action, arguments) in actions {
            body.u32(UInt32(action.index))
            body.values(arguments)
        }
        return try plugin.send(
            request, body, model: model.qualifiedName, doing: "handling a batch of \(actions.count) actions")
    }

    /// A worker that ran a batch it should have skipped: it is stopped as broken.
    package func outOfOrder() -> SessionError {
        plugin.malformed(
            WireError(description: "it ran a batch sent after one it cut short"), model: model.qualifiedName,
            doing: "handling a batch of actions")
    }

    /// Waits for the answer to an observed batch of `sent` actions.
    package func observedAnswers(_ ticket: PendingAnswer, sent: Int) throws(SessionError) -> ObservedAnswers {
        var reply: WireReader
        switch try plugin.wait(for: ticket.request, model: model.qualifiedName, doing: "handling a batch of actions") {
        case .success(let reader): reply = reader
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
        let count = try decode("handling a batch") { () throws(WireError) in
            let count = Int(try reply.u32())
            guard count <= sent else { throw WireError(description: "answers for \(count) actions of \(sent)") }
            return count
        }
        return ObservedAnswers(reply: reply, remaining: count, processed: count)
    }

    /// The next action's answer (nil after the last one the worker processed): first the
    /// messages it caused are handled as if they had come on their own, then its outcome
    /// or refusal is read.
    package func next(_ answers: inout ObservedAnswers) throws(SessionError) -> Result<SendOutcome, SessionError>? {
        guard answers.remaining > 0 else {
            if !answers.ended {
                answers.ended = true
                let state = try decode("handling a batch") { () throws(WireError) in
                    try answers.reply.bool() ? try answers.reply.state() : nil
                }
                answers.stateAfter = state
            }
            return nil
        }
        answers.remaining -= 1
        let prologue = try decode("handling a batch") { () throws(WireError) in
            try Self.observedPrologue(&answers.reply)
        }
        for message in prologue.messages { plugin.handle(message.type, message.body) }
        if let refused = prologue.refusal { return .failure(SessionError(message: refused)) }
        return .success(try outcome(from: &answers.reply, doing: "handling a batch of actions"))
    }

    /// The next action's answer when it is the usual one of an observed batch — it caused
    /// no messages, was applied and changed the state, which came whole — read straight
    /// from the reply, without the general answer's wrappers (`next`), which cost the
    /// shell more than the state. Nil, with nothing read, for any other answer.
    package func nextWholeState(_ answers: inout ObservedAnswers) -> (effects: Int, number: UInt64, state: Value)? {
        guard answers.remaining > 0 else { return nil }
        var reader = answers.reply
        // No messages, not refused, changed; its effects; a state, whole.
        guard (try? reader.u32()) == 0, (try? reader.u8()) == 0, (try? reader.bool()) == true,
            let effects = try? reader.u32(), (try? reader.u8()) == 1, (try? reader.u8()) == 0,
            let number = try? reader.u64(), let state = try? reader.value()
        else { return nil }
        answers.reply = reader
        answers.remaining -= 1
        held = number  // as `take` keeps a whole state's number
        return (Int(effects), number, state)
    }

    /// Sends `actions` in one request and returns without waiting (`finishBatch` takes the
    /// answer): the worker applies them in order, past refusals unless `stopAtFailure`.
    package func startBatch(_ actions: [(ActionDescriptor, [Value])], stopAtFailure: Bool, stateAfter: Bool)
        throws(SessionError) -> BatchTicket
    {
        .pending(PendingAnswer(request: try startBatch(.sendBatch, actions, flags: stopAtFailure, stateAfter)))
    }

    /// What a batch did: per action it processed, what it did or why it was refused; and
    /// the state after it, when asked for.
    package func finishBatch(_ batch: BatchTicket) throws(SessionError) -> (
        outcomes: [Result<SendSummary, SessionError>], stateAfter: StateUpdate?
    ) {
        guard case .pending(let ticket) = batch else {
            throw SessionError(
                message: "\(model.qualifiedName): a batch run elsewhere cannot be answered by its worker")
        }
        var reply: WireReader
        switch try plugin.wait(for: ticket.request, model: model.qualifiedName, doing: "handling a batch of actions") {
        case .success(let reader): reply = reader
        case .failure(let refusal): throw SessionError(message: refusal.message)
        }
        let result = try decode("handling a batch") { () throws(WireError) in
            var outcomes: [Result<SendSummary, SessionError>] = []
            let count = Int(try reply.u32())
            outcomes.reserveCapacity(count)
            for _ in 0..<count {
                let flags = try reply.u8()
                outcomes.append(
                    flags & 4 != 0
                        ? .failure(SessionError(message: try reply.string()))
                        : .success(
                            SendSummary(
                                changed: flags & 1 != 0, effectsStarted: flags & 2 != 0 ? Int(try reply.u32()) : 0)))
            }
            let state = try reply.bool() ? try reply.state() : nil
            return (outcomes, state)
        }
        guard let state = result.1 else { return (result.0, nil) }
        if let taken = take(state) { return (result.0, taken) }
        return (result.0, try read(whole: true))
    }
}

/// The answer to an observed batch (`WorkerConnection.startObserved`), read one action at
/// a time.
package struct ObservedAnswers {
    var reply: WireReader
    var remaining: Int
    /// How many actions the worker processed.
    package let processed: Int
    /// The answer's size in bytes.
    package var byteCount: Int { reply.byteCount }
    /// True when the worker processed none of the actions.
    package var isEmpty: Bool { processed == 0 }
    /// The state after the last action, once `next` has read past it (when asked for).
    package internal(set) var stateAfter: StateUpdate?
    var ended = false
}
