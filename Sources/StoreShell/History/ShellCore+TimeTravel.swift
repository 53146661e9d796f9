import StoreHost
import StoreValue

/// Where a jump in the history goes: `:goto N`, `:undo`, `:redo`, and the operations that
/// do them with their arguments as values (MCP, the inspector).
package enum JumpTarget: Sendable, Equatable {
    /// Action N as the user counts them, dropped actions included (0: before the first).
    case position(Int)
    /// A step from where the history is: -1 back (`:undo`), +1 forward (`:redo`).
    case step(Int)
}

extension ShellCore {
    /// Jumps in the current model's history to `target`: the update function replays the
    /// actions up to it, or (`withEffects`) a new store is sent the typed and scripted ones
    /// again so that their effects run anew. A target outside the history is an error
    /// that says what the history holds.
    package func jump(to target: JumpTarget, withEffects: Bool, origin: LineOrigin) -> Bool {
        guard let session = current, let history = recorder.histories[session.model.qualifiedName] else {
            return fail(noCurrentModel, origin: origin)
        }
        let relative: Bool
        let wantedShown: Int
        switch target {
        case .position(let position): (relative, wantedShown) = (false, position)
        case .step(let step): (relative, wantedShown) = (true, history.shown(history.position) + step)
        }
        let wanted = history.stored(wantedShown)
        guard (0...history.entries.count).contains(wanted) else {
            let last = history.shown(history.entries.count)
            if relative {
                if wanted < 0, history.dropped > 0 {
                    return fail(
                        "nothing to undo: the actions before #\(history.dropped + 1) were dropped (--history-limit)",
                        origin: origin)
                }
                return fail(
                    wanted < 0
                        ? "nothing to undo: at the start of the history"
                        : "nothing to redo: at the last action (\(history.shown(history.position)) of \(last))",
                    origin: origin)
            }
            if wanted < 0, wantedShown >= 0 {
                return fail(
                    "action \(wantedShown) was dropped to keep the history within --history-limit \(history.limit ?? 0); the history has \(history.dropped) to \(last)",
                    origin: origin)
            }
            return fail(
                history.entries.isEmpty && history.dropped == 0
                    ? "there is no history yet: :goto 0 is the only place to go"
                    : "there is no action \(wantedShown); the history has \(history.dropped) to \(last)", origin: origin
            )
        }
        do throws(ShellError) {
            if withEffects {
                try resend(session, upTo: wanted)
            } else {
                guard journalAhead(.goto(model: session.model.qualifiedName, position: wantedShown), origin: origin)
                else { return false }
                let before = history.position
                do {
                    try rebuild(session, to: wanted, interruptible: true)
                } catch {
                    retractJournal()
                    // Interrupted part way: the session is at a position of its own now.
                    if history.position != before {
                        journalDone(
                            .goto(model: session.model.qualifiedName, position: history.shown(history.position)))
                    }
                    throw error
                }
            }
            return true
        } catch {
            return fail(error.message, origin: origin)
        }
    }

    /// `:goto N --with-effects`: a new store, then the typed and scripted actions among the
    /// first N sent again, so their effects run and send their actions anew. The history
    /// becomes those actions, plus whatever the effects send from now on.
    func resend(_ session: Session, upTo target: Int) throws(ShellError) {
        let key = session.model.qualifiedName
        guard let old = recorder.histories[key] else { return }
        guard old.dropped == 0 else {
            throw ShellError(
                "--with-effects sends the actions again from the start, but the first \(old.dropped) were dropped (--history-limit)",
                origin: .prompt)
        }
        let before = session.state
        let kept = old.entries.prefix(target).filter { $0.source != .effect && !$0.skipped }
        try recorder.writeAhead(.reset)
        let live = try freshSession(for: session, cancelling: true)
        recorder.histories[key] = recorder.newHistory(initial: live.state)
        for entry in kept {
            let action = live.model.actions[Int(entry.action)]
            do {
                let result = try live.send(action, arguments: entry.arguments, observe: false)
                record(action, entry.arguments, source: entry.source, changed: result.stateChanged, in: live)
                journalDone(.action(model: key, source: entry.source, text: action.text(with: entry.arguments)))
            } catch {
                throw ShellError(error.message, origin: .prompt)
            }
        }
        let changes = live.model.stateDiff.changes(from: before, to: live.state)
        output(
            .info(
                kind: "position",
                lines: [
                    "sent \(kept.count) action\(kept.count == 1 ? "" : "s") again with their effects; at \(kept.count) of \(kept.count)"
                ] + (showDiff ? changes.map { "  " + $0.description } : [])))
    }

