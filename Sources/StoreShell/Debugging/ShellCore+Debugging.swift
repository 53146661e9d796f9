import Dispatch
import StoreHost
import StoreValue

/// From a bad state to its cause and a test: the commands that find which action did
/// something (`:bisect`, `:why`, `:find`), watch a run (`:watch`, `:break`), time it
/// (`:timer`, `:timeit`) and turn a session into a transcript (`:save-test`).
extension ShellCore {
    static let debuggingCommands: [ShellCommand] = [
        ShellCommand(
            name: "bisect", usage: ":bisect PATH OP VALUE [--not] | --crash | --error",
            summary: "find the first action after which a condition holds (or a later action crashes or fails)",
            detail: [
                "OP as for :expect. The condition must hold now and not at the start; the history's snapshots and a binary search find the action, with at most ⌈log2 n⌉ + 1 replays in a store of its own (the session is left as it is). It assumes that once the condition holds it keeps holding, as git bisect does.",
                "--not: the first action after which it stops holding. --crash (a model in a worker) and --error: the first action from whose state the last action that crashed (or was refused) crashes (or is refused) again.",
                "It shows the action, the diff it made, and the :goto that shows the state before and after.",
            ]
        ) { core, args, origin in
            await core.bisect(args, origin: origin)
        },
        ShellCommand(
            name: "why", usage: ":why PATH [all]",
            summary: "the actions that changed PATH (or anything under it), newest first, with their diffs there",
            detail: [
                "From the diffs the history keeps (an action whose diff was not worked out, in a quiet script, is replayed once in a store of its own). The 20 newest unless 'all'."
            ]
        ) { core, _, origin in
            core.why(origin: origin)
        },
        ShellCommand(
            name: "find", usage: ":find TEXT",
            summary: "the paths in the state whose key or value contains TEXT (ignoring case)",
            detail: [
                "Each path pastes into :state; list elements with an id are named by it. Up to 100 matches are listed."
            ]
        ) { core, _, origin in
            core.find(origin: origin)
        },
        ShellCommand(
            name: "watch", usage: ":watch [EXPR]",
            summary:
                "print a line whenever EXPR's value changes (typed, scripted, by an effect or a jump); no EXPR lists the watches",
            detail: [
                "EXPR is a path (todos[0].title) or any expression of the property language (docs/explore.md): count(todos), sum(items[*].qty), size == count(contents).",
                "While a watch or a breakpoint is set, scripts send their actions one at a time, so each is looked at.",
            ]
        ) { core, _, origin in
            core.watch(origin: origin)
        },
        ShellCommand(
            name: "unwatch", usage: ":unwatch [EXPR | all]", summary: "stop watching EXPR (or the only watch, or all)",
            detail: []
        ) { core, args, origin in
            core.unwatch(args, origin: origin)
        },
        ShellCommand(
            name: "break", usage: ":break [PATH OP VALUE]",
            summary:
                "stop a script, :wait, :advance or a :goto replay at the action that makes a condition true; no condition lists them",
            detail: [
                "OP as for :expect. At the prompt the run stops there with an error; in a script that line fails and the script stops."
            ]
        ) { core, _, origin in
            core.setBreakpoint(origin: origin)
        },
        ShellCommand(
            name: "unbreak", usage: ":unbreak [N | all]",
            summary: "remove breakpoint N (as :break lists them; the only one, or all)", detail: []
        ) { core, args, origin in
            core.removeBreakpoint(args, origin: origin)
        },
        ShellCommand(
            name: "timer", usage: ":timer [on|off]",
            summary: "after each action, show where its time went (update, state read, diff, worker round trip)",
            detail: [
                "As sqlite3's .timer. In a worker the update and the read happen inside the round trip, which is shown whole."
            ]
        ) { core, args, origin in
            core.timer(args, origin: origin)
        },
        ShellCommand(
            name: "timeit", usage: ":timeit ACTION [-n N] [-r R]",
            summary: "time an action's update from the current state: best, median and worst of R runs of N",
            detail: [
                "As IPython's %timeit: the state is restored before each run of the action, in a store of its own, so the session and its history are unchanged. Without -n, N grows tenfold until a run takes 0.2 s; R is 7. Effects are not started."
            ]
        ) { core, _, origin in
            core.timeit(origin: origin)
        },
        ShellCommand(
            name: "save-test", usage: ":save-test FILE [FROM-TO] [--force]",
            summary: "write the session as a transcript that passes as written",
            detail: [
                "The loads, stubs, clock steps, checks and the actions of the current timeline (FROM-TO: only those actions of :log are compared; the ones before are run with their output not compared), with their output recorded by running it once. A line that failed is written '!> '. Plugin paths are relative to FILE. An existing FILE is replaced only with --force."
            ]
        ) { core, args, origin in
            await core.saveTest(args, origin: origin)
        },
    ]

