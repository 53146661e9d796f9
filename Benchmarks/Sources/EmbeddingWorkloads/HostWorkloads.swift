import Dispatch
import StoreHost
import StoreShell
import StoreValue

/// Workloads that drive example plugins through the host, as storesh does.
@MainActor
package enum HostWorkloads {
    /// Nanoseconds to load `plugin` into a new host (dlopen, checks, registration).
    package static func load(_ plugin: String, from directory: String) throws -> UInt64 {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        let start = DispatchTime.now().uptimeNanoseconds
        try host.load(plugin)
        return DispatchTime.now().uptimeNanoseconds - start
    }

    /// How an action reaches the plugin.
    package enum Path: String, Sendable {
        /// The typed entry point, called with libffi; state not re-read.
        case typed
        /// `dispatch` with a value-tree argument list; state not re-read.
        case valueTree
        /// Typed, then the state re-read and diffed, as the shell does after each action.
        case observed
    }

    /// `n` sends of `action` (no arguments) into a new session of `model`; returns the
    /// final count, read from the state.
    package static func send(
        _ n: Int, action name: String, model: String, plugin: String, from directory: String, path: Path
    ) throws -> Int {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        try host.load(plugin)
        let session = try Session(model: host.model(named: model), host: host)
        guard let action = session.model.action(named: name) else { return -1 }
        for _ in 0..<n {
            switch path {
            case .typed: _ = try session.send(action, arguments: [], observe: false)
            case .valueTree: _ = try session.sendThroughValueTree(action, arguments: [])
            case .observed: _ = try session.send(action, arguments: [])
            }
        }
        guard case .int(let count)? = session.state["count"] else { return -1 }
        return Int(count)
    }
}