    /// Recomputes the state after `target` actions: from the nearest snapshot (or a new
    /// store), replaying the actions in between that are not skipped. Reports the diff.
    /// `interruptible`: Ctrl-C stops the replay, leaving the session at the action it
    /// reached (jumps only: a skip must replay to its end to mean what it says).
    func rebuild(_ session: Session, to target: Int, interruptible: Bool = false, report: Bool = true)
        throws(ShellError)
    {
        let key = session.model.qualifiedName
        guard let history = recorder.histories[key] else { return }
        guard session.model.supportsTimeTravel else {
            throw ShellError("\(key) cannot travel in time: its plugin has no replay entry point", origin: .prompt)
        }
        let before = session.state
        var start = history.snapshot(atOrBefore: target)
        var live = session
        // Nothing is recorded until the jump is done: the replayed actions are in the history.
        try recorder.replaying { () throws(ShellError) in
            do {
                // A plugin that cannot restore this snapshot (its restore entry point says so)
                // is replayed from a new store instead: slower, never wrong.
                if (start.index == 0 && history.dropped == 0) || (try? session.restore(start.state)) != true {
                    guard history.dropped == 0 else {
                        throw ShellError(
                            "\(key) cannot restore the state after action \(history.shown(start.index)), and the actions before it were dropped (--history-limit)",
                            origin: .prompt)
                    }
                    live = try freshSession(for: session, cancelling: true)
                    start = (0, history.initial)
                }
                do throws(ReplayStop) {
                    try replayEntries(
                        of: history, into: live, from: start.index, to: target, interruptible: interruptible)
                } catch {
                    throw ShellError(error.message, origin: .prompt)
                }
                // Said every time, so a rebuilt state never differs from the one before in silence.
                for lost in history.unreplayable(from: start.index, to: target) {
                    output(
                        .error(
                            ShellError(
                                "\(key): the state rebuilt at action \(history.shown(target)) lacks what an effect did after action \(history.shown(lost.position)): \(lost.note)",
                                origin: .prompt)))
                }
            } catch let error as ShellError {
                throw error
            } catch let error as SessionError {
                throw ShellError(error.message, origin: .prompt)
            } catch {
                throw ShellError("\(error)", origin: .prompt)
            }
            history.move(to: target)
            if debugging.checksEachAction {
                checkWatches(in: live, after: "the jump to \(history.shown(target))", action: nil, firesBreaks: false)
            }
            guard report else { return }
            let changes = live.model.stateDiff.changes(from: before, to: live.state)
            output(
                .info(
                    kind: "position",
                    lines: ["at \(history.shown(target)) of \(history.shown(history.entries.count))"]
                        + (showDiff ? changes.map { "  " + $0.description } : [])))
            flushDebuggingOutput()
        }
    }

    /// Replays `history`'s actions `start..<target` into `live` for a jump
    /// (`History.replay`). `interruptible`: Ctrl-C stops it at the end of a chunk, and with
    /// breakpoints set it goes one action at a time, each state looked at; either stops
    /// with the history moved there.
    func replayEntries(
        of history: History, into live: Session, from start: Int, to target: Int, interruptible: Bool
    ) throws(ReplayStop) {
        var breaks = interruptible ? breakpointStates(of: live, in: live.state) : []
        try history.replay(into: live, from: start, to: target, stepByStep: !breaks.isEmpty) {
            (reached: Int) throws(ReplayStop) in
            if !breaks.isEmpty,
                let stop = breakpointStop(&breaks, in: live, history: history, at: reached, target: target)
            {
                throw stop
            }
            guard interruptible, reached < target, takeInterrupt() else { return }
            // Stop where the replay got to: that state is consistent.
            history.move(to: reached)
            output(
                .info(
                    kind: "position",
                    lines: ["at \(history.shown(reached)) of \(history.shown(history.entries.count))"]))
            throw ReplayStop(
                message:
                    "interrupted: the replay stopped at action \(history.shown(reached)) of the \(history.shown(target)) wanted",
                index: reached)
        }
    }
}
