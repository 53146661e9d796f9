/// `:bisect`: the first action after which a condition holds.
struct BisectCommand: ShellCommand {
    let name = "bisect"
    let readsOnly = true
    let usage = ":bisect PATH OP VALUE [--not] | --crash | --error"
    let summary = "find the first action after which a condition holds (or a later action crashes or fails)"
    let detail = [
        "OP as for :expect. The condition must hold now and not at the start; the history's snapshots and a binary search find the action, with at most ⌈log2 n⌉ + 1 replays in a store of its own (the session is left as it is). It assumes that once the condition holds it keeps holding, as git bisect does.",
        "--not: the first action after which it stops holding. --crash (a model in a worker) and --error: the first action from whose state the last action that crashed (or was refused) crashes (or is refused) again.",
        "It shows the action, the diff it made, and the :goto that shows the state before and after.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.bisect(arguments, origin: origin)
    }
}

/// `:why PATH [all]`: the actions that changed PATH.
struct WhyCommand: ShellCommand {
    let name = "why"
    let readsOnly = true
    let usage = ":why PATH [all]"
    let summary = "the actions that changed PATH (or anything under it), newest first, with their diffs there"
    let detail = [
        "From the diffs the history keeps (an action whose diff was not worked out, in a quiet script, is replayed once in a store of its own). The 20 newest unless 'all'."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.why(arguments, origin: origin)
    }
}

/// `:find TEXT`: the paths in the state whose key or value contains TEXT.
struct FindCommand: ShellCommand {
    let name = "find"
    let readsOnly = true
    let usage = ":find TEXT"
    let summary = "the paths in the state whose key or value contains TEXT (ignoring case)"
    let detail = [
        "Each path pastes into :state; list elements with an id are named by it. Up to 100 matches are listed."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.find(arguments, origin: origin)
    }
}

/// `:watch [EXPR]`: a line whenever EXPR's value changes.
struct WatchCommand: ShellCommand {
    let name = "watch"
    let usage = ":watch [EXPR]"
    let summary =
        "print a line whenever EXPR's value changes (typed, scripted, by an effect or a jump); no EXPR lists the watches"
    let detail = [
        "EXPR is a path (todos[0].title) or any expression of the property language (docs/shell/explore.md): count(todos), sum(items[*].qty), size == count(contents).",
        "While a watch or a breakpoint is set, scripts send their actions one at a time, so each is looked at.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.watch(arguments, origin: origin)
    }
}

/// `:unwatch [EXPR | all]`: stops a watch.
struct UnwatchCommand: ShellCommand {
    let name = "unwatch"
    let usage = ":unwatch [EXPR | all]"
    let summary = "stop watching EXPR (or the only watch, or all)"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.unwatch(arguments, origin: origin)
    }
}

/// `:break [PATH OP VALUE]`: stops a run at the action that makes a condition true.
struct BreakCommand: ShellCommand {
    let name = "break"
    let usage = ":break [PATH OP VALUE]"
    let summary =
        "stop a script, :wait, :advance or a :goto replay at the action that makes a condition true; no condition lists them"
    let detail = [
        "OP as for :expect. At the prompt the run stops there with an error; in a script that line fails and the script stops."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.setBreakpoint(arguments, origin: origin)
    }
}

/// `:unbreak [N | all]`: removes a breakpoint.
struct UnbreakCommand: ShellCommand {
    let name = "unbreak"
    let usage = ":unbreak [N | all]"
    let summary = "remove breakpoint N (as :break lists them; the only one, or all)"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.removeBreakpoint(arguments.words, origin: origin)
    }
}

/// `:timer [on|off]`: where each action's time went.
struct TimerCommand: ShellCommand {
    let name = "timer"
    let usage = ":timer [on|off]"
    let summary = "after each action, show where its time went (update, state read, diff, worker round trip)"
    let detail = [
        "As sqlite3's .timer. In a worker the update and the read happen inside the round trip, which is shown whole."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.timer(arguments.words, origin: origin)
    }
}

/// `:timeit ACTION [-n N] [-r R]`: an action's update, timed.
struct TimeitCommand: ShellCommand {
    let name = "timeit"
    let usage = ":timeit ACTION [-n N] [-r R]"
    let summary = "time an action's update from the current state: best, median and worst of R runs of N"
    let detail = [
        "As IPython's %timeit: the state is restored before each run of the action, in a store of its own, so the session and its history are unchanged. Without -n, N grows tenfold until a run takes 0.2 s; R is 7. Effects are not started."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.timeit(arguments, origin: origin)
    }
}

/// `:save-test FILE [FROM-TO] [--force]`: the session, written as a transcript.
struct SaveTestCommand: ShellCommand {
    let name = "save-test"
    let usage = ":save-test FILE [FROM-TO] [--force]"
    let summary = "write the session as a transcript that passes as written"
    let detail = [
        "The loads, stubs, clock steps, checks and the actions of the current timeline (FROM-TO: only those actions of :log are compared; the ones before are run with their output not compared), with their output recorded by running it once. A line that failed is written '!> '. Plugin paths are relative to FILE. An existing FILE is replaced only with --force."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await core.saveTest(arguments.words, origin: origin)
    }
}
