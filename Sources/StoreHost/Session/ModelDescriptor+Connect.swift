import CStorePlugin

extension ModelDescriptor {
    /// A connection to a new store of this model, where the model runs: scripted in
    /// memory, in its plugin's worker process, or in this process. The one place that
    /// decides; `Session` takes whichever it is given.
    @MainActor
    func connect(host: PluginHost, services overrides: [String: sp_typed_entry]) -> any StoreConnection {
        if let scripted { return scripted() }
        if let worker { return WorkerConnection(plugin: worker, model: self) }
        return InProcessConnection(model: self, host: host, services: overrides)
    }
}
