import Dispatch
package import StoreHost
package import StoreValue

/// How `storesh explore` and `:explore` search.
package struct ExploreOptions: Sendable {
    /// Every choice follows from it: the same seed and options give the same runs.
    package var seed: UInt64
    /// Runs to try (each from a fresh store).
    package var runs = 100
    /// Steps per run.
    package var steps = 50
    /// Seconds after which no new run starts (the output then depends on speed).
    package var timeLimit: Double?
    /// Checked after every step (and on the initial state).
    package var invariants: [StateCondition] = []
    /// Checked after every step that took their action, accepted or refused.
    package var postconditions: [ExplorePostcondition] = []
    /// Replays each run in a fresh store and compares every state.
    package var checkDeterminism = true
    /// The actions runs may use (all of the model's when nil).
    package var actions: [String]?

    /// The defaults, with `seed`.
    package init(seed: UInt64) { self.seed = seed }
}

/// `--after ACTION EXPR`: EXPR (which may read `old(…)`, `args` and `accepted`) checked
/// after every step that took ACTION.
package struct ExplorePostcondition: Sendable, Equatable {
    package let action: String
    package let condition: StateCondition

    package init(action: String, condition: StateCondition) {
        self.action = action
        self.condition = condition
    }

    /// Reads `ACTION EXPR` (as `:explore --after` takes it); a mistake is at its byte.
    package static func parse(action: String, expression: String) throws(TextError) -> ExplorePostcondition {
        ExplorePostcondition(action: action, condition: try StateCondition.parse(expression, context: .action))
    }
}

/// How often one action was tried in explored runs, and what the model made of it.
package struct ExploreCoverage: Equatable, Sendable {
    package let action: String
    package var tried = 0
    package var accepted = 0
    package var refused = 0
}

/// What an exploration found.
package struct ExploreReport: Sendable {
    package let model: String
    package let seed: UInt64
    /// Runs made (not counting shrinking).
    package let runs: Int
    /// Steps sent in those runs.
    package let steps: Int
    /// Distinct states seen.
    package let distinctStates: Int
    /// Per action of the model, in schema order.
    package let coverage: [ExploreCoverage]
    /// The time limit stopped the search before `runs` were made.
    package let stoppedByTimeLimit: Bool
    /// The failure of the shrunk run, nil when nothing failed.
    package let failure: ExploreFailure?
    /// The run (1-based) that found it, and how many steps it had up to the failure.
    package let foundInRun: Int?
    package let originalLength: Int?
    /// The steps every run started with (`:explore`: the session's actions).
    package var prefix: [ExploreStep] = []
    /// Commands run once before the search (`:stub`s), which the transcript runs too.
    package var setup: [String] = []
    /// The seed of the models' world in the failing run (its transcript's `:seed`), when
    /// the host gives models a deterministic world.
    package var worldSeed: UInt64?
    /// The shrunk run, and the state before its first step and after each.
    package let shrunk: [ExploreStep]
    package let shrunkStates: [Value]
    /// Runs shrinking made.
    package let shrinkRuns: Int
    /// Wall-clock seconds: searching, and shrinking (not part of the repeatable output).
    package let searchSeconds: Double
    package let shrinkSeconds: Double

    /// Actions no run got the model to accept.
    package var neverAccepted: [String] { coverage.filter { $0.accepted == 0 }.map(\.action) }
}

