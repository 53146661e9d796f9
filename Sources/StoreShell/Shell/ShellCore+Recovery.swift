import Dispatch
import StoreHost
import StoreValue

/// Models in worker processes: a worker that crashed, hung or was interrupted is replaced
/// by a new one, and each of its models' sessions is rebuilt from its history (the
/// action that killed the worker is not in it). `:reload` is the same move on purpose,
/// with the plugin file as it is now.
extension ShellCore {
    /// Restarts every worker that is gone and rebuilds its sessions. Run after each line,
    /// and when a worker dies between lines. `announce: false` when the caller goes on to
    /// report what happened itself.
    /// Returns how many workers were lost.
    @discardableResult
    func recoverLostWorkers(announce: Bool = true) -> Int {
        var lost = 0
        for plugin in host.plugins {
            guard let loss = plugin.loss else { continue }
            recover(plugin, after: loss, announce: announce)
            lost += 1
        }
        return lost
    }

    /// `:crash [PLUGIN]`: how the plugin's last worker died, and everything it wrote to
    /// stderr at the end (Swift's crash report, with the backtrace of the crashed thread).
    func showCrash(_ name: String?, origin: LineOrigin) -> Bool {
        guard let plugin = namedPlugin(name, command: "crash", origin: origin) else { return false }
        let pluginName = plugin.name
        guard !plugin.runsInStoreshsProcess else {
            return fail(
                "\(pluginName) runs inside storesh (--in-process): a crash there ends storesh, so there is no report to show",
                origin: origin)
        }
        guard let loss = plugin.lastLoss else {
            output(.info(kind: "crash", lines: ["\(pluginName)'s workers have not crashed"]))
            return true
        }
        let report = loss.lastWords.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        output(
            .report(
                kind: "crash", lines: ["\(pluginName)'s last worker ended: \(loss)"] + report,
                data: .record([
                    "plugin": .string(pluginName), "ended": .string(loss.description),
                    "report": .string(loss.lastWords),
                ])))
        return true
    }

    /// The loaded plugin `:command [PLUGIN]` means: the one named, else the current
    /// model's. Nil after reporting why there is none.
    func namedPlugin(_ name: String?, command: String, origin: LineOrigin) -> LoadedPlugin? {
        guard let pluginName = name ?? current?.model.plugin else {
            fail(
                "\(host.plugins.isEmpty ? "no model is loaded" : "no model is current"); name the plugin: :\(command) PLUGIN",
                origin: origin)
            return nil
        }
        guard let plugin = host.plugins.first(where: { $0.name == pluginName }) else {
            fail("no plugin named '\(pluginName)' is loaded; :plugins lists them", origin: origin)
            return nil
        }
        return plugin
    }

    /// A plugin's worker died while no request was waiting for it: effects were running there.
    func pluginLost(_ plugin: LoadedPlugin, _ loss: WorkerLoss) {
        workerCrashes += 1
        let models = plugin.models.map(\.qualifiedName).filter { sessions[$0] != nil }
        let running = models.flatMap { model in inFlight(in: model).map { (model, $0) } }
        let name = models.first ?? plugin.name
        let doing =
            running.isEmpty
            ? "between actions"
            : "running effect\(running.count == 1 ? "" : "s") "
                + running.map { "#\($0.1.id) \($0.1.label ?? "effect")" }.joined(separator: ", ")
        output(.error(ShellError(SessionError(lost: loss, model: name, doing: doing).message, origin: .prompt)))
        recover(plugin, after: loss)
    }

    private func recover(_ plugin: LoadedPlugin, after loss: WorkerLoss, announce: Bool = true) {
        workerLosses += 1
        failEffects(of: plugin, because: loss)
        let began = DispatchTime.now().uptimeNanoseconds
        defer { lastRecoveryMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6 }
        do {
            guard try plugin.restart() else {
                output(
                    .error(
                        ShellError(
                            "\(plugin.name): the plugin file changed since it was loaded, so its sessions cannot be rebuilt as they were; :reload loads the new one",
                            origin: .prompt)))
                return
            }
        } catch {
            output(
                .error(
                    ShellError(
                        "\(plugin.name): cannot restart its worker: \(error.description); its models are unavailable until :reload works",
                        origin: .prompt)))
            return
        }
        var rebuilt: [String] = []
        for model in plugin.models {
            guard let old = sessions[model.qualifiedName] else { continue }
            do {
                let fresh = try freshSession(for: old)
                try restoreHistory(of: fresh)
                rebuilt.append("\(model.qualifiedName) at \(recorder.histories[model.qualifiedName]?.position ?? 0)")
            } catch {
                output(
                    .error(
                        ShellError(
                            "\(model.qualifiedName): cannot rebuild its state in the new worker: \(error.message)",
                            origin: .prompt)))
            }
        }
        guard announce else { return }
        output(
            .info(
                kind: "recovered",
                lines: [
                    "restarted \(plugin.name)'s worker; rebuilt from the history: "
                        + (rebuilt.isEmpty ? "no sessions" : rebuilt.joined(separator: ", "))
                ]))
    }

    /// Puts a new session where its model's history says it is, without output. A model
    /// that cannot replay starts over, and its history with it.
    func restoreHistory(of session: Session) throws(ShellError) {
        let key = session.model.qualifiedName
        guard let history = recorder.histories[key], history.position > 0 else { return }
        guard session.model.supportsTimeTravel else {
            recorder.histories[key] = recorder.newHistory(initial: session.state)
            output(
                .info(
                    kind: "recovered",
                    lines: [
                        "\(key) cannot replay its history (its plugin has no replay entry point): it starts over from its initial state"
                    ]))
            return
        }
        try rebuild(session, to: history.position, report: false)
    }

    /// Effects in flight in a dead worker fail with it.
    private func failEffects(of plugin: LoadedPlugin, because loss: WorkerLoss) {
        for model in plugin.models {
            for effect in inFlight(in: model.qualifiedName) {
                let record = EffectEventRecord(
                    kind: .failed, effect: effect.id, label: effect.label, action: nil,
                    message: "its worker died (\(loss))", elapsedMilliseconds: 0)
                sessions[model.qualifiedName]?.receive(record)
            }
        }
    }
}
