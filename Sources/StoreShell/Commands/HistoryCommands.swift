/// `:log [N | FROM-TO | all]`: the history of actions.
struct LogCommand: ShellCommand {
    let name = "log"
    let readsOnly = true
    let usage = ":log [N | FROM-TO | all]"
    let summary =
        "the last N actions (default 20), or actions FROM to TO: source, and whether each changed the state"
    let detail = [
        "Sources: typed (at the prompt), script (-f, -c, stdin), effect (sent by an effect).",
        "A long history is shown a page at a time: a line says how many actions come before (and after) the ones shown.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.log(arguments.words, origin: origin)
    }
}

/// `:goto N [--with-effects]`: the state after action N, continued from.
struct GotoCommand: ShellCommand {
    let name = "goto"
    let usage = ":goto N [--with-effects]"
    let summary = "show and continue from the state after action N (0: the initial state)"
    let detail = [
        "Replays run the update function only. --with-effects starts a new store and sends the typed and scripted actions among the first N again, so their effects run and send their actions anew (the history becomes those). A new action after a jump sets the undone ones aside as a branch (see :branches)."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let words = arguments.words
        let rest = words.filter { $0 != "--with-effects" }
        guard rest.count == 1, let position = Int(rest[0]) else { return core.fail("usage: \(usage)", origin: origin) }
        return core.jump(to: .position(position), withEffects: rest.count < words.count, origin: origin)
    }
}

/// `:undo` and `:redo`: one action back or forward.
struct StepCommand: ShellCommand {
    let name: String
    let usage: String
    let summary: String
    let detail = ["--with-effects: as for :goto."]
    /// How far a step moves: -1 back, +1 forward.
    let step: Int

    static let undo = StepCommand(
        name: "undo", usage: ":undo [--with-effects]", summary: "go back one action", step: -1)
    static let redo = StepCommand(
        name: "redo", usage: ":redo [--with-effects]", summary: "go forward one undone action", step: 1)

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.allSatisfy({ $0 == "--with-effects" }) else {
            return core.fail("usage: \(usage)", origin: origin)
        }
        return core.jump(to: .step(step), withEffects: !args.isEmpty, origin: origin)
    }
}

/// `:branches`: the timelines set aside.
struct BranchesCommand: ShellCommand {
    let name = "branches"
    let readsOnly = true
    let usage = ":branches"
    let summary = "timelines set aside when a new action replaced undone ones"
    let detail = [
        "After :goto or :undo, a new action starts a new timeline; the old one, with its undone actions, is kept as a branch (an undo tree)."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.listBranches(origin: origin)
    }
}

/// `:branch N`: brings back a timeline set aside.
struct BranchCommand: ShellCommand {
    let name = "branch"
    let usage = ":branch N"
    let summary = "bring back branch N (the current timeline is set aside in its place)"
    let detail = ["The state becomes the state at the end of the branch; ':branch N' again swaps back."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.switchBranch(arguments.words, origin: origin)
    }
}

/// `:skip N` and `:unskip N`: the history recomputed without (or with again) one action.
struct SkipCommand: ShellCommand {
    let name: String
    let usage: String
    let summary: String
    let detail: [String] = []
    /// Whether the action is left out (`:skip`) or put back (`:unskip`).
    let skips: Bool

    static let skip = SkipCommand(
        name: "skip", usage: ":skip N",
        summary: "recompute the history without action N, as Redux DevTools' toggle does", skips: true)
    static let unskip = SkipCommand(
        name: "unskip", usage: ":unskip N", summary: "put a skipped action back", skips: false)

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.toggle(arguments.words, skipped: skips, origin: origin)
    }
}

/// `:export FILE [--force]`: the action log, written with the model's fingerprint.
struct ExportCommand: ShellCommand {
    let name = "export"
    let readsOnly = true
    let usage = ":export FILE [--force]"
    let summary = "write the action log, with a fingerprint of the model it came from"
    let detail = ["An existing FILE is replaced only with --force."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.export(arguments.words, origin: origin)
    }
}

/// `:import FILE [--force]`: an exported log replayed into a new store.
struct ImportCommand: ShellCommand {
    let name = "import"
    let usage = ":import FILE [--force]"
    let summary = "replay an exported log into a new store of the current model"
    let detail = ["A log from a model whose schema changed is refused with what changed, unless --force."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.importLog(arguments.words, origin: origin)
    }
}
