import ArgumentParser
import Foundation
import StoreHost
import StoreShell
import StoreValue
import StoreshCommandLine

/// `storesh explore`: generated action sequences, checked after every step, the first
/// failure shrunk to a minimal failing transcript.
struct ExploreCommandOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Generate action sequences for a model, find a failure, shrink it to a failing transcript.",
        discussion: """
            Runs random sequences of the model's actions (arguments by kind or shape: enum cases, struct \
            fields, ranges; biased to edges and to \
            values in the state; keyed actions take keys from the state; clock steps between them), \
            each from a fresh store on a virtual clock, and checks after every step: the invariants, \
            the checks the model makes in its own code, a crash, a hang, a failed effect, and determinism (each run is replayed in a fresh store \
            and every state compared). The first failing run is shrunk (fewer steps, simpler \
            arguments) and written as a transcript that fails 'storesh test' until the bug is fixed: its \
            steps' output is not compared and the property is pinned with :check, :check-after or :check-model, so \
            a fix that changes earlier states still passes. Properties are expressions of the \
            property language (docs/shell/explore.md): paths with [*], + - * / %, && || !, ==, count, sum, \
            min, max, contains, keys, all, any, …; --after adds old(…), args and accepted. \
            --against PLUGIN[:MODEL] compares every state with a reference model's (--compare PATH \
            to compare only there) and pins a difference with :compare. \
            An existing --out file is replaced when explore wrote it (its first line says so), another \
            only with --overwrite; a directory, a device or a FIFO is refused before the search. \
            Exit status: 0 nothing found, 1 a failure found and its transcript written, 2 a usage \
            error (a path that cannot be written included), 3 a failure found but its transcript \
            could not be written (the report still shows it and its seed). The same options and \
            seed give the same output and file (unless --time-limit cut the search short).
            """
    )

    @OptionGroup var loading: PluginOptions

    @Option(help: ArgumentHelp("The model to explore (default: the first plugin's first model).", valueName: "NAME"))
    var model: String?

    @Option(
        name: .customLong("invariant"),
        help: ArgumentHelp(
            "Check EXPR after every step and on the initial state, e.g. 'balance >= 0', 'size == count(contents)', 'all(items[*].qty >= 0)' (the property language: docs/shell/explore.md). Repeatable. A path that names nothing skips the check.",
            valueName: "EXPR"))
    var invariants: [String] = []

    @Option(
        name: .customLong("after"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Check EXPR after every step that took ACTION, accepted or refused: old(…) reads the state before it, args.NAME and args[N] its arguments, accepted whether the model took it, e.g. --after pop 'popped == old(min(items))'. Repeatable.",
            valueName: "ACTION EXPR"))
    var after: [String] = []

    @Option(
        help: ArgumentHelp(
            "Differential testing: send every step to this reference model too (a model of PLUGIN, a name or a file, in a host of its own; MODEL defaults to the explored model's name, else the plugin's first model), and fail at the first step after which the two states differ or one takes the step the other refuses. The transcript pins it with :compare.",
            valueName: "PLUGIN[:MODEL]"))
    var against: String?

    @Option(
        name: .customLong("compare"),
        help: ArgumentHelp(
            "With --against: compare the states only at this path (the property language's paths, e.g. 'alive', 'registry[\"a\"]'); a path naming nothing in both agrees. Repeatable; default the whole state.",
            valueName: "PATH"))
    var comparePaths: [String] = []

    @Option(
        help: ArgumentHelp(
            "Use only these actions (names separated by ','; default: all the model's).", valueName: "A,B"))
    var actions: String?

    @Option(
        name: .customLong("stub"),
        help: ArgumentHelp(
            "Answer a service's calls as ':stub' does: 'SERVICE RESULT[, RESULT…]' (a result may be fail \"message\"). Repeatable; the transcript sets them up too.",
            valueName: "STUB"))
    var stubs: [String] = []

    @Option(help: ArgumentHelp("Seed for every choice (default: from the time; printed either way).", valueName: "N"))
    var seed: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Runs to try (default 200; with --time-limit and no --runs, as many as the time allows).", valueName: "N"))
    var runs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Steps per run.", valueName: "N"))
    var steps = 50

    @Option(
        name: .customLong("time-limit"), parsing: .unconditional,
        help: ArgumentHelp(
            "Search for this many seconds: runs go on until the time is spent (up to --runs when it is given), and the report says how far it got. The output then depends on the machine's speed.",
            valueName: "SECONDS"))
    var timeLimit: Double?

    @Option(
        name: .customLong("more-failures"), parsing: .unconditional,
        help: ArgumentHelp(
            "After a property first breaks, search on (twice the runs it took, 200 to 5000) for up to N more runs that break it, shrink each and keep the shortest: shrinking stops at a local minimum, another run may lead to a smaller one (the jugs, seeds 1 and 3: 8 steps with 0, 6 with 1).",
            valueName: "N"))
    var moreFailures = 0

    @Flag(
        help: ArgumentHelp(
            "Instead of random runs, every sequence of actions up to --depth, breadth first, with finite arguments (declared ranges and sets; otherwise edge values and values the state holds), states kept once: the first failure is the shortest; none is a small proof to that depth."
        ))
    var exhaustive = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --exhaustive: how many steps deep to search (default 6).", valueName: "N"))
    var depth: Int?

    @Option(
        name: .customLong("state-limit"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --exhaustive: stop, saying how deep every sequence was searched, once this many distinct states are kept (default 100000).",
            valueName: "N"))
    var stateLimit: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Search with N storesh processes at once (default: one per core, at most 8; 1 with --exhaustive, --shard, --against or --more-failures), each making every Nth of the 8 lanes of a guided search (every Nth run with --no-guidance): past 8, guided jobs share no work. The verdict and the transcript are the ones one process finds (each run is the same in any process, and the failure of the lowest run is kept); a failure's counts are those of the job that found it. With --more-failures or --time-limit the verdict is the same, the shrunk run may differ.",
            valueName: "N"))
    var jobs: Int?

    /// Set on the jobs of `--jobs`: the file through which they tell each other where one
    /// found a failure (`ExploreStopFile`).
    @Option(name: .customLong("stop-file"), help: .hidden)
    var stopFile: String?

    /// The jobs the search is made with: as given, or one per core (at most the 8 lanes a
    /// guided search deals out) where a split search gives what one process gives.
    var jobCount: Int {
        if let jobs { return jobs }
        guard !exhaustive, shard == nil, merge.isEmpty, against == nil, moreFailures == 0, !searchWorker else {
            return 1
        }
        return min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8)
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Make only the Ith (0-based) of N parts of the search (every Nth of its 8 lanes when guided, so at most 8 parts share the work, else every Nth run), e.g. one job of a CI matrix; with --format json its report is what --merge combines.",
            valueName: "I/N"))
    var shard: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Combine the --format json reports of the shards of one search (every shard, once) into one verdict, exit status and transcript (--out; default MODEL.transcript); loads no plugin.",
            valueName: "REPORT"))
    var merge: [String] = []

    @Flag(
        name: .customLong("no-determinism-check"),
        help: "Do not replay each run to check that the same actions give the same states (twice as fast).")
    var noDeterminismCheck = false

    @Flag(
        name: .customLong("no-guidance"),
        help:
            "Make every run from fresh random steps: keep no runs that reached a new state or transition, and start no run from one."
    )
    var noGuidance = false

    @Flag(
        help:
            "Explore when the answers of service calls arrive: each run's answers come late as its seed chooses (after a wait on the virtual clock, after the next action, or never) instead of at once; a failure's transcript replays them with :latency."
    )
    var schedules = false

    @Option(
        help: ArgumentHelp(
            "Write the failing transcript here (default: MODEL.transcript in the current directory).", valueName: "FILE"
        ))
    var out: String?

    @Flag(help: "Replace an existing --out file that explore did not write (one it wrote is replaced anyway).")
    var overwrite = false

    @Option(help: ArgumentHelp("text: a report for people; json: one JSON object.", valueName: "text|json"))
    var format = "text"

    @OptionGroup var isolation: IsolationOptions

    @Flag(
        name: .customLong("no-search-worker"),
        help:
            "Make the search in storesh itself, every step sent to the model in a worker process (slower; each request timed on its own, and a model that corrupts memory cannot reach the search). By default a child storesh, a search worker, makes it with the model in its own process, and this is what storesh falls back to when the model ends that process."
    )
    var noSearchWorker = false

    /// Set on the child storesh a search runs in, the model in its process (`SearchWorker`).
    @Flag(name: .customLong("search-worker"), help: .hidden)
    var searchWorker = false

    /// Set with `--in-process` on the search workers storesh starts: a model that gives no
    /// sign of life for --action-timeout ends the process (`SearchWorker.watch`).
    @Flag(name: .customLong("watch-model"), help: .hidden)
    var watchModel = false

    /// Whether the search is made in search workers with their model in process (the
    /// default): not with --in-process (storesh is the process), --no-search-worker, or
    /// --against (two builds of one plugin run side by side only in worker processes).
    var usesSearchWorkers: Bool { !isolation.inProcess && !noSearchWorker && against == nil }

    /// The runs to make: as given; with a time limit and no --runs, until the time is spent.
    var runBudget: Int { runs ?? (timeLimit == nil ? 200 : Int.max) }

    func validate() throws {
        if let runs, !(1...10_000_000).contains(runs) {
            throw ValidationError("--runs must be from 1 to 10000000, not \(runs)")
        }
        guard steps >= 1, steps <= 100_000 else {
            throw ValidationError("--steps must be from 1 to 100000, not \(steps)")
        }
        if let timeLimit, !(timeLimit > 0 && timeLimit <= 86_400) {
            throw ValidationError("--time-limit must be more than 0 and at most 86400 seconds, not \(timeLimit)")
        }
        if let depth, !(1...64).contains(depth) {
            throw ValidationError("--depth must be from 1 to 64, not \(depth)")
        }
        if let stateLimit, !(1...100_000_000).contains(stateLimit) {
            throw ValidationError("--state-limit must be from 1 to 100000000, not \(stateLimit)")
        }
        if !exhaustive, depth != nil || stateLimit != nil {
            throw ValidationError("--depth and --state-limit bound an exhaustive search: they need --exhaustive")
        }
        if let jobs, !(1...64).contains(jobs) {
            throw ValidationError("--jobs must be from 1 to 64, not \(jobs)")
        }
        if let shard, ExploreShard(parsing: shard) == nil {
            throw ValidationError("--shard takes I/N: N from 1 to 1024 and I from 0 to N-1, not '\(shard)'")
        }
        if schedules, exhaustive {
            throw ValidationError("--schedules is for the random search: --exhaustive takes every answer at once")
        }
        if schedules, against != nil {
            throw ValidationError(
                "--schedules makes one model's answers late: the reference of --against would differ by timing alone")
        }
        if shard != nil, exhaustive {
            throw ValidationError("--shard splits a random search: not with --exhaustive")
        }
        if noSearchWorker, isolation.inProcess {
            throw ValidationError("--no-search-worker keeps the model in a worker process: not with --in-process")
        }
        if jobCount > 1, shard != nil || exhaustive {
            throw ValidationError("--jobs splits a random search into shards itself: not with --shard or --exhaustive")
        }
        if !merge.isEmpty, jobs != nil || shard != nil || exhaustive || !loading.plugins.isEmpty {
            throw ValidationError(
                "--merge combines reports: it runs no search (no --plugin, --jobs, --shard or --exhaustive)")
        }
        guard (0...20).contains(moreFailures) else {
            throw ValidationError("--more-failures must be from 0 to 20, not \(moreFailures)")
        }
        guard ["text", "json"].contains(format) else {
            throw ValidationError("--format must be text or json, not '\(format)'")
        }
        _ = try conditions()
        _ = try postconditions()
        _ = try comparison()
        if let spaced = comparePaths.first(where: { $0.contains { $0 == " " || $0 == "\t" } }) {
            throw ValidationError(
                "--compare '\(spaced)': a path may not hold spaces (the transcript's :compare separates paths by them)")
        }
        if !comparePaths.isEmpty, against == nil {
            throw ValidationError("--compare compares with the reference model: it needs --against PLUGIN[:MODEL]")
        }
    }

    /// The `--compare` paths, read; a mistake names the path and the column.
    func comparison() throws -> StateComparison {
        do throws(StateComparisonError) {
            return try StateComparison(paths: comparePaths)
        } catch {
            throw ValidationError("--compare \(error.message)")
        }
    }

    /// `--against PLUGIN[:MODEL]` split: the plugin, and the model when named (the ':'
    /// after the last '/', so a path may hold one).
    var againstParts: (plugin: String, model: String?)? {
        against.map(ExploreOptions.againstParts)
    }

    /// The `--after ACTION EXPR` pairs, read; a mistake names the option and the column.
    func postconditions() throws -> [ExplorePostcondition] {
        guard after.count % 2 == 0 else {
            throw ValidationError("--after takes an action and an expression: --after ACTION 'EXPR'")
        }
        return try stride(from: 0, to: after.count, by: 2).map { index in
            let (action, text) = (after[index], after[index + 1])
            do throws(TextError) {
                return try ExplorePostcondition.parse(action: action, expression: text)
            } catch {
                let column = String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count + 1
                throw ValidationError("--after \(action) '\(text)': column \(column): \(error.message)")
            }
        }
    }

    /// The `--invariant`s, read; a mistake names the option, the text and the column.
    func conditions() throws -> [StateCondition] {
        try invariants.map { text in
            do throws(TextError) {
                return try StateCondition.parse(text)
            } catch {
                let column = String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count + 1
                throw ValidationError("--invariant '\(text)': column \(column): \(error.message)")
            }
        }
    }
}
