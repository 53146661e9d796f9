import StoreHost
import StoreValue

/// The shell's side of worker recovery (`WorkerRecovery` does the work): a session rebuilt
/// from its history, and `:crash`.
/// `:reload` is the same move on purpose, with the plugin file as it is now.
extension ShellCore: WorkerRecoveryContext {
    func session(of model: String) -> Session? { sessions[model] }

    func rebuildSession(replacing old: Session) throws(ShellError) -> Int {
        let fresh = try freshSession(for: old)
        try restoreHistory(of: fresh)
        return recorder.histories[old.model.qualifiedName]?.position ?? 0
    }

    func show(_ item: ShellOutput) { output(item) }

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

    /// Puts a new session where its model's history says it is, without output. A model
    /// that cannot replay starts over, and its history with it.
    private func restoreHistory(of session: Session) throws(ShellError) {
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
}
