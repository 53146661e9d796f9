package import StoreHost
package import StoreValue

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
    /// `--against` a model of another plugin: that plugin's file, which the transcript
    /// loads for its `:compare`.
    package var referencePlugin: String?
    /// The name that plugin is loaded as, when it is another build of the explored one.
    package var referenceAlias: String?
    /// The name the explored model's plugin was loaded as (`:load PATH as NAME`), if another.
    package var pluginAlias: String?
    /// The part of the search this is (`--shard I/N`); nil for a search not split.
    package var shard: ExploreShard?
    /// A shard's distinct states, by their keys (`Value.stableHash`, the same in every
    /// process), when it found nothing: `--merge` counts their union, as one process would.
    package var stateKeys: [Int] = []
    /// What the search was told beyond the seed, as a line (`--runs`, `--steps`, the
    /// properties, …): `--merge` combines only shards told the same.
    package var settings = ""
    /// What guidance kept and reached (nil with `--no-guidance` and for `--exhaustive`).
    package var guidance: ExploreGuidanceSummary?
    /// `--exhaustive`: how far the search went and why it stopped.
    package var exhaustive: ExhaustiveSummary?
    /// The seed of the models' world in the failing run (its transcript's `:seed`), when
    /// the host gives models a deterministic world.
    package var worldSeed: UInt64?
    /// `--schedules`: when each service call of the shrunk run got its answer, and which
    /// of the timers due together fired first (empty when schedules were not explored).
    package var schedule = ScheduleRecord()
    /// The shrunk run, and the state before its first step and after each.
    package let shrunk: [ExploreStep]
    package let shrunkStates: [Value]
    /// Runs shrinking made.
    package let shrinkRuns: Int
    /// Wall-clock seconds: searching, and shrinking (not part of the repeatable output).
    package let searchSeconds: Double
    package let shrinkSeconds: Double

    /// The commands that make the shrunk run's schedule again: a `:latency` per service
    /// with an answer that came late (its calls' latencies in order), and `:ties` when a
    /// tie fired other than in scheduled order.
    package var scheduleCommands: [String] {
        var services: [String] = []
        for answer in schedule.answers where !services.contains(answer.service) { services.append(answer.service) }
        let queues = EffectSchedule.queues(of: schedule.answers)
        var commands = services.compactMap { service -> String? in
            guard let queue = queues[service], queue.contains(where: { $0 != .now }) else { return nil }
            return ":latency \(service) " + queue.map(\.word).joined(separator: ", ")
        }
        if schedule.ties.contains(where: { $0 != 0 }) {
            commands.append(":ties " + schedule.ties.map { String($0 + 1) }.joined(separator: ", "))
        }
        return commands
    }

    /// Whether the schedule holds an answer until an action no step may send, or for good:
    /// its effect may then be in flight at the end, with the bug or without it.
    package var holdsAnswers: Bool {
        schedule.answers.contains { $0.latency == .nextAction || $0.latency == .never }
    }

    /// Actions no run got the model to accept.
    package var neverAccepted: [String] { coverage.filter { $0.accepted == 0 }.map(\.action) }
}
