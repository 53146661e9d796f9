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
        /// The edges of plugin code the run took (plugins built with trace-pc-guard).
        var edges: [UInt32] = []
        /// With `takesCoverageEachStep`, the edges each step took first.
        var edgesByStep: [[UInt32]] = []
        /// The order its concurrent events took: each service call's latency, each tie.
        var schedule = ScheduleRecord()
    }

    let core: ShellCore
    /// The properties checked after each step (a determinism check's replay clears them
    /// while it runs: equal hashes mean states the run itself checked).
    var invariants: [StateCondition]
    var postconditions: [ExplorePostcondition]
    /// The state before the step being checked (a postcondition's `old`).
    var before: Value = .null
    /// Steps every run starts with, unchecked (`:explore` starts where the session is).
    let prefix: [ExploreStep]
    /// Where each fresh store's world starts (`:seed`), when the host gives models one.
    var worldSeed: UInt64?
    private var failedEffects: [(label: String?, message: String)] = []
    private var crashMessages: [String] = []
    private var crashesBefore = 0

    init(core: ShellCore, invariants: [StateCondition], postconditions: [ExplorePostcondition], prefix: [ExploreStep]) {
        self.core = core
        self.invariants = invariants
        self.postconditions = postconditions
        self.prefix = prefix
        core.output = { [weak self] output in self?.observe(output) }
        core.settlesAfterEveryInput()
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
    private func freshStore(again: Bool = true) async throws(ShellError) -> Session {
        core.recoverLostWorkers(announce: false)
        // The model's ids, dates and random numbers start over, as a transcript's `:seed`.
        if let worldSeed, core.host.worldIsOn { core.host.reseed(worldSeed, waiting: false) }
        do {
            try core.reset()
        } catch {
            // The last run's store may have taken its worker down as it went (an effect that
            // crashes when it is cancelled), found only now: once, start over in a new worker.
            guard again, core.host.plugins.contains(where: { $0.loss != nil }) else { throw error }
            return try await freshStore(again: false)
        }
        // What the last run's store did as it went (an effect that crashes when it is
        // cancelled) is not this run's: settled and recovered before the prefix, which a
        // worker rebuilt from the (empty) history would not have.
        if core.allEffectsInFlight > 0 || core.host.plugins.contains(where: { $0.loss != nil }) {
            await core.settle(limit: 0.5)
            core.recoverLostWorkers(announce: false)
        }
        guard let session = core.current else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        for step in prefix {
            guard case .action(let name, let arguments) = step, let action = session.model.action(named: name) else {
                continue
            }
            do {
                let result = try session.send(action, arguments: arguments, observe: false)
                if result.effectsStarted > 0 || core.allEffectsInFlight > 0 { await core.settle() }
            } catch {
                // The last run's store may still take its worker down as it goes (an effect
                // that crashes when it is cancelled): once, start over in a new worker.
                if error.workerLoss != nil, again { return try await freshStore(again: false) }
                throw ShellError(
                    "the session's own history does not replay: \(step.line(in: session.model)): \(error.message)",
                    origin: .prompt)
            }
        }
        failedEffects = []
        crashMessages = []
        crashesBefore = core.recovery.crashes
        return session
    }

    /// Whether runs read the plugin code they took (a guided search sets it; it is turned
    /// off once a run shows the plugin was not built for it). The code a run's store took
    /// as it was made, and the last run's as it went, count as the run's: all of it is
    /// the same each time, seen once.
    var readsCoverage = false
    /// How each run's concurrent events are ordered (`--schedules`).
    var schedulePlan = SchedulePlan.atOnce
    /// Whether a run reads the code after every step (`Run.edgesByStep`): to find which
    /// step of a run took new code, made again one action at a time.
    var takesCoverageEachStep = false

    /// Runs up to `length` steps from a fresh store, each made by `next` from the state
    /// before it, stopping at the first failure. Until an effect starts in this run
    /// (`startRun`), steps are made a chunk (up to `batchSize`) at a time from the state
    /// before the chunk, in a worker and in process alike, so one seed makes the same runs
    /// in both; each chunk goes as one probe (`probe`: one round trip to a worker, checked
    /// there, hashes back), or, when states are kept, as one observed batch. The first
    /// effect started sends the explorer back to one action at a time, and the run is made
    /// again so; so is a run whose probe found a broken check, or ended in a crash (a lost
    /// worker's answer is lost whole), to say which action and why.
    func run(length: Int, keepStates: Bool, oneByOne: Bool = false, next: @escaping (Value) -> ExploreStep?)
        async throws(ShellError) -> Run
    {
        let clock = core.host.clock as? VirtualClock
        var (oneByOne, steps) = (oneByOne, next)
        defer { abandonedStore = nil }
        while true {
            // The run's answers arrive, and its ties fire, as `schedulePlan` says: from the
            // start again when the run is made again.
            clock?.schedule = schedulePlan.schedule()
            switch try await runSteps(length: length, keepStates: keepStates, oneByOne: oneByOne, next: steps) {
            case .done(var run):
                run.schedule = clock?.schedule.taken ?? ScheduleRecord()
                return run
            case .again(let made, let store):
                // Made again from a fresh store. The abandoned one's timers and answers
                // leave the clock — those its effects ask for as they go too: a round trip
                // lets a worker's queued effect work run and report first — so nothing of
                // it fires in, or ties with, the run made again.
                _ = store.effectsIdle()
                clock?.dropPending()
                abandonedStore = store
                (oneByOne, steps) = (true, Self.continuing(made, then: next))
            }
        }
    }

    /// The store of a batch made again: it lives until the run is made (destroyed, an
    /// effect may crash; the next fresh store recovers from that, as after any run).
    private var abandonedStore: Session?

    /// How `runSteps` ended: with the run, or with the steps made so far, to be made
    /// again one action at a time, and the store they were made in.
    private enum Made {
        case done(Run)
        case again([ExploreStep], Session)
    }

    private func runSteps(length: Int, keepStates: Bool, oneByOne: Bool, next: @escaping (Value) -> ExploreStep?)
        async throws(ShellError) -> Made
    {
        var run = Run()
        var session = try await freshStore()
        record(session.state, in: &run, keep: keepStates)
        before = session.state
        if let failure = check(session.state, after: -1) ?? checkInModelCode(after: -1, tookAction: false) {
            run.failure = failure
            return .done(run)
        }
        var pending: ExploreStep?
        while run.steps.count < length, run.failure == nil {
            // Steps are made a chunk at a time from the state before the chunk, in a
            // worker and in process alike, so one seed makes the same runs in both.
            if batches, !oneByOne, pending == nil {
                var chunk: [ExploreStep] = []
                let state = session.state
                let size = stepsAreKnown && !keepStates && probes ? 8 * Self.batchSize : Self.batchSize
                while chunk.count < min(size, length - run.steps.count), let step = next(state) {
                    guard step.actionName != nil else {
                        pending = step
                        break
                    }
                    chunk.append(step)
                }
                if chunk.isEmpty, pending == nil { break }
                if !chunk.isEmpty, !keepStates, probes, let end = try probe(chunk, in: session, into: &run) {
                    if case .done = end { continue }
                    if case .startedEffects = end { batches = false }
                    return .again(run.steps + chunk + (pending.map { [$0] } ?? []), session)
                }
                if !chunk.isEmpty, !session.callsAreRoundTrips {
                    for step in chunk where run.failure == nil {
                        try await perform(step, in: &session, run: &run, keep: keepStates)
                    }
                    continue
                }
                if !chunk.isEmpty {
                    let before = run.steps
                    switch try sendBatch(chunk, to: session, into: &run, keep: keepStates) {
                    case .done: continue
                    case .startedEffects:
                        // Again, one action at a time, from the start: effects settle
                        // after each action, as at the prompt.
                        batches = false
                    case .lostWorker, .again: break
                    }
                    return .again(before + chunk + (pending.map { [$0] } ?? []), session)
                }
            }
            guard let step = pending ?? next(session.state) else { break }
            pending = nil
            try await perform(step, in: &session, run: &run, keep: keepStates)
        }
        // Effects still waiting on the clock get a minute to finish within the run, so
        // what they do (fail, crash, send actions) is checked and blamed here, not on the
        // next run's fresh store when this one is destroyed.
        if run.failure == nil, advancesAtEnd, core.allEffectsInFlight > 0, core.host.clock is VirtualClock {
            try await perform(.advance(milliseconds: 60_000), in: &session, run: &run, keep: keepStates)
        }
        if readsCoverage, !takesCoverageEachStep { run.edges = (try? session.takeCoverage()) ?? [] }
        return .done(run)
    }

    /// Whether a run ends with a minute on the clock for effects still waiting on it
    /// (false for `--exhaustive`, whose states are the ones right after their last step).
    var advancesAtEnd = true

    /// Up to this many actions go to a worker in one observed batch.
    static let batchSize = 32
    /// Whether the steps of the runs made now are known before they are made (a replay,
    /// whose `next` reads no state): they go in probes of up to 256, not a chunk at a time
    /// (at most 256 each: one request is timed as one action is).
    var stepsAreKnown = false
    /// Whether batches go as probes (`probe`); off after a worker refused one.
    var probes = true
    /// Whether something happened since the run's store was made that a step must be
    /// blamed for: a crash between answers, an effect that failed.
    var sawTrouble: Bool { core.recovery.crashes != crashesBefore || !failedEffects.isEmpty }
    /// Whether actions may go in batches: until the first effect of the run starts.
    private var batches = true {
        didSet { if !batches { sawEffectsEver = true } }
    }
    /// True once an action started an effect in this run.
    var sawEffects: Bool { !batches }
    /// True once an action started an effect in this exploration.
    private(set) var sawEffectsEver = false

    /// A new run: its steps go in batches again until it starts an effect, so a run does
    /// the same whatever the runs before it did (a search split across processes makes
    /// each run as one process alone would).
    func startRun() { batches = true }

    /// A `next` that hands out `steps` first, then asks `then`.
    static func continuing(_ steps: [ExploreStep], then: @escaping (Value) -> ExploreStep?) -> (Value) -> ExploreStep? {
        var index = 0
        return { state in
            defer { index += 1 }
            return index < steps.count ? steps[index] : then(state)
        }
    }

    /// One step on its own, settling effects after it.
    private func perform(_ step: ExploreStep, in session: inout Session, run: inout Run, keep: Bool)
        async throws(ShellError)
    {
        let index = run.steps.count
        run.steps.append(step)
        switch step {
        case .action(let name, let arguments):
            guard let action = session.model.action(named: name) else {
                run.accepted.append(false)
                return
            }
            do {
                let result = try session.send(action, arguments: arguments, observe: true)
                run.accepted.append(true)
                if let problem = result.stateError {
                    run.failure = ExploreFailure(
                        kind: .crash("the state cannot be read after the action: \(problem)"), step: index)
                    return
                }
                if result.effectsStarted > 0 { batches = false }
                if result.effectsStarted > 0 || core.allEffectsInFlight > 0 { await core.settle() }
            } catch {
                if let loss = error.workerLoss {
                    run.accepted.append(true)
                    run.failure = Self.failure(loss, step: index)
                    return
                }
                run.accepted.append(false)
            }
        case .advance(let milliseconds):
            if let clock = core.host.clock as? VirtualClock, clock.nextDeadline == nil, core.allEffectsInFlight == 0 {
                // Nothing waits on the clock: `:advance` would only move it.
                clock.advance(by: milliseconds * 1_000_000)
            } else {
                _ = await core.execute(":advance \(milliseconds)ms")
            }
            run.accepted.append(nil)
        }
        if core.current !== session, let current = core.current { session = current }
        afterStep(index, state: session.state, run: &run, keep: keep)
        // After the step's checks, whose code is the step's too.
        if takesCoverageEachStep { run.edgesByStep.append((try? session.takeCoverage()) ?? []) }
    }

    /// How a batch went: `again` when its steps must be taken again one at a time (a check
    /// broke, or the state could not be read: the steps one by one say where and why).
    enum BatchEnd { case done, startedEffects, lostWorker, again }

    /// Sends `chunk` as one observed batch and checks after each action. An action that
    /// started effects, or a worker lost on the way, means the run must be made again one
    /// action at a time.
    private func sendBatch(_ chunk: [ExploreStep], to session: Session, into run: inout Run, keep: Bool)
        throws(ShellError) -> BatchEnd
    {
        guard let actions = Self.actions(of: chunk, in: session.model) else { return .lostWorker }
        let start = run.steps.count
        var taken = 0
        // The model's checks in code are asked on the other side after each action, and the
        // batch stops after one that does not hold; here they are asked once, after the
        // last action the batch took (one round trip a batch, not one a step).
        let checks = !session.model.checks.isEmpty
        do {
            guard
                let batch = try session.startObserved(
                    actions, stopAtFailure: false, observe: true, stopAtBrokenCheck: checks)
            else {
                return .lostWorker
            }
            var results = try session.observedResults(batch)
            var effects = false
            var accepted = false
            while try session.nextObserved(
                &results,
                applied: { result in
                    accepted = true
                    if result.effectsStarted > 0 { effects = true }
                }, refused: { _ in accepted = false })
            {
                if effects { return .startedEffects }
                run.steps.append(chunk[taken])
                run.accepted.append(accepted)
                taken += 1
                if run.failure == nil {
                    afterStep(start + taken - 1, state: session.state, run: &run, keep: keep, checksInCode: false)
                }
            }
            if run.failure == nil, checks, taken > 0 {
                run.failure = checkInModelCode(after: start + taken - 1, tookAction: run.accepted.last == true)
            }
        } catch {
            guard error.workerLoss != nil else { throw ShellError(error.message, origin: .prompt) }
            return .lostWorker
        }
        if run.failure != nil, let failed = run.failure?.step { run.steps = Array(run.steps.prefix(failed + 1)) }
        return .done
    }

    /// What follows every step: a crash between answers or a failed effect, else the state
    /// recorded and the invariants checked.
    private func afterStep(_ index: Int, state: Value, run: inout Run, keep: Bool, checksInCode: Bool = true) {
        if core.recovery.crashes != crashesBefore {
            // An effect crashed the worker between answers; the core said how.
            run.failure = ExploreFailure(
                kind: .crash(crashMessages.last.map(Self.crashSite) ?? "its worker died"), step: index)
            return
        }
        if let effect = failedEffects.first {
            run.failure = ExploreFailure(kind: .effectFailed(label: effect.label, message: effect.message), step: index)
            return
        }
        record(state, in: &run, keep: keep)
        run.failure = check(state, after: index)
        if run.failure == nil, !postconditions.isEmpty, case .action(let name, let arguments) = run.steps[index] {
            run.failure = checkPostconditions(
                state, after: index, action: name, arguments: arguments, accepted: run.accepted[index] == true)
        }
        if run.failure == nil, checksInCode {
            run.failure = checkInModelCode(after: index, tookAction: run.accepted[index] == true)
        }
        before = state
    }

    private func record(_ state: Value, in run: inout Run, keep: Bool) {
        run.stateHashes.append(state.stableHash)
        if keep { run.states.append(state) }
    }
}
