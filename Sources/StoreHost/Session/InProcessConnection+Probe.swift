package import StoreValue

// A probe in this process: the loop `storesh explore` spends its time in, run here for a
// model in storesh and in the worker for a model there (`WorkerServer.probe`).
extension InProcessConnection {
    package func probe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) throws(SessionError)
        -> ProbeOutcome?
    {
        runProbe(actions, checks: checks)
    }

    /// `probe`, as the worker calls it: a store in this process can always be probed. The
    /// events its actions cause go to `onEvent` as they happen.
    package func runProbe(_ actions: [(ActionDescriptor, [Value])], checks: ProbeChecks) -> ProbeOutcome {
        var outcome = ProbeOutcome()
        outcome.accepted.reserveCapacity(actions.count)
        outcome.stateHashes.reserveCapacity(actions.count)
        // The state before the next action, once read (a postcondition's `old`).
        var known: Value?
        // No invariant or postcondition (a determinism check's replay): only each state's
        // hash is needed, worked out without making the state where the plugin allows.
        let hashesOnly = checks.invariants.isEmpty && checks.postconditions.isEmpty
        var knownHash: Int?
        if !checks.postconditions.isEmpty {
            do {
                known = try readWholeState()
            } catch {
                outcome.end = .unreadable(error.message)
                return outcome
            }
        }
        for (action, arguments) in actions {
            let accepted: Bool
            do {
                let summary = try send(action, arguments: arguments)
                accepted = true
                if summary.effectsStarted > 0 {
                    outcome.accepted.append(true)
                    outcome.end = .startedEffects
                    return outcome
                }
            } catch {
                accepted = false
            }
            outcome.accepted.append(accepted)
            if hashesOnly {
                do throws(SessionError) {
                    // A refused action leaves the state as it was.
                    let hash: Int
                    if !accepted, let knownHash { hash = knownHash } else { hash = try wholeStateHash() }
                    outcome.stateHashes.append(hash)
                    knownHash = hash
                } catch {
                    outcome.end = .unreadable(error.message)
                    return outcome
                }
                if !holds(checks, in: .null, after: action, arguments: arguments, old: .null, accepted: accepted) {
                    outcome.end = .broke
                    return outcome
                }
                continue
            }
            // A refused action leaves the state as it was, as the explorer's own steps take it.
            let state: Value
            if !accepted, let known {
                state = known
            } else {
                do {
                    state = try readWholeState()
                } catch {
                    outcome.end = .unreadable(error.message)
                    return outcome
                }
            }
            outcome.stateHashes.append(state.stableHash)
            if !holds(checks, in: state, after: action, arguments: arguments, old: known ?? .null, accepted: accepted) {
                outcome.end = .broke
                return outcome
            }
            known = state
        }
        do {
            outcome.stateAfter = try read(whole: true)
        } catch {
            outcome.end = .unreadable(error.message)
        }
        return outcome
    }

    /// Whether every check holds of `state` after `action` (a path that names nothing
    /// holds; a check that cannot be worked out, or asked, does not).
    private func holds(
        _ checks: ProbeChecks, in state: Value, after action: ActionDescriptor, arguments: [Value], old: Value,
        accepted: Bool
    ) -> Bool {
        let identity = model.stateDiff
        for condition in checks.invariants where condition.check(state, identity: identity).isBroken {
            return false
        }
        var step: PropertyStep?
        for postcondition in checks.postconditions where postcondition.action == action.name {
            if step == nil {
                step = PropertyStep(
                    action: action.name, labels: action.params.map(\.label), arguments: arguments, old: old,
                    accepted: accepted)
            }
            if postcondition.condition.check(state, identity: identity, step: step).isBroken { return false }
        }
        guard checks.inCode else { return true }
        for (index, check) in model.checks.enumerated() where accepted || !check.isPostcondition {
            guard (try? self.check(index))?.holds == true else { return false }
        }
        return true
    }
}
