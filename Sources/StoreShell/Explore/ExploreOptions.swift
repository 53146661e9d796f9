package import StoreHost

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
    /// Keeps runs that reach something new and starts later runs from them
    /// (`ExploreLane`); `--no-guidance` makes every run from fresh steps only.
    package var guidance = true
    /// `--schedules`: each run's service answers arrive late as its seed chooses (after a
    /// wait on the clock, after the next action, or never) instead of at once.
    package var schedules = false
    /// The actions runs may use (all of the model's when nil).
    package var actions: [String]?
    /// After the first failure of a property, the search goes on for up to this many more
    /// runs that fail the same way (`Explorer.moreRuns`); each is shrunk and the shortest
    /// kept. 0: the first failure is shrunk alone. Not the default: in process, a crash in
    /// the runs searched on would end storesh before it reported what it found.
    package var moreFailures = 0
    /// `--exhaustive --depth N`: every sequence of up to N steps, breadth first, instead
    /// of random runs (`Explorer+Exhaustive`); nil for the random search.
    package var exhaustiveDepth: Int?
    /// The most distinct states an exhaustive search keeps before it stops.
    package var stateLimit = 100_000
    /// `--shard I/N`: this search makes every Nth run from the Ith (0-based) of the
    /// whole search's `runs`; a run is the same in any shard (`Explorer.runSeed`).
    package var shard = ExploreShard.whole
    /// The parts of a search made at once (`--jobs`): told where the others found a
    /// failure, a part makes no run past it (`--jobs` makes `stopAfterRun` read what
    /// `announceFailure` wrote in the other parts). Both nil for a search made alone.
    package var partners: ExplorePartners?

    /// The defaults, with `seed`.
    package init(seed: UInt64) { self.seed = seed }
}

/// What the parts of one search made at once tell each other: the lowest run (1-based, of
/// the whole search) any of them found failing, past which no part's runs can change the
/// verdict (the failure of the lowest run is the search's).
package struct ExplorePartners: Sendable {
    /// The lowest failing run the other parts announced so far (`Int.max` when none).
    package let stopAfterRun: @Sendable () -> Int
    /// Tells the others that this part's search stops after `run`.
    package let announceFailure: @Sendable (_ run: Int) -> Void

    package init(stopAfterRun: @escaping @Sendable () -> Int, announceFailure: @escaping @Sendable (Int) -> Void) {
        (self.stopAfterRun, self.announceFailure) = (stopAfterRun, announceFailure)
    }
}

/// A part of a search: every `count`th run from `index`, or, when the search is guided,
/// every `count`th lane from `index` (a lane's runs build on each other, so they stay in
/// one process).
package struct ExploreShard: Sendable, Equatable {
    package let index: Int
    package let count: Int
    /// The whole search.
    package static let whole = ExploreShard(index: 0, count: 1)

    package init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether run `run` is this part's: by the run's number, or with `lanes`, by its lane's.
    /// With a count that divides `lanes` (1, 2, 4, 8) the two are the same.
    package func takes(run: Int, lanes: Int?) -> Bool {
        (lanes.map { run % $0 } ?? run) % count == index
    }

    /// Reads `I/N` (`--shard`): I from 0 to N-1, N from 1 to 1024; nil otherwise.
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1024).contains(count),
            (0..<count).contains(index)
        else { return nil }
        self.init(index: index, count: count)
    }
}

/// How often one action was tried in explored runs, and what the model made of it.
package struct ExploreCoverage: Equatable, Sendable {
    package let action: String
    package var tried = 0
    package var accepted = 0
    package var refused = 0
}

extension ExploreOptions {
    /// `PLUGIN[:MODEL]` split: the plugin, and the model when named (the ':' after the last
    /// '/', so a path may hold one).
    package static func againstParts(_ text: String) -> (plugin: String, model: String?) {
        let file = text.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? text
        guard let colon = file.firstIndex(of: ":") else { return (text, nil) }
        let model = String(file[file.index(after: colon)...])
        return (String(text.dropLast(model.count + 1)), model.isEmpty ? nil : model)
    }
}
