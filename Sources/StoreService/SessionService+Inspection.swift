import StoreHost
import StoreShell
import StoreValue

/// Reads for a client that shows a session rather than drives it (the inspector's page):
/// what is loaded and where each history stands, a page of a history, and the state after
/// any action with the diff it made. Each is a JSON text; none runs a shell line, so a read
/// never waits for an operation and never moves the session.
extension SessionService {
    /// The session at a glance: `models` (each `name`, `current`, `position` and `count`
    /// of its history), `current` (the current model's name), `clock` (milliseconds on the
    /// session's clock), `timeline` (how many timeline entries there have been) and `busy`.
    package func summaryJSON() -> String {
        let currentName = core.current?.model.qualifiedName
        let models = core.host.models.map { model in
            let history = core.recorder.histories[model.qualifiedName]
            let page = history == nil ? nil : core.historyPage(of: model.qualifiedName, from: 1, count: 0)
            return JSON.object([
                ("name", JSON.string(model.qualifiedName)),
                ("current", model.qualifiedName == currentName ? "true" : "false"),
                ("position", page.flatMap { $0["position"] }.map(JSON.value) ?? "0"),
                ("count", page.flatMap { $0["count"] }.map(JSON.value) ?? "0"),
            ])
        }
        return JSON.object([
            ("models", JSON.array(models)), ("current", currentName.map(JSON.string)),
            ("clock", String(core.host.clock.now / 1_000_000)), ("timeline", String(timeline.count)),
            ("busy", isBusy ? "true" : "false"),
        ])
    }

    /// Actions `from` to `from + count - 1` of `model`'s history (counting from 1; at most
    /// 1,000), as `:log`'s JSON record; an `error` object when the model has no history.
    package func historyJSON(model: String, from: Int, count: Int) -> String {
        guard let page = core.historyPage(of: model, from: from, count: count) else {
            return JSON.object([("error", JSON.string("no model \(model) with a history is loaded"))])
        }
        return JSON.value(page)
    }

    /// The state of `model` after action `number` (0: the start), with `position` (where
    /// that is, clipped to the history) and `diff` (the changes that action made, as an
    /// action's `diff` lists them); an `error` object when it cannot be worked out.
    package func stateJSON(model: String, after number: Int) -> String {
        do throws(ShellError) {
            let past = try core.pastState(of: model, after: number)
            return JSON.object([
                ("model", JSON.string(model)), ("position", String(past.position)),
                ("diff", JSON.value(.array(past.diff))), ("state", JSON.value(past.state)),
                (
                    "lacking",
                    JSON.value(
                        .array(
                            past.lacking.map {
                                .record(["after": .int(Int64($0.position)), "note": .string($0.note)])
                            }))
                ),
            ])
        } catch {
            return JSON.object([("error", JSON.string(error.message))])
        }
    }
}
