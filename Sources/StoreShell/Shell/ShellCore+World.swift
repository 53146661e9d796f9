import StoreHost

extension ShellCore {
    /// Says, once per plugin and kind of call, what a model run in process did that the
    /// in-process world cannot put on the session's clock.
    func reportUncontrolledWorld() {
        guard let world = PluginHost.inProcessWorld, world.clock === host.clock else { return }
        for (plugin, call) in world.takeUncontrolled() where worldWarnings.insert("\(plugin): \(call)").inserted {
            output(
                .info(
                    kind: "world",
                    lines: [
                        "note: in process, storesh cannot put \(call) of plugin \(plugin) on the session's clock: it runs in real time, so what it does can differ from run to run. Run the model in a worker (without --in-process) for a deterministic world."
                    ]))
        }
    }
}
