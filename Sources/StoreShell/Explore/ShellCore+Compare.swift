import StoreHost
import StoreValue

/// `:compare MODEL [PATH]...`: the current model's timeline replayed in a fresh store of
/// MODEL (a reference: another model of a loaded plugin), and the two states compared at
/// each PATH or whole. It is how the transcript of `storesh explore --against` pins the
/// difference it found: it fails while the model differs from the reference and passes
/// once it agrees, whatever the earlier states were.
extension ShellCore {
    func compare(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let words = arguments.text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let name = words.first else { return fail("usage: :compare MODEL [PATH]...", origin: origin) }
        let reference: ModelDescriptor
        let comparison: StateComparison
        do throws(PluginError) {
            reference = try host.model(named: name)
        } catch {
            return fail(":compare \(name): \(error.description)", origin: origin)
        }
        do throws(StateComparisonError) {
            comparison = try StateComparison(paths: Array(words.dropFirst()))
        } catch {
            return fail(":compare: path \(error.message)", origin: origin)
        }
        let key = session.model.qualifiedName
        guard let history = recorder.histories[key] else { return fail(noCurrentModel, origin: origin) }
        guard history.dropped == 0 else {
            return fail(
                "the first \(history.dropped) actions were dropped (--history-limit), so the timeline cannot be replayed in \(reference.qualifiedName)",
                origin: origin)
        }
        if let lost = history.unreplayable(from: 0, to: history.position).first {
            return fail(
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
            let fresh = try detachedSession(of: reference)
            let outcome = try fresh.replayBatch(actions)
            if let error = outcome.error {
                return fail(
                    "\(reference.qualifiedName) refused action \(outcome.changed.count + 1) of the timeline (\(actions[outcome.changed.count].0)), which \(key) took: \(error.message)",
                    origin: origin)
            }
            there = try fresh.currentState()
        } catch let error as ShellError {
            return fail(error.message, origin: origin)
        } catch let error as SessionError {
            return fail(error.message, origin: origin)
        } catch {
            return fail("\(error)", origin: origin)
        }
        if let difference = comparison.difference(here, there, identity: session.model.stateDiff) {
            return fail(
                "differs from \(reference.qualifiedName) after the same \(actions.count) action\(actions.count == 1 ? "" : "s"): \(difference)",
                origin: origin)
        }
        return true  // silent, as a passing :check is
    }
}
