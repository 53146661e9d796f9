import StoreHost
import StoreValue

// What an explored step is checked against: the invariants and postconditions, the
// model's checks in code, and how a lost worker is told as a failure.
extension ExploreDriver {
    /// The model's own checks in code: its invariants after every step, its
    /// postconditions after a step that took an action (the model holds its last action
    /// and the state before it, and says a refused one holds).
    func checkInModelCode(after step: Int, tookAction: Bool) -> ExploreFailure? {
        guard let session = core.current, !session.model.checks.isEmpty else { return nil }
        for (index, check) in session.model.checks.enumerated() where tookAction || !check.isPostcondition {
            do {
                let verdict = try session.check(index)
                if !verdict.holds {
                    return ExploreFailure(kind: .modelCheck(check, explanation: verdict.message ?? ""), step: step)
                }
            } catch {
                if let loss = error.workerLoss { return Self.failure(loss, step: step) }
                return ExploreFailure(kind: .modelCheck(check, explanation: error.message), step: step)
            }
        }
        return nil
    }

    func checkPostconditions(
        _ state: Value, after step: Int, action: String, arguments: [Value], accepted: Bool
    )
        -> ExploreFailure?
    {
        let applying = postconditions.filter { $0.action == action }
        guard !applying.isEmpty, let model = core.current?.model else { return nil }
        let taken = PropertyStep(
            action: action, labels: model.action(named: action)?.params.map(\.label) ?? [], arguments: arguments,
            old: before, accepted: accepted)
        for postcondition in applying {
            let outcome = postcondition.condition.check(state, identity: model.stateDiff, step: taken)
            guard outcome.isBroken else { continue }  // a path that names nothing: skipped
            return ExploreFailure(
                kind: .postcondition(
                    action: action, postcondition.condition,
                    explanation: postcondition.condition.explain(outcome) ?? ""), step: step)
        }
        return nil
    }

    func check(_ state: Value, after step: Int) -> ExploreFailure? {
        let identity = core.current?.model.stateDiff ?? StateDiff()
        for condition in invariants {
            let outcome = condition.check(state, identity: identity)
            guard outcome.isBroken else { continue }  // a path that names nothing yet holds vacuously
            return ExploreFailure(
                kind: .invariant(condition, explanation: condition.explain(outcome) ?? ""), step: step)
        }
        return nil
    }

    static func failure(_ loss: WorkerLoss, step: Int) -> ExploreFailure {
        if case .hung = loss.cause { return ExploreFailure(kind: .hang(loss.description), step: step) }
        return ExploreFailure(kind: .crash(loss.description), step: step)
    }

    /// The crash site in the core's "… crashed …: SIGILL: …, Faulty.swift:60" message.
    static func crashSite(_ message: String) -> String {
        guard let range = message.range(of: "(SIG[A-Z]+|exit status).*", options: .regularExpression) else {
            return message
        }
        var site = String(message[range])
        if site.hasSuffix(")") { site.removeLast() }
        return site
    }
}

// The hot path: a batch of steps checked where the model runs, with only the states'
// hashes back.
extension ExploreDriver {
    /// Sends `chunk` as one probe (`Session.probe`), recording its steps when every check
    /// held after each; nil when the store cannot be probed. Anything else — effects, a
    /// broken check, a lost worker — makes the run again one step at a time, which says
    /// what happened as a step on its own does.
    func probe(_ chunk: [ExploreStep], in session: Session, into run: inout Run) throws(ShellError) -> BatchEnd? {
        guard let actions = Self.actions(of: chunk, in: session.model) else { return .again }
        let checks = ProbeChecks(
            invariants: invariants, postconditions: postconditions, inCode: !session.model.checks.isEmpty)
        let outcome: ProbeOutcome
        do {
            guard let probed = try session.probe(actions, checks: checks) else { return nil }
            outcome = probed
        } catch {
            if error.workerLoss != nil { return .lostWorker }
            // Refused (a check that did not read back the same on the other side): this
            // search goes on without probes, the old way.
            probes = false
            return .again
        }
        // What the messages that came with it said (an effect of an earlier store that
        // failed, a crash between answers) is blamed on a step by the steps one by one.
        if sawTrouble { return .again }
        switch outcome.end {
        case .ran: break
        case .startedEffects: return .startedEffects
        case .broke, .unreadable: return .again
        }
        guard outcome.accepted.count == chunk.count, outcome.stateHashes.count == chunk.count else { return .again }
        run.steps += chunk
        run.accepted += outcome.accepted.map { Optional($0) }
        run.stateHashes += outcome.stateHashes
        before = session.state
        return .done
    }

    /// A chunk's steps as the model's actions with their arguments; nil when one is not an
    /// action the model has (the steps one by one then say what it is).
    static func actions(of chunk: [ExploreStep], in model: ModelDescriptor) -> [(ActionDescriptor, [Value])]? {
        var actions: [(ActionDescriptor, [Value])] = []
        actions.reserveCapacity(chunk.count)
        for step in chunk {
            guard case .action(let name, let arguments) = step, let action = model.action(named: name) else {
                return nil
            }
            actions.append((action, arguments))
        }
        return actions
    }
}
