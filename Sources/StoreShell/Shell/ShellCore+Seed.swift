import StoreHost
import StoreValue

/// `:seed`: where the models' deterministic world draws its entropy from
/// (docs/decisions/0002-a-deterministic-world-in-the-worker.md).
extension ShellCore {
    /// `:seed` says the seed and whether the world is on; `:seed N` restarts every
    /// worker's entropy from N (and later workers start from it).
    func seed(_ arguments: CommandArguments, origin: LineOrigin) -> Bool {
        let args = arguments.words
        guard args.count <= 1 else {
            return fail("usage: :seed [N] (N from 0 to 18446744073709551615)", origin: origin)
        }
        guard let text = args.first else {
            output(
                .report(
                    kind: "seed", lines: ["seed \(host.seed) (\(worldDescription))"],
                    data: .record([
                        "seed": .string(String(host.seed)), "world": .string(worldName),
                    ])))
            return true
        }
        guard let seed = UInt64(text) else {
            return fail(
                "'\(text)' is not a seed; write a whole number from 0 to 18446744073709551615", origin: origin,
                in: arguments, at: 0)
        }
        host.reseed(seed)
        return true
    }

    /// The world models see, in a word: `deterministic`, `real` or `in-process`.
    var worldName: String {
        guard host.worldIsOn else { return "real" }
        return host.isolation == .workers ? "deterministic" : "in-process"
    }

    private var worldDescription: String {
        switch worldName {
        case "deterministic":
            "models in workers see the virtual clock, and draw ids and random numbers from the seed"
        case "in-process":
            "models run in process: storesh says which of their clock and entropy calls it cannot control"
        default:
            host.clock.isVirtual
                ? "--real-world: models see real time and real entropy; only the host's clock is virtual"
                : "the clock is real: models see real time and real entropy"
        }
    }
}

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