    /// Completions for the arguments of the debugging commands; nil for other commands.
    func debuggingCompletions(_ command: String) -> [String]? {
        switch command {
        case "bisect":
            return ["--not", "--crash", "--error"]
                + (current.map { statePaths($0.state, identity: $0.model.stateDiff) } ?? [])
        case "why", "watch", "break": return current.map { statePaths($0.state, identity: $0.model.stateDiff) } ?? []
        case "unwatch": return debugging.watches.map(\.path) + ["all"]
        case "unbreak": return debugging.breakpoints.indices.map { String($0 + 1) } + ["all"]
        case "timer": return ["on", "off"]
        case "timeit": return (current?.model.actions.map(\.name) ?? []) + ["-n", "-r"]
        case "save-test": return ["--force"]
        default: return nil
        }
    }

    /// What follows every line: its place on the tape, the watch lines it caused, the
    /// timer's line, and a breakpoint that fired (which fails the line). Returns whether
    /// the line succeeded.
    func lineDone(_ line: String, kind: LineKind, succeeded: Bool, origin: LineOrigin, started: UInt64) -> Bool {
        let fired = debugging.breakHit
        debugging.breakHit = nil
        tape(line, kind: kind, succeeded: succeeded || fired != nil)
        flushDebuggingOutput()
        if let phases = debugging.timing {
            debugging.timing = nil
            output(Self.timerReport(phases, total: DispatchTime.now().uptimeNanoseconds - started))
        }
        guard let fired else { return succeeded }
        if origin.file != nil { debugging.stopsScript = true }
        return fail(fired, origin: origin)
    }

    /// True once after a breakpoint fired in a script: the script stops there.
    package func takeBreakpointStop() -> Bool {
        defer { debugging.stopsScript = false }
        return debugging.stopsScript
    }

    /// Shows the watch lines waiting.
    func flushDebuggingOutput() {
        guard !debugging.pending.isEmpty else { return }
        let lines = debugging.pending
        debugging.pending = []
        lines.forEach(output)
    }

    /// After an action was recorded: the tape forgets what an abandoned timeline held,
    /// and watches and breakpoints look at the new state.
    func noteRecorded(in session: Session, history: History, branch: Int?) {
        if let branch {
            let fork = history.branches[branch - 1].fork
            debugging.tape.removeAll { $0.history === history && $0.position > fork }
        }
        // Mid-batch the model is already past the action recorded.
        guard debugging.checksEachAction, !takingBatch, let entry = history.entries.last else { return }
        let cause =
            "#\(history.shown(history.position)) \(text(of: entry, in: session.model)) (\(entry.source.rawValue))"
        checkWatches(in: session, after: cause, action: history.shown(history.position), firesBreaks: true)
    }

