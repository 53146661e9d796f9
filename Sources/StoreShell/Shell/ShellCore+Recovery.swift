import StoreHost
import StoreValue

/// The shell's side of worker recovery (`WorkerRecovery` does the work): a session rebuilt
/// from its history (`:crash`, which shows how a worker died, is `Commands/CrashCommand`).
/// `:reload` is the same move on purpose, with the plugin file as it is now.
extension ShellCore: WorkerRecoveryContext {
    func session(of model: String) -> Session? { sessions[model] }

    func rebuildSession(replacing old: Session) throws(ShellError) -> Int {
        let fresh = try freshSession(for: old)
        try restoreHistory(of: fresh)
        return recorder.histories[old.model.qualifiedName]?.position ?? 0
    }

    func show(_ item: ShellOutput) { output(item) }

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
