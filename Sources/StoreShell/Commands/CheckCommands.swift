/// `:explore`: `storesh explore` from where the session is.
struct ExploreCommand: ShellCommand {
    let name = "explore"
    let usage =
        ":explore [--invariant EXPR]... [--after ACTION EXPR]... [--actions A,B] [--seed N] [--runs N] [--steps N] [--time-limit S] [--no-guidance] [--schedules] [--exhaustive [--depth N] [--state-limit N]] [--against PLUGIN[:MODEL] [--compare PATH]...] [--out FILE [--overwrite]]"
    let summary = "generate action sequences from here, find a failure, shrink it to a failing transcript"
    let detail = [
        "After every step: the invariants (expressions of the property language, docs/shell/explore.md: --invariant balance >= 0, --invariant size == count(contents)), the checks the model makes in its own code (:check-model), crashes, hangs, failed effects, determinism; a path that names nothing skips the check.",
        "--after ACTION EXPR: a postcondition checked after every step that took ACTION, accepted or refused; old(…) reads the state before it, args.NAME and args[N] its arguments, accepted whether the model took it.",
        "An --invariant or --after runs to the next option. --actions limits the search to those actions. --time-limit S searches until S seconds are spent (up to --runs only when it is given). Defaults: --runs 200, --steps 50, the seed from the time (printed).",
        "--against PLUGIN[:MODEL]: the same steps go to a reference model (a plugin in the search path or a file; MODEL defaults to the explored model's name, else the plugin's first), and the first step after which the states differ — at each --compare PATH, default the whole state — or that one accepts and the other refuses is a failure; the transcript pins it with :compare.",
        "Guided by default: a run that reaches a state or a transition (an action from a state) no run reached is kept, and four runs in five start from a changed copy of a kept one (extended, a step made afresh or left out, spliced with another), so a long exact sequence is found a step at a time; --no-guidance makes every run from fresh steps. The report says how many runs were kept and transitions taken.",
        "--schedules: the answers of the model's asynchronous service calls (service_answer) come late as each run's seed chooses — after a wait on the clock, after the next action, or never — so a stale answer that overwrites a newer one, or one that lands after a cancel, is found; the shrunk schedule is written as :latency lines. Without it every answer comes at once.",
        "--exhaustive: instead of random runs, every sequence of up to --depth steps (default 6), breadth first, with finite arguments (declared ranges and sets, else edge values and values the state holds), each state kept once (--state-limit, default 100000): the first failure is the shortest; none is a proof to that depth.",
        "The model's stubs (:stubs) hold in the search too, and the transcript sets them up.",
        "A failure is shrunk and written as a transcript (default MODEL.transcript) that replays this session's actions first, then the steps with their output not compared, and pins the property with :check or :check-after: it passes once the bug is fixed, even when the fix changes earlier states.",
        "An existing file is replaced when explore wrote it; another only with --overwrite. A directory, a device or a FIFO is refused before the search.",
        "See 'storesh explore --help' for the same search from the command line.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.explore(arguments, origin: origin)
    }
}

/// `:replay-check`: the timeline, replayed in a fresh store, must end in the session's state.
struct ReplayCheckCommand: ShellCommand {
    let name = "replay-check"
    let usage = ":replay-check"
    let summary =
        "replay the timeline in a fresh store; an error when it ends in another state (the model is not deterministic); silent when it passes"
    let detail = [
        "The actions are replayed as time travel replays them (updates only, effects dropped; an effect's actions are in the timeline). The session is not changed."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.replayCheck(origin: origin)
    }
}

/// `:check EXPR`: an invariant, with explore's semantics.
struct CheckCommand: ShellCommand {
    let name = "check"
    let usage = ":check EXPR"
    let summary = "check a property of the state as explore's --invariant does; silent when it holds"
    let detail = [
        "EXPR is the property language (docs/shell/explore.md): paths, [*], arithmetic, && || !, count(…), sum(…), … e.g. :check size == count(contents).",
        "Unlike :expect, a path that names nothing (or min/max of an empty list) passes: the check is skipped, as explore skips it.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.check(arguments, origin: origin)
    }
}

/// `:check-after ACTION EXPR`: a postcondition of the last action line.
struct CheckAfterCommand: ShellCommand {
    let name = "check-after"
    let usage = ":check-after ACTION EXPR"
    let summary = "check a postcondition of the last action line, as explore's --after does; silent when it holds"
    let detail = [
        "The last action line must have been ACTION (accepted or refused): old(…) reads the state before it, args.NAME and args[N] its arguments, accepted whether the model took it.",
        "A path that names nothing passes, as in explore.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.checkAfter(arguments, origin: origin)
    }
}

/// `:check-model [NAME]`: the model's own checks.
struct CheckModelCommand: ShellCommand {
    let name = "check-model"
    let usage = ":check-model [NAME]"
    let summary =
        "check the model's own properties (its declared invariants and its checks in code); silent for one NAME that holds"
    let detail = [
        "With NAME (quoted when it has spaces): that check in the model's code, as explore asks for it; a postcondition looks at the last action sent and holds when the model refused it. This is how a transcript of 'storesh explore' pins a check in code.",
        "Without: every check the model declares, each with whether it holds; an error when one does not.",
    ]
    var readsOnly: Bool { true }

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.checkModel(arguments, origin: origin)
    }
}

/// `:compare MODEL [PATH]...`: the timeline replayed in a reference model, the states compared.
struct CompareCommand: ShellCommand {
    let name = "compare"
    let usage = ":compare MODEL [PATH]..."
    let summary =
        "replay this model's timeline in a fresh store of MODEL (a reference) and compare the states, whole or at each PATH; silent when they agree"
    let detail = [
        "MODEL is a model of a loaded plugin (e.g. the fixed build of this one). The actions go by name, as time travel replays them (updates only, effects dropped); one the reference refuses is an error.",
        "A PATH (as in the property language: alive, registry[\"a\"], items[*].qty; no spaces) that names nothing in both states agrees. This is how a transcript of 'storesh explore --against' pins the difference it found.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.compare(arguments, origin: origin)
    }
}

/// `:inspect [PORT]`: the inspector's page, served by the front end.
struct InspectCommand: ShellCommand {
    let name = "inspect"
    let readsOnly = true
    let usage = ":inspect [PORT]"
    let summary =
        "serve the inspector (the session in a browser: actions, effects, states, a slider through time) and print its address"
    let detail = [
        "The page listens on 127.0.0.1 only, at PORT or any free port, and needs the token in the address it prints; once started it runs until storesh ends (:inspect again prints the address). See docs/shell/inspector.md."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.inspect(arguments, origin: origin)
    }
}
