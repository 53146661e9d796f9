import ObservableStore
import StorePlugin

/// An Erlang-style process registry: processes are spawned and killed, a live process may
/// be registered under a name (one name per process, one process per name), and a name is
/// freed when its process dies. The bug: a new process gets the pid "count of the living
/// plus one", which is a living process's pid once a lower one has died, and the registry
/// then keeps the name of a killed process while its twin lives on
/// (`--after kill '!contains(registry[*], args.pid)'`, six steps; against the fixed build,
/// four). The fixed build gives the lowest pid not in use.
struct ProcessRegistry: ModelProtocol, Codable {
    /// The living processes' pids, oldest first.
    var alive: [Int] = []
    /// Name to pid.
    var registry: [String: Int] = [:]

    @PluginActions
    enum Action: Codable, Sendable {
        /// Starts a process.
        case spawn
        /// Registers a living process under a free name.
        /// - Parameter name: the name
        /// - Parameter pid: the process
        case register(name: String, pid: Int)
        /// Frees a name.
        case unregister(name: String)
        /// Kills a process; names of processes no longer alive are freed.
        case kill(pid: Int)
    }

    static func update(state: ProcessRegistry, action: Action, environment: Build) -> Update<ProcessRegistry> {
        var next = state
        switch action {
        case .spawn:
            if environment == .fixed {
                next.alive.append((1...).first { !next.alive.contains($0) } ?? 1)
            } else {
                next.alive.append(next.alive.count + 1)
            }
        case .register(let name, let pid):
            guard next.alive.contains(pid), next.registry[name] == nil, !next.registry.values.contains(pid) else {
                break
            }
            next.registry[name] = pid
        case .unregister(let name):
            next.registry[name] = nil
        case .kill(let pid):
            guard let index = next.alive.firstIndex(of: pid) else { break }
            next.alive.remove(at: index)
            next.registry = next.registry.filter { next.alive.contains($0.value) }
        }
        return Update(state: next)
    }
}

extension ProcessRegistry {
    /// The registry's property in Swift, beside the model rather than in it (the plugin's
    /// glue declares it, `PluginModel.postcondition`): explore checks it with no flags,
    /// and its transcript pins it with `:check-model`. Six steps.
    static let killFreesTheName = "a killed process keeps no name"

    @MainActor static func killFreesItsName(old: ProcessRegistry, action: Action, new: ProcessRegistry) -> Bool {
        guard case .kill(let pid) = action, old.alive.contains(pid) else { return true }
        return !new.registry.values.contains(pid)
    }
}