/// Generates action sequences for a model from its schema, runs them in fresh stores,
/// checks invariants, crashes, hangs, failed effects and determinism after every step,
/// and shrinks the first failing run to a minimal one (`ExploreShrinker`).
///
/// It drives a `ShellCore` it owns (its own plugin host, on a virtual clock), with the
/// model current: an exploration never touches a user's session.
@MainActor
package final class Explorer {
    private let core: ShellCore
    private let options: ExploreOptions
    private let driver: ExploreDriver
    private var generator: ActionGenerator
    private var random: ExploreRandom
    private let prefix: [ExploreStep]
    /// The simplest step of each action the search may use, in schema order (what
    /// shrinking may replace a step by).
    private let simplestSteps: [ExploreStep]

    /// An explorer of `core`'s current model. `prefix`: steps every run starts with.
    package init(core: ShellCore, options: ExploreOptions, prefix: [ExploreStep] = []) throws(ShellError) {
        guard let model = core.current?.model else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        self.core = core
        self.options = options
        self.prefix = prefix
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
        generator = ActionGenerator(model: model, candidates: candidates, clockSteps: core.host.clock is VirtualClock)
        simplestSteps = candidates.sorted().compactMap { Self.simplestStep(of: model.actions[$0]) }
        random = ExploreRandom(seed: options.seed)
    }

    /// Searches, then shrinks what failed. `progress` hears a line now and then.
    package func explore(progress: (String) -> Void = { _ in }) async throws(ShellError) -> ExploreReport {
        guard let model = core.current?.model else { throw ShellError(core.noCurrentModel, origin: .prompt) }
        let started = DispatchTime.now().uptimeNanoseconds
        let deadline = options.timeLimit.map(DispatchTime.uptimeNanoseconds(afterSeconds:))
        var coverage = model.actions.map { ExploreCoverage(action: $0.name) }
        var seen: Set<Int> = []
        var (runs, steps, stopped) = (0, 0, false)
        var found: (run: Int, steps: [ExploreStep], failure: ExploreFailure, worldSeed: UInt64)?
        while runs < options.runs {
            if let deadline, DispatchTime.now().uptimeNanoseconds > deadline {
                stopped = true
                break
            }
            generator.startRun(&random, run: runs)
            generator.sawEffects = driver.sawEffects
            driver.worldSeed = Self.worldSeed(options.seed, run: runs)
            runs += 1
            var run = try await driver.run(length: options.steps, keepStates: options.checkDeterminism) {
                [self] state in
                if random.chance(0.125) { generator.learn(from: state) }
                return generator.step(&random, state: state)
            }
            steps += run.steps.count
            seen.formUnion(run.stateHashes)
            for (step, accepted) in zip(run.steps, run.accepted) {
                guard let name = step.actionName, let index = model.actions.firstIndex(where: { $0.name == name })
                else { continue }
                coverage[index].tried += 1
                if accepted == true { coverage[index].accepted += 1 } else { coverage[index].refused += 1 }
            }
            if run.failure == nil, options.checkDeterminism {
                run.failure = try await replayDiffers(run)
            }
            if let failure = run.failure {
                found = (runs, run.steps, failure, driver.worldSeed ?? 0)
                break
            }
            if runs % 100 == 0 { progress("\(runs) runs, \(steps) steps, \(seen.count) states") }
        }
        let searchSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard let found else {
            var report = ExploreReport(
                model: model.qualifiedName, seed: options.seed, runs: runs, steps: steps, distinctStates: seen.count,
                coverage: coverage, stoppedByTimeLimit: stopped, failure: nil, foundInRun: nil, originalLength: nil,
                shrunk: [], shrunkStates: [], shrinkRuns: 0, searchSeconds: searchSeconds, shrinkSeconds: 0)
            report.prefix = prefix
            return report
        }
        driver.worldSeed = found.worldSeed  // shrinking replays the run's world
        progress("run \(found.run) failed after \(found.failure.step + 1) steps: \(found.failure); shrinking")
        let shrinkStart = DispatchTime.now().uptimeNanoseconds
        var shrinker = ExploreShrinker { [self] steps in await self.attempt(steps, like: found.failure) }
        shrinker.alternatives = simplestSteps
        let (shrunk, failure) = await shrinker.shrink(found.steps, failure: found.failure)
        let final = try await driver.run(length: shrunk.count, keepStates: true, next: Self.replaying(shrunk))
        let shrinkSeconds = Double(DispatchTime.now().uptimeNanoseconds - shrinkStart) / 1e9
        var report = ExploreReport(
            model: model.qualifiedName, seed: options.seed, runs: runs, steps: steps, distinctStates: seen.count,
            coverage: coverage, stoppedByTimeLimit: stopped, failure: failure, foundInRun: found.run,
            originalLength: found.failure.step + 1, shrunk: shrunk, shrunkStates: final.states,
            shrinkRuns: shrinker.tries, searchSeconds: searchSeconds, shrinkSeconds: shrinkSeconds)
        report.prefix = prefix
        report.worldSeed = core.host.worldIsOn ? found.worldSeed : nil
        return report
    }

    /// The seed of the models' world in run `run` of a search with `seed`: a different
    /// world each run, the same for the same seed.
    static func worldSeed(_ seed: UInt64, run: Int) -> UInt64 {
        var mixed = seed ^ (UInt64(run) &* 0x9E37_79B9_7F4A_7C15)
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
    /// (the store's promise: same actions, same order, same state).
    private func replayDiffers(_ run: ExploreDriver.Run) async throws(ShellError) -> ExploreFailure? {
        let again = try await driver.run(length: run.steps.count, keepStates: true, next: Self.replaying(run.steps))
        if let failure = again.failure { return failure }
        guard
            let differs = run.stateHashes.indices.first(where: {
                $0 < again.stateHashes.count && run.stateHashes[$0] != again.stateHashes[$0]
            })
        else { return nil }
        let (first, second) = (run.states[differs], again.states[differs])
        guard first != second else { return nil }  // a hash collision of equal values cannot happen; different ones can
        let identity = core.current?.model.stateDiff ?? StateDiff()
        let change = identity.changes(from: first, to: second).first
        let path = change?.path ?? "."
        return ExploreFailure(
            kind: .nondeterministic(path: path, first: change?.old, second: change?.new), step: differs - 1)
    }

    /// The steps a run of `steps` made and the failure it ended with, found the way `like`
    /// was.
    private func attempt(_ steps: [ExploreStep], like failure: ExploreFailure) async -> (
        steps: [ExploreStep], failure: ExploreFailure
    )? {
        let keep: Bool
        if case .nondeterministic = failure.kind { keep = true } else { keep = false }
        guard let run = try? await driver.run(length: steps.count, keepStates: keep, next: Self.replaying(steps)) else {
            return nil
        }
        if let found = run.failure { return (run.steps, found) }
        guard keep, let found = try? await replayDiffers(run) else { return nil }
        return (run.steps, found)
    }
}
