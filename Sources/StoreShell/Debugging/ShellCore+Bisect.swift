import StoreHost

/// `:bisect`'s context: the last failed action `:save-test` keeps, and probe stores.
extension ShellCore: BisectContext {
    var lastFailure: FailedAction? { debugging.lastFailure }

    /// A store of `model` in a host and worker of their own, so a crash there leaves the
    /// session's worker alone.
    func probeSession(of model: ModelDescriptor) throws(ShellError) -> Session {
        guard let plugin = host.plugins.first(where: { $0.name == model.plugin }) else {
            throw ShellError("\(model.plugin) is not loaded", origin: .prompt)
        }
        let probe = host.sibling()
        probe.isolation = .workers
        probe.workerOutput = { _ in }
        probe.log = { _, _ in }
        do {
            try probe.load(plugin.path, as: plugin.loadedAs)
            let session = try Session(model: probe.model(named: model.qualifiedName), host: probe)
            try stubs.apply(to: session)
            return session
        } catch let error as PluginError {
            throw ShellError("cannot start a worker to replay the crash in: \(error.description)", origin: .prompt)
        } catch let error as SessionError {
            throw ShellError("cannot start a worker to replay the crash in: \(error.message)", origin: .prompt)
        } catch {
            throw ShellError("cannot start a worker to replay the crash in: \(error)", origin: .prompt)
        }
    }
}
