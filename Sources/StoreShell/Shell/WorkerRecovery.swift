import Dispatch
import StoreHost

/// What `WorkerRecovery` needs from the shell while it replaces a worker, and nothing
/// more: the sessions, the effects in flight, a session rebuilt from its history, and
/// somewhere to say what happened. `ShellCore` is the one conformer.
@MainActor
protocol WorkerRecoveryContext: AnyObject {
    /// The session of the model named `model` (`plugin.model`), if it has one.
    func session(of model: String) -> Session?
    /// The effects `model` has in flight, by id.
    func inFlight(in model: String) -> [EffectLedger.Running]
    /// A new session in place of `old`, rebuilt to where its model's history says it is,
    /// without output. Answers that position.
    func rebuildSession(replacing old: Session) throws(ShellError) -> Int
    /// Shows `item` at once, never held back behind an action's result (recovery runs
    /// after a line, between batches, or when a worker dies while nothing waits for it).
    func show(_ item: ShellOutput)
}

/// Models in worker processes: a worker that crashed, hung or was interrupted is replaced
/// by a new one on the same file, and each of its models' sessions is rebuilt from its
/// history (the action that killed the worker is not in it). The effects that were running
/// there fail with it. Keeps the counts a run's exit status and `explore` read.
@MainActor
package final class WorkerRecovery {
    /// Workers that died between lines (an effect crashed them): a run with any must not
    /// exit 0, though no line failed.
    package private(set) var crashes = 0
    /// Workers lost for any reason (a crash in an action or between actions, a hang, an
    /// interrupt), each counted once, when it is replaced.
    package private(set) var losses = 0
    /// How long the last recovery took (restart and rebuild), for benchmarks; not printed,
    /// so runs stay repeatable.
    package private(set) var lastMilliseconds: Double?

    init() {}

    /// Replaces every lost worker among `plugins`' and rebuilds its sessions. `announce:
    /// false` when the caller goes on to report what happened itself. Answers how many
    /// workers were lost.
    func recoverLost(among plugins: [LoadedPlugin], in context: some WorkerRecoveryContext, announce: Bool) -> Int {
        var lost = 0
        for plugin in plugins {
            guard let loss = plugin.loss else { continue }
            recover(plugin, after: loss, in: context, announce: announce)
            lost += 1
        }
        return lost
    }

    /// `plugin`'s worker died while no request was waiting for it: effects were running
    /// there. Says which, then replaces the worker.
    func lostBetweenLines(_ plugin: LoadedPlugin, _ loss: WorkerLoss, in context: some WorkerRecoveryContext) {
        crashes += 1
        let models = plugin.models.map(\.qualifiedName).filter { context.session(of: $0) != nil }
        let running = models.flatMap { model in context.inFlight(in: model).map { (model, $0) } }
        let name = models.first ?? plugin.name
        let doing =
            running.isEmpty
            ? "between actions"
            : "running effect\(running.count == 1 ? "" : "s") "
                + running.map { "#\($0.1.id) \($0.1.label ?? "effect")" }.joined(separator: ", ")
        context.show(.error(ShellError(SessionError(lost: loss, model: name, doing: doing).message, origin: .prompt)))
        recover(plugin, after: loss, in: context, announce: true)
    }

    private func recover(
        _ plugin: LoadedPlugin, after loss: WorkerLoss, in context: some WorkerRecoveryContext, announce: Bool
    ) {
        losses += 1
        failEffects(of: plugin, because: loss, in: context)
        let began = DispatchTime.now().uptimeNanoseconds
        defer { lastMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6 }
        do {
            guard try plugin.restart() else {
                context.show(
                    .error(
                        ShellError(
                            "\(plugin.name): the plugin file changed since it was loaded, so its sessions cannot be rebuilt as they were; :reload loads the new one",
                            origin: .prompt)))
                return
            }
        } catch {
            context.show(
                .error(
                    ShellError(
                        "\(plugin.name): cannot restart its worker: \(error.description); its models are unavailable until :reload works",
                        origin: .prompt)))
            return
        }
        var rebuilt: [String] = []
        for model in plugin.models {
            guard let old = context.session(of: model.qualifiedName) else { continue }
            do {
                let position = try context.rebuildSession(replacing: old)
                rebuilt.append("\(model.qualifiedName) at \(position)")
            } catch {
                context.show(
                    .error(
                        ShellError(
                            "\(model.qualifiedName): cannot rebuild its state in the new worker: \(error.message)",
                            origin: .prompt)))
            }
        }
        guard announce else { return }
        context.show(
            .info(
                kind: "recovered",
                lines: [
                    "restarted \(plugin.name)'s worker; rebuilt from the history: "
                        + (rebuilt.isEmpty ? "no sessions" : rebuilt.joined(separator: ", "))
                ]))
    }

    /// Effects in flight in a dead worker fail with it.
    private func failEffects(of plugin: LoadedPlugin, because loss: WorkerLoss, in context: some WorkerRecoveryContext)
    {
        for model in plugin.models {
            for effect in context.inFlight(in: model.qualifiedName) {
                let record = EffectEventRecord(
                    kind: .failed, effect: effect.id, label: effect.label, action: nil,
                    message: "its worker died (\(loss))", elapsedMilliseconds: 0)
                context.session(of: model.qualifiedName)?.receive(record)
            }
        }
    }
}
