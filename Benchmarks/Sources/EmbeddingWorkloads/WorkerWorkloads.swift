import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreValue

/// Models in worker processes: what isolation costs, beside the same work in process.
@MainActor
package enum WorkerWorkloads {
    /// Points the host at the `storesh-worker` built beside the plugins.
    package static func useWorker(from directory: String) {
        setenv("STORESH_WORKER", directory + "/storesh-worker", 1)
    }

    /// Milliseconds from starting a worker to the plugin registered in it (the best of
    /// `rounds` fresh workers).
    package static func startUp(_ plugin: String, from directory: String, rounds: Int) throws -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
            host.isolation = .workers
            let loaded = try host.load(plugin)
            best = min(best, loaded.startMilliseconds ?? .infinity)
        }
        return best
    }

    /// Seconds for `n` observed sends (the state read back and diffed, as at the prompt)
    /// of `increment` to Counter, in a worker or in process.
    package static func observedSends(_ n: Int, from directory: String, isolation: PluginHost.Isolation) throws
        -> Double
    {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        host.isolation = isolation
        try host.load("Counter")
        let session = try Session(model: host.model(named: "counter"), host: host)
        let action = session.model.action(named: "increment")!
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<n { _ = try session.send(action, arguments: []) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(session.state["count"] == .int(Int64(n)))
        return seconds
    }

    /// A crash after `history` actions: milliseconds from the crashing action sent to its
    /// error reported (the worker's own crash report included), and of that the recovery
    /// (a new worker, the store made again, the state rebuilt from the history).
    package static func crashRecovery(history: Int, from directory: String) async throws -> (
        total: Double, recovery: Double
    ) {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        host.isolation = .workers
        var errors: [String] = []
        let core = ShellCore(host: host, showDiff: false, reportActions: false) { output in
            if case .error(let error) = output { errors.append(error.message) }
        }
        try host.load("Faulty")
        try core.use("faulty")
        _ = core.executeActions(Array(repeating: ("add 1", LineOrigin.prompt), count: history), stopAtFailure: true)
        let start = DispatchTime.now().uptimeNanoseconds
        _ = await core.execute("overflow")
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let count = try core.current?.currentState()["count"]
        guard errors.count == 1, errors[0].contains("crashed"), let recovery = core.recovery.lastMilliseconds,
            count == .int(Int64(history))
        else {
            throw ShellWorkloads.Failure(
                message:
                    "the crash was not recovered from: \(errors), recovery \(String(describing: core.recovery.lastMilliseconds)), count \(String(describing: count))"
            )
        }
        return (total, recovery)
    }
}
