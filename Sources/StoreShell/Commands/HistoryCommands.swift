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