    /// Reports watched paths of `session`'s model that changed, and fires a breakpoint
    /// that started to hold (`firesBreaks`; a jump only notes what holds).
    func checkWatches(in session: Session, after cause: String, action: Int?, firesBreaks: Bool) {
        let key = session.model.qualifiedName
        guard
            debugging.watches.contains(where: { $0.model == key })
                || debugging.breakpoints.contains(where: { $0.model == key }),
            let state = try? session.currentState()
        else { return }
        let identity = session.model.stateDiff
        for index in debugging.watches.indices where debugging.watches[index].model == key {
            let watch = debugging.watches[index]
            let now = try? PropertyEvaluator(state: state, identity: identity).value(of: watch.expression)
            guard now != watch.last else { continue }
            debugging.watches[index].last = now
            let shown = { (value: Value?) in value?.brief(items: 20) ?? "(nothing)" }
            debugging.pending.append(
                .report(
                    kind: "watch", lines: ["watch \(watch.path): \(shown(watch.last)) → \(shown(now))  after \(cause)"],
                    data: .record([
                        "path": .string(watch.path), "old": watch.last ?? .null, "new": now ?? .null,
                        "action": action.map { .int(Int64($0)) } ?? .null, "cause": .string(cause),
                    ])))
        }
        for index in debugging.breakpoints.indices where debugging.breakpoints[index].model == key {
            let condition = debugging.breakpoints[index].condition
            let holds = condition.holds(in: state, identity: identity)
            if firesBreaks, holds, !debugging.breakpoints[index].held, debugging.breakHit == nil {
                debugging.breakHit =
                    "break: \(condition) became true after \(cause); stopped here (:unbreak removes the breakpoint)"
            }
            debugging.breakpoints[index].held = holds
        }
    }

    /// Breakpoints of `session`'s model, each with whether it holds in `state`.
    func breakpointStates(of session: Session, in state: Value) -> [(condition: StateCondition, holds: Bool)] {
        debugging.breakpoints.filter { $0.model == session.model.qualifiedName }.map {
            ($0.condition, $0.condition.holds(in: state, identity: session.model.stateDiff))
        }
    }

    /// `send` timed phase by phase, for `:timer on`.
    func timedSend(_ session: Session, _ action: ActionDescriptor, _ arguments: [Value], observe: Bool)
        throws(SessionError) -> SendResult
    {
        guard observe else {
            // Nothing is read back: the send is the update (or the round trip) alone.
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try session.send(action, arguments: arguments, observe: false)
            let spent = DispatchTime.now().uptimeNanoseconds - start
            debugging.timing = session.runsInWorker ? SendPhases(roundTrip: spent) : SendPhases(update: spent)
            return result
        }
        let (result, phases) = try session.sendTimingPhases(action, arguments: arguments)
        debugging.timing = phases
        return result
    }
}

extension ShellCore {
    /// During a jump's replay with breakpoints set, after the state of `position`: the
    /// stop (with the history moved there) when a breakpoint started to hold; nil to go on.
    func breakpointStop(
        _ breaks: inout [(condition: StateCondition, holds: Bool)], in live: Session, history: History,
        at position: Int, target: Int
    ) -> ReplayStop? {
        guard position > 0, let state = try? live.currentState() else { return nil }
        var fired: StateCondition?
        for index in breaks.indices {
            let holds = breaks[index].condition.holds(in: state, identity: live.model.stateDiff)
            if holds, !breaks[index].holds, fired == nil { fired = breaks[index].condition }
            breaks[index].holds = holds
        }
        guard let fired else { return nil }
        history.move(to: position)
        checkWatches(in: live, after: "the jump to \(history.shown(position))", action: nil, firesBreaks: false)
        output(
            .info(kind: "position", lines: ["at \(history.shown(position)) of \(history.shown(history.entries.count))"])
        )
        flushDebuggingOutput()
        let entry = history.entries[position - 1]
        return ReplayStop(
            message:
                "break: \(fired) became true after #\(history.shown(position)) \(text(of: entry, in: live.model)); the replay to \(history.shown(target)) stopped there",
            index: position)
    }
}
