/// A plugin's process, as the shell needs it without reaching for the worker: how it
/// ended, starting it again, and a new build taking over (`:reload`). A plugin that runs
/// in storesh's own process (`--in-process`) has none: nothing to lose, restart or reload.
extension LoadedPlugin {
    /// Whether it runs in storesh's own process, which a crash of it would end, and where
    /// a library cannot be loaded again (said in `:crash`'s and `:reload`'s refusals).
    package var runsInStoreshsProcess: Bool { worker == nil }

    /// How its process ended, while that process has not been replaced; nil while it runs.
    @MainActor package var loss: WorkerLoss? { worker?.process?.loss }

    /// How the last of its processes that ended did, with its crash report (`:crash`).
    @MainActor package var lastLoss: WorkerLoss? { worker.flatMap { $0.lastLoss ?? $0.process?.loss } }

    /// Milliseconds its process took to start and register the models; nil in storesh's.
    @MainActor package var startMilliseconds: Double? { worker?.startMilliseconds }

    /// The process it runs in now, to tell whether it was replaced meanwhile.
    @MainActor package var processIdentity: ObjectIdentifier? { worker?.process.map(ObjectIdentifier.init) }

    /// Starts its process again on the same file, and times it (`WorkerRecovery.lastMilliseconds`
    /// is the caller's). False when the file now registers something else, so its models'
    /// sessions cannot be rebuilt as they were; throws when the process cannot start.
    @MainActor package func restart() throws(PluginError) -> Bool {
        guard let worker else { return true }
        let before = worker.registered
        return try worker.start() == before
    }

    /// The plugin as its file is now, in a process of its own; this one goes on until
    /// `PluginHost.adopt(_:replacing:)`. Throws when it cannot load, and for a plugin in
    /// storesh's own process.
    @MainActor package func startAnew(in host: PluginHost) throws(PluginError) -> PluginReplacement {
        guard worker != nil else {
            throw .inWorker(message: "\(name) runs inside storesh, where a library cannot be loaded again")
        }
        let fresh = WorkerPlugin(host: host, path: path, alias: loadedAs)
        let registered = try fresh.start()
        return PluginReplacement(
            name: loadedAs ?? registered.name, registeredName: registered.name, version: registered.version,
            toolchain: registered.toolchain, resolvedPath: registered.resolvedPath,
            models: fresh.descriptors(of: registered), worker: fresh)
    }
}

/// A plugin's file loaded anew in a process of its own, ready to take over from the
/// plugin it was loaded for (`PluginHost.adopt`), or to be dropped.
@MainActor
package struct PluginReplacement {
    package let name: String
    /// The name the file registers itself by (`name` is the one it was loaded as).
    package let registeredName: String
    package let version: String
    package let toolchain: String?
    /// The file as the worker resolved it.
    package let resolvedPath: String
    package let models: [ModelDescriptor]
    let worker: WorkerPlugin
}

extension PluginHost {
    /// `replacement` takes over from `old`: the host lists it in `old`'s place, and
    /// `old`'s process is stopped.
    package func adopt(_ replacement: PluginReplacement, replacing old: LoadedPlugin) {
        replace(
            LoadedPlugin(
                name: replacement.name, version: replacement.version, path: old.path,
                toolchain: replacement.toolchain, models: replacement.models, context: nil,
                worker: replacement.worker, registeredName: replacement.registeredName))
        old.worker?.process?.stop()
    }

    /// A plugin's worker died while nobody was waiting for it: tells `pluginLost`.
    func workerDied(_ worker: WorkerPlugin, _ loss: WorkerLoss) {
        guard let plugin = plugins.first(where: { $0.worker === worker }) else { return }
        pluginLost?(plugin, loss)
    }
}
