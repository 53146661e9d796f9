import Dispatch
import StoreHost
import StoreValue

/// Generates action sequences for a model from its schema, runs them in fresh stores,
/// checks invariants, crashes, hangs, failed effects and determinism after every step,
/// and shrinks the first failing run to a minimal one (`ExploreShrinker`).
///
/// It drives a `ShellCore` it owns (its own plugin host, on a virtual clock), with the
/// model current: an exploration never touches a user's session.
@MainActor
package final class Explorer {
    let core: ShellCore
    let options: ExploreOptions
    let driver: ExploreDriver
    /// `--against`: the reference every run is replayed in, and compared with.
    let differential: ExploreDifferential?
    private var generator: ActionGenerator
    /// The actions runs may use (`--actions`, else all), by schema position.
    let candidates: [Int]
    private var random: ExploreRandom
    let prefix: [ExploreStep]
    /// The simplest step of each action the search may use, in schema order (what
    /// shrinking may replace a step by).
    let simplestSteps: [ExploreStep]

    /// An explorer of `core`'s current model. `prefix`: steps every run starts with;
    /// `reference`: the model every run is compared with (`--against`).
    package init(
        core: ShellCore, options: ExploreOptions, prefix: [ExploreStep] = [], reference: ExploreReference? = nil
    ) throws(ShellError) {
        guard let model = core.current?.model else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        self.core = core
        self.options = options
        self.prefix = prefix
        differential = reference.map { ExploreDifferential(reference: $0, prefix: prefix) }
        // The model's own invariants, then the ones asked for (each once).
        var invariants = model.invariants
        for condition in options.invariants where !invariants.contains(condition) { invariants.append(condition) }
        for postcondition in options.postconditions {
            try Self.checkNames(postcondition, in: model)
        }
        driver = ExploreDriver(
            core: core, invariants: invariants, postconditions: options.postconditions, prefix: prefix)
        var candidates = Array(model.actions.indices)
        if let names = options.actions {
            candidates = []
            for name in names {
                guard let index = model.actions.firstIndex(where: { $0.name == name }) else {
                    throw ShellError(
                        "\(model.qualifiedName) has no action '\(name)'; its actions: \(model.actions.map(\.name).joined(separator: ", "))",
                        origin: .prompt)
                }
                if !candidates.contains(index) { candidates.append(index) }
            }
            guard !candidates.isEmpty else { throw ShellError("no actions to explore with", origin: .prompt) }
        }
        self.candidates = candidates
        generator = ActionGenerator(model: model, candidates: candidates, clockSteps: core.host.clock is VirtualClock)
        simplestSteps = candidates.sorted().compactMap { Self.simplestStep(of: model.actions[$0]) }
        random = ExploreRandom(seed: options.seed)
    }

    /// Searches, then shrinks what failed. `progress` hears a line now and then.
    package func explore(progress: (String) -> Void = { _ in }) async throws(ShellError) -> ExploreReport {
        if let depth = options.exhaustiveDepth { return try await exhaustive(depth: depth, progress: progress) }
        guard let model = core.current?.model else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = options.timeLimit.map(DispatchTime.uptimeNanoseconds(afterSeconds:))
        var coverage = model.actions.map { ExploreCoverage(action: $0.name) }
        var seen: Set<Int> = []
        var (runs, steps, stopped) = (0, 0, false)
        var found: Found?
        // Failing runs found after the first, while the search goes on a little (`moreRuns`).
        var others: [Found] = []
        var searched: (runs: Int, steps: Int, states: Int, coverage: [ExploreCoverage], seconds: Double)?
        // Guidance: each lane's kept runs (`ExploreLane`), and what they found.
        var lanes = [ExploreLane](repeating: ExploreLane(), count: options.guidance ? ExploreLane.laneCount : 0)
        var guidance = ExploreGuidanceSummary()
        driver.readsCoverage = options.guidance
        // This search's runs, by their number in the whole search: every one, or (`--shard
        // I/N`) the ones of its share (`ExploreShard.takes`).
        var index = 0
        while index < options.runs {
            defer { index += 1 }
            guard options.shard.takes(run: index, lanes: options.guidance ? ExploreLane.laneCount : nil) else {
                continue
            }
            if let deadline, DispatchTime.now().uptimeNanoseconds > deadline {
                stopped = searched == nil
                break
            }
            if let first = found, index >= first.run + Self.moreRuns(after: first.run) { break }
            // Another part of the search failed in an earlier run: later runs cannot change the verdict.
            if let partners = options.partners, index >= partners.stopAfterRun() { break }
            // Each run from its own seed, whatever came before it: the runs of a search
            // split across processes are the runs one process makes.
            random = ExploreRandom(seed: Self.runSeed(options.seed, run: index))
            generator.startRun(&random, run: index)
            driver.startRun()
            driver.worldSeed = Self.worldSeed(options.seed, run: index)
            driver.schedulePlan =
                options.schedules ? .drawn(seed: Self.scheduleSeed(options.seed, run: index)) : .atOnce
            runs += 1
            let fresh: (Value) -> ExploreStep = { [self] state in
                generator.sawEffects = driver.sawEffects
                if random.chance(0.125) { generator.learn(from: state) }
                return generator.step(&random, state: state)
            }
            let lane = index % ExploreLane.laneCount
            // A guided run follows its plan, at most four runs' length, and may make any
            // action afresh: the step that goes further may be one a swarm leaves out.
            let plan =
                lanes.isEmpty ? nil : lanes[lane].plan(&random, fresh: 8).map { Array($0.prefix(4 * options.steps)) }
            if plan != nil {
                guidance.guidedRuns += 1
                generator.enableAll()
            }
            var run = try await driver.run(
                length: plan?.count ?? options.steps, keepStates: differential != nil,
                next: plan.map { ExploreLane.following($0, fresh: fresh) } ?? fresh)
            steps += run.steps.count
            seen.formUnion(run.stateHashes)
            if !lanes.isEmpty {
                // A plugin that ran steps and showed no code taken was not built for it (a
                // plugin built so takes code in every store it makes).
                if driver.readsCoverage, !run.steps.isEmpty, run.edges.isEmpty { driver.readsCoverage = false }
                var newCodeAt: Int?
                if run.failure == nil, lanes[lane].takesNewCode(run.edges) {
                    let again = try await stepsTakingCode(run.steps, schedule: run.schedule)
                    steps += again.steps.count
                    newCodeAt = lanes[lane].lastStepTakingNewCode(again.edgesByStep)
                }
                if lanes[lane].learn(steps: run.steps, stateHashes: run.stateHashes, newCodeAt: newCodeAt) {
                    guidance.kept += 1
                }
            }
            for (step, accepted) in zip(run.steps, run.accepted) {
                guard let name = step.actionName, let index = model.actions.firstIndex(where: { $0.name == name })
                else { continue }
                coverage[index].tried += 1
                if accepted == true { coverage[index].accepted += 1 } else { coverage[index].refused += 1 }
            }
            try await compareWithReference(&run)
            if run.failure == nil, options.checkDeterminism {
                run.failure = try await replayDiffers(run)
            }
            if let failure = run.failure {
                let failing = Found(
                    run: index + 1, steps: run.steps, failure: failure, worldSeed: driver.worldSeed ?? 0,
                    schedule: run.schedule)
                guard let first = found else {
                    found = failing
                    let searchesOn = options.moreFailures > 0 && Self.searchesOn(after: failure)
                    options.partners?.announceFailure(index + 1 + (searchesOn ? Self.moreRuns(after: index + 1) : 0))
                    searched = (
                        runs, steps, seen.count, coverage,
                        Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
                    )
                    // Only a broken property searches on: a crash or a hang costs a worker.
                    if searchesOn { continue }
                    break
                }
                if failure.signature == first.failure.signature { others.append(failing) }
                if others.count >= options.moreFailures { break }
            }
            if runs % 100 == 0, found == nil { progress("\(runs) runs, \(steps) steps, \(seen.count) states") }
        }
        let searchSeconds =
            searched?.seconds ?? Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let searched { (runs, steps, coverage) = (searched.runs, searched.steps, searched.coverage) }
        let distinctStates = searched?.states ?? seen.count
        driver.readsCoverage = false  // shrinking and the final run read none
        let transitions = lanes.reduce(into: Set<Int>()) { $0.formUnion($1.seenTransitions) }
        let edges = lanes.reduce(into: Set<UInt32>()) { $0.formUnion($1.seenEdges) }
        (guidance.transitions, guidance.edges) = (transitions.count, edges.count)
        (guidance.transitionKeys, guidance.edgeIDs) = (transitions.sorted(), edges.sorted())
        let guidanceFound = lanes.isEmpty ? nil : guidance
        guard let found else {
            var report = ExploreReport(
                model: model.qualifiedName, seed: options.seed, runs: runs, steps: steps,
                distinctStates: distinctStates,
                coverage: coverage, stoppedByTimeLimit: stopped, failure: nil, foundInRun: nil, originalLength: nil,
                shrunk: [], shrunkStates: [], shrinkRuns: 0, searchSeconds: searchSeconds, shrinkSeconds: 0)
            report.prefix = prefix
            report.guidance = guidanceFound
            if options.shard != .whole { report.stateKeys = seen.sorted() }
            return report
        }
        progress("run \(found.run) failed after \(found.failure.step + 1) steps: \(found.failure); shrinking")
        // Shrinking's time includes the search for more failing runs.
        let shrinkStart = started + UInt64(searchSeconds * 1e9)
        var shrinkRuns = 0
        let best = await shrunkest([found] + others, tries: &shrinkRuns)
        guard let (shrunk, failure, worldSeed, schedule) = best else {
            throw ShellError("nothing to shrink", origin: .prompt)
        }
        driver.worldSeed = worldSeed
        driver.schedulePlan = .replaying(schedule)
        let final = try await driver.run(length: shrunk.count, keepStates: true, next: Self.replaying(shrunk))
        let shrinkSeconds = Double(DispatchTime.now().uptimeNanoseconds - shrinkStart) / 1e9
        var report = ExploreReport(
            model: model.qualifiedName, seed: options.seed, runs: runs, steps: steps, distinctStates: distinctStates,
            coverage: coverage, stoppedByTimeLimit: stopped, failure: failure, foundInRun: found.run,
            originalLength: found.failure.step + 1, shrunk: shrunk, shrunkStates: final.states,
            shrinkRuns: shrinkRuns, searchSeconds: searchSeconds, shrinkSeconds: shrinkSeconds)
        report.prefix = prefix
        report.guidance = guidanceFound
        report.worldSeed = core.host.worldIsOn ? worldSeed : nil
        report.schedule = options.schedules ? final.schedule : ScheduleRecord()
        return report
    }

    /// `steps` made again one at a time, reading the code each took: which step of a run
    /// reached new code.
    private func stepsTakingCode(_ steps: [ExploreStep], schedule: ScheduleRecord) async throws(ShellError)
        -> ExploreDriver.Run
    {
        let plan = driver.schedulePlan
        driver.schedulePlan = .replaying(schedule)
        driver.takesCoverageEachStep = true
        defer { (driver.takesCoverageEachStep, driver.schedulePlan) = (false, plan) }
        return try await driver.run(length: steps.count, keepStates: false, oneByOne: true, next: Self.replaying(steps))
    }

    /// A failing run: which it was, its steps, its failure and its world's seed.
    struct Found {
        let run: Int
        let steps: [ExploreStep]
        let failure: ExploreFailure
        let worldSeed: UInt64
        /// The order its concurrent events took (`--schedules`).
        let schedule: ScheduleRecord
    }

    /// Runs the search goes on for after the first failure of a property was found in run
    /// `run`, for more failing runs to shrink (`ExploreOptions.moreFailures`): twice as many, at least 200, at
    /// most 5,000. In runs, not time, so a seed gives the same result on any machine.
    static func moreRuns(after run: Int) -> Int { min(5_000, max(200, 2 * run)) }

    /// Whether the search goes on after `failure` for more failing runs to shrink.
    static func searchesOn(after failure: ExploreFailure) -> Bool {
        switch failure.kind {
        case .invariant, .postcondition, .modelCheck, .differs: true
        default: false
        }
    }

    /// The seed of the models' world in run `run` of a search with `seed`: a different
    /// world each run, the same for the same seed.
    static func worldSeed(_ seed: UInt64, run: Int) -> UInt64 {
        mix(seed ^ (UInt64(run) &* 0x9E37_79B9_7F4A_7C15))
    }

    /// The seed of the latencies of run `run`'s service answers (`--schedules`): apart
    /// from its steps', so a run's schedule is the same whatever steps it takes.
    static func scheduleSeed(_ seed: UInt64, run: Int) -> UInt64 {
        mix(runSeed(seed, run: run) ^ 0x5C4E_D01E_A45E_0001)
    }

    /// The seed of run `run`'s own choices in a search with `seed`.
    static func runSeed(_ seed: UInt64, run: Int) -> UInt64 {
        mix(mix(seed &+ 0xD1B5_4A32_D192_ED03) ^ UInt64(run))
    }

    /// SplitMix64's finalizer: every bit of `value` moves every bit of the result.
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A postcondition's action must be the model's, and every `args.NAME` one of its
    /// parameters: a typo is an error before the search, not a check that never fails.
    private static func checkNames(_ postcondition: ExplorePostcondition, in model: ModelDescriptor)
        throws(ShellError)
    {
        guard let action = model.action(named: postcondition.action) else {
            throw ShellError(
                "--after \(postcondition.action): \(model.qualifiedName) has no action '\(postcondition.action)'; its actions: \(model.actions.map(\.name).joined(separator: ", "))",
                origin: .prompt)
        }
        let labels = action.params.compactMap(\.label)
        var pending = [postcondition.condition.expression]
        while let node = pending.popLast() {
            if case .field(let base, let name) = node.kind, base.kind == .arguments, !labels.contains(name) {
                throw ShellError(
                    "--after \(action.name) \(postcondition.condition): \(action.name) has no argument '\(name)'"
                        + (labels.isEmpty
                            ? " (args[N] reads its arguments by position)"
                            : "; its arguments: \(labels.joined(separator: ", "))"),
                    origin: .prompt)
            }
            pending += node.kind.childNodes
        }
    }

    /// `action` with its simplest arguments (0, "", false, null, an empty list, a range's
    /// edge nearest 0); nil for a keyed action or one whose arguments have no simplest form.
    static func simplestStep(of action: ActionDescriptor) -> ExploreStep? {
        guard !action.name.contains("[]") else { return nil }
        var arguments: [Value] = []
        for param in action.params {
            guard let simplest = simplest(param.shape) else { return nil }
            // In the form the plugin decodes, as the generator sends arguments.
            arguments.append(param.declaredShape.flatMap { try? $0.conform(simplest) } ?? simplest)
        }
        return .action(name: action.name, arguments: arguments)
    }

    private static func simplest(_ shape: TypeShape) -> Value? {
        switch shape {
        case .int(let range?):
            return .int(range.contains(0) ? 0 : range.lowerBound > 0 ? range.lowerBound : range.upperBound)
        case .int(nil): return .int(0)
        case .double: return .double(0)
        case .bool: return .bool(false)
        case .string: return .string("")
        case .optional: return .null
        case .list: return .array([])
        default: return nil
        }
    }

    /// A `next` that hands out `steps` in order.
    static func replaying(_ steps: [ExploreStep]) -> (Value) -> ExploreStep? {
        var index = 0
        return { _ in
            defer { index += 1 }
            return index < steps.count ? steps[index] : nil
        }
    }

    /// Runs `steps` again from a fresh store: a failure when a state differs from `run`'s
    /// (the store's promise: same actions, same order, same state). Runs keep only their
    /// states' hashes; when two differ, the steps are run twice more keeping the states,
    /// to say where they part.
    private func replayDiffers(_ run: ExploreDriver.Run) async throws(ShellError) -> ExploreFailure? {
        let plan = driver.schedulePlan
        driver.schedulePlan = .replaying(run.schedule)
        driver.stepsAreKnown = true
        defer { (driver.schedulePlan, driver.stepsAreKnown) = (plan, false) }
        // The replay's states are compared with the run's by hash, not checked again: a
        // state whose hash is the run's is one the run checked, and one that differs is
        // the failure. (The model's checks in code are asked still: they may read more.)
        let properties = (driver.invariants, driver.postconditions)
        (driver.invariants, driver.postconditions) = ([], [])
        let again: ExploreDriver.Run
        do {
            defer { (driver.invariants, driver.postconditions) = properties }
            again = try await driver.run(length: run.steps.count, keepStates: false, next: Self.replaying(run.steps))
        }
        if let failure = again.failure { return failure }
        guard Self.firstDifference(run.stateHashes, again.stateHashes) != nil else { return nil }
        let first = try await driver.run(length: run.steps.count, keepStates: true, next: Self.replaying(run.steps))
        let second = try await driver.run(length: run.steps.count, keepStates: true, next: Self.replaying(run.steps))
        guard let differs = Self.firstDifference(first.stateHashes, second.stateHashes),
            differs < first.states.count, differs < second.states.count
        else {
            // The two did not part: the first pair's hashes say the state differed, not where.
            let differs = Self.firstDifference(run.stateHashes, again.stateHashes) ?? 0
            return ExploreFailure(kind: .nondeterministic(path: ".", first: nil, second: nil), step: differs - 1)
        }
        // Equal states whose hashes differ (canonically equivalent strings, `stableHash`
        // says) are no failure.
        guard first.states[differs] != second.states[differs] else { return nil }
        let identity = core.current?.model.stateDiff ?? StateDiff()
        let change = identity.changes(from: first.states[differs], to: second.states[differs]).first
        let path = change?.path ?? "."
        return ExploreFailure(
            kind: .nondeterministic(path: path, first: change?.old, second: change?.new), step: differs - 1)
    }

    /// Where two runs' state hashes first differ, over the steps both took.
    private static func firstDifference(_ first: [Int], _ second: [Int]) -> Int? {
        (0..<min(first.count, second.count)).first { first[$0] != second[$0] }
    }

    /// The steps a run of `steps` made and the failure it ended with, found the way `like`
    /// was.
    func attempt(_ steps: [ExploreStep], like failure: ExploreFailure) async -> (
        steps: [ExploreStep], failure: ExploreFailure
    )? {
        let nondeterministic: Bool
        if case .nondeterministic = failure.kind { nondeterministic = true } else { nondeterministic = false }
        guard
            var run = try? await driver.run(
                length: steps.count, keepStates: differential != nil, next: Self.replaying(steps))
        else {
            return nil
        }
        do {
            try await compareWithReference(&run)
        } catch {
            return nil
        }
        if let found = run.failure { return (run.steps, found) }
        guard nondeterministic, let found = try? await replayDiffers(run) else { return nil }
        return (run.steps, found)
    }
}
