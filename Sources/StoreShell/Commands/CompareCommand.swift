import StoreHost
import StoreValue

/// `:compare MODEL [PATH]...`: the current model's timeline replayed in a fresh store of
/// MODEL (a reference: another model of a loaded plugin), and the two states compared at
/// each PATH or whole. It is how the transcript of `storesh explore --against` pins the
/// difference it found: it fails while the model differs from the reference and passes
/// once it agrees, whatever the earlier states were.
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
        compare(arguments, origin: origin, in: core)
    }

    /// Replays the timeline in a fresh store of the reference and compares the states.
    @MainActor private func compare(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let words = arguments.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else { return context.fail("usage: :compare MODEL [PATH]...", origin: origin) }
        let reference: ModelDescriptor
        let comparison: StateComparison
        do throws(PluginError) {
            reference = try context.host.model(named: name)
        } catch {
            return context.fail(":compare \(name): \(error.description)", origin: origin)
        }
        do throws(StateComparisonError) {
            comparison = try StateComparison(paths: Array(words.dropFirst()))
        } catch {
            return context.fail(":compare: path \(error.message)", origin: origin)
        }
        let key = session.model.qualifiedName
        guard let history = context.recorder.histories[key] else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        guard history.dropped == 0 else {
            return context.fail(
                "the first \(history.dropped) actions were dropped (--history-limit), so the timeline cannot be replayed in \(reference.qualifiedName)",
                origin: origin)
        }
        if let lost = history.unreplayable(from: 0, to: history.position).first {
            return context.fail(
                "cannot compare: after action \(history.shown(lost.position)) \(lost.note), so no replay ends in this state",
                origin: origin)
        }
        // By name: the reference's actions may be in another order, or fewer.
        let actions = history.entries.prefix(history.position).filter { !$0.skipped }.map {
            (session.model.actions[Int($0.action)].name, $0.arguments)
        }
        let here: Value
        let there: Value
        do {
            here = try session.currentState()
            let fresh = try context.detachedSession(of: reference)
            let outcome = try fresh.replayBatch(actions)
            if let error = outcome.error {
                return context.fail(
                    "\(reference.qualifiedName) refused action \(outcome.changed.count + 1) of the timeline (\(actions[outcome.changed.count].0)), which \(key) took: \(error.message)",
                    origin: origin)
            }
            there = try fresh.currentState()
        } catch let error as ShellError {
            return context.fail(error.message, origin: origin)
        } catch let error as SessionError {
            return context.fail(error.message, origin: origin)
        } catch {
            return context.fail("\(error)", origin: origin)
        }
        if let difference = comparison.difference(here, there, identity: session.model.stateDiff) {
            return context.fail(
                "differs from \(reference.qualifiedName) after the same \(actions.count) action\(actions.count == 1 ? "" : "s"): \(difference)",
                origin: origin)
        }
        return true  // silent, as a passing :check is
    }
}
