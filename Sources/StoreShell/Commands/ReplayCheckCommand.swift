import StoreHost
import StoreValue

/// `:replay-check`: the store's first promise, checked — the current model's timeline,
/// replayed in a fresh store, must end in the state the session holds. `storesh explore`
/// pins a model that is not deterministic with it.
struct ReplayCheckCommand: ShellCommand {
    let name = "replay-check"
    let usage = ":replay-check"
    let summary =
        "replay the timeline in a fresh store; an error when it ends in another state (the model is not deterministic); silent when it passes"
    let detail = [
        "The actions are replayed as time travel replays them (updates only, effects dropped; an effect's actions are in the timeline). The session is not changed."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        replayCheck(origin: origin, in: core)
    }

    /// Replays the current model's timeline in a fresh store and compares the end states.
    @MainActor private func replayCheck(origin: LineOrigin, in context: some CommandContext) -> Bool {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let key = session.model.qualifiedName
        guard let history = context.recorder.histories[key] else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        guard session.model.supportsTimeTravel else {
            return context.fail("\(key) cannot replay: its plugin has no replay entry point", origin: origin)
        }
        guard history.dropped == 0 else {
            return context.fail(
                "the first \(history.dropped) actions were dropped (--history-limit), so the timeline cannot be replayed from the start",
                origin: origin)
        }
        // A replay cannot give back what such an effect did: the states would differ with
        // the model as deterministic as ever.
        if let lost = history.unreplayable(from: 0, to: history.position).first {
            return context.fail(
                "cannot check the timeline: after action \(history.shown(lost.position)) \(lost.note), so no replay ends in this state",
                origin: origin)
        }
        let here: Value
        let replayed: Value
        do {
            here = try session.currentState()
            let fresh = try context.detachedSession(of: session.model)
            try history.replay(into: fresh, from: 0, to: history.position)
            replayed = try fresh.currentState()
        } catch let error as ShellError {
            return context.fail(error.message, origin: origin)
        } catch let error as ReplayStop {
            return context.fail(error.message, origin: origin)
        } catch let error as SessionError {
            return context.fail(error.message, origin: origin)
        } catch {
            return context.fail("\(error)", origin: origin)
        }
        guard here == replayed else {
            let change = session.model.stateDiff.changes(from: here, to: replayed).first
            let detail =
                change.map {
                    "\($0.path) is \($0.old?.compact ?? "nothing") here, \($0.new?.compact ?? "nothing") replayed"
                } ?? "the states differ"
            return context.fail(
                "not deterministic: the \(history.position) action\(history.position == 1 ? "" : "s") of the timeline, replayed in a fresh store, end in another state: \(detail)",
                origin: origin)
        }
        return true  // silent, as a passing :expect is
    }
}
