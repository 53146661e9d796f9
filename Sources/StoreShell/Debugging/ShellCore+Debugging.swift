import Dispatch
import StoreHost
import StoreValue

/// From a bad state to its cause and a test: the commands that find which action did
/// something (`:bisect`, `:why`, `:find`), watch a run (`:watch`, `:break`), time it
/// (`:timer`, `:timeit`) and turn a session into a transcript (`:save-test`).
extension ShellCore {
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
    /// the line succeeded. For an action line it does nothing unless
    /// `DebuggingState.hasWorkAfterAnAction` (actions are not taped here).
    func lineDone(_ line: String, kind: LineKind, succeeded: Bool, origin: LineOrigin, started: UInt64) -> Bool {
        if kind == .action, !debugging.hasWorkAfterAnAction { return succeeded }
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
        guard debugging.checksEachAction, !recorder.isTakingBatch, let entry = history.entries.last else { return }
        let cause =
            "#\(history.shown(history.position)) \(entry.text(in: session.model)) (\(entry.source.rawValue))"
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
            debugging.timing = session.callsAreRoundTrips ? SendPhases(roundTrip: spent) : SendPhases(update: spent)
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
                "break: \(fired) became true after #\(history.shown(position)) \(entry.text(in: live.model)); the replay to \(history.shown(target)) stopped there",
            index: position)
    }
}
