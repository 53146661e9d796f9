import StoreHost
import StoreValue

/// Runs steps against fresh stores of one model, through a `ShellCore` of its own (so
/// effects settle, the virtual clock moves and lost workers come back exactly as they do
/// at the prompt and in transcripts), and says after which step, if any, the run failed.
@MainActor
final class ExploreDriver {
    /// What one run did.
    struct Run {
        var steps: [ExploreStep] = []
        /// Per step: true accepted, false refused by the model, nil a clock step.
        var accepted: [Bool?] = []
        /// A hash of the state after each step (the initial state first).
        var stateHashes: [Int] = []
        /// The states themselves, when asked for (determinism checks, the report).
        var states: [Value] = []
        var failure: ExploreFailure?
    }

    let core: ShellCore
    let invariants: [StateCondition]
    /// Steps every run starts with, unchecked (`:explore` starts where the session is).
    let prefix: [ExploreStep]
    private var failedEffects: [(label: String?, message: String)] = []
    private var crashMessages: [String] = []
    private var crashesBefore = 0

    init(core: ShellCore, invariants: [StateCondition], prefix: [ExploreStep]) {
        self.core = core
        self.invariants = invariants
        self.prefix = prefix
        core.output = { [weak self] output in self?.observe(output) }
    }

    private func observe(_ output: ShellOutput) {
        switch output {
        case .effect(let report) where report.event.kind == .failed:
            // An effect that ended with its worker is the crash, reported as such.
            if let message = report.event.message, message.hasPrefix("its worker died") { return }
            failedEffects.append((report.label, report.event.message ?? "failed"))
        case .error(let error):
            crashMessages.append(error.message)
        default: break
        }
    }

    /// A new store in its initial state (a worker lost in the last run started again),
    /// with the prefix applied.
    private func freshStore() throws(ShellError) -> Session {
        core.recoverLostWorkers(announce: false)
        try core.reset()
        guard let session = core.current else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        for step in prefix {
            guard case .action(let name, let arguments) = step, let action = session.model.action(named: name) else { continue }
            do {
                _ = try session.send(action, arguments: arguments, observe: false)
            } catch {
                throw ShellError("the session's own history does not replay: \(step.line(in: session.model)): \(error.message)", origin: .prompt)
            }
        }
        failedEffects = []
        crashMessages = []
        crashesBefore = core.workerCrashes
        return session
    }

    /// Runs up to `length` steps from a fresh store, each made by `next` from the state
    /// before it, stopping at the first failure.
    func run(length: Int, keepStates: Bool, next: (Value) -> ExploreStep?) async throws(ShellError) -> Run {
        var run = Run()
        var session = try freshStore()
        var state = session.state
        record(state, in: &run, keep: keepStates)
        if let failure = check(state, after: -1) {
            run.failure = failure
            return run
        }
        for index in 0..<length {
            guard let step = next(state) else { break }
            run.steps.append(step)
            let accepted: Bool?
            switch step {
            case .action(let name, let arguments):
                guard let action = session.model.action(named: name) else {
                    run.accepted.append(false)
                    continue
                }
                do {
                    let result = try session.send(action, arguments: arguments, observe: true)
                    if let problem = result.stateError {
                        run.failure = ExploreFailure(kind: .crash("the state cannot be read after the action: \(problem)"), step: index)
                    }
                    accepted = true
                    if result.effectsStarted > 0 || core.allEffectsInFlight > 0 { await core.settle() }
                } catch {
                    if let loss = error.workerLoss {
                        run.accepted.append(true)
                        run.failure = Self.failure(loss, step: index)
                        return run
                    }
                    accepted = false
                }
            case .advance(let milliseconds):
                _ = await core.execute(":advance \(milliseconds)ms")
                accepted = nil
            }
            run.accepted.append(accepted)
            if run.failure != nil { return run }
            if core.workerCrashes != crashesBefore {
                // An effect crashed the worker between answers; the core said how.
                run.failure = ExploreFailure(kind: .crash(crashMessages.last.map(Self.crashSite) ?? "its worker died"), step: index)
                return run
            }
            if let effect = failedEffects.first {
                run.failure = ExploreFailure(kind: .effectFailed(label: effect.label, message: effect.message), step: index)
                return run
            }
            if core.current !== session, let current = core.current { session = current }
            state = session.state
            record(state, in: &run, keep: keepStates)
            if let failure = check(state, after: index) {
                run.failure = failure
                return run
            }
        }
        return run
    }

    private func record(_ state: Value, in run: inout Run, keep: Bool) {
        run.stateHashes.append(state.hashValue)
        if keep { run.states.append(state) }
    }

    private func check(_ state: Value, after step: Int) -> ExploreFailure? {
        let identity = core.current?.model.stateDiff ?? StateDiff()
        for condition in invariants {
            let outcome = condition.check(state, identity: identity)
            switch outcome {
            case .holds, .missing: continue // a path that names nothing yet holds vacuously
            case .fails, .incomparable:
                return ExploreFailure(kind: .invariant(condition, explanation: condition.explain(outcome) ?? ""), step: step)
            }
        }
        return nil
    }

    private static func failure(_ loss: WorkerLoss, step: Int) -> ExploreFailure {
        if case .hung = loss.cause { return ExploreFailure(kind: .hang(loss.description), step: step) }
        return ExploreFailure(kind: .crash(loss.description), step: step)
    }

    /// The crash site in the core's "… crashed …: SIGILL: …, Faulty.swift:60" message.
    private static func crashSite(_ message: String) -> String {
        guard let range = message.range(of: "(SIG[A-Z]+|exit status).*", options: .regularExpression) else { return message }
        var site = String(message[range])
        if site.hasSuffix(")") { site.removeLast() }
        return site
    }
}
