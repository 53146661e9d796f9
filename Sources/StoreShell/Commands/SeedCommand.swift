import StoreHost
import StoreValue

/// `:seed [N]`: the seed the models' deterministic world draws its entropy from
/// (docs/decisions/0002-a-deterministic-world-in-the-worker.md).
struct SeedCommand: ShellCommand {
    let name = "seed"
    let usage = ":seed [N]"
    let summary = "the seed of the models' ids, dates and random numbers (virtual clock)"
    let detail = [
        "Under a virtual clock, models in workers run in a deterministic world: Date(), UUID(), Int.random, Set order, Task.sleep and DispatchQueue.asyncAfter follow the session's clock and N (default 0). :seed N restarts every worker's entropy from N; :seed alone says the seed and the world. Transcripts and explore write the seed they ran with. storesh --real-world leaves models the real world."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        seed(arguments, origin: origin, in: core)
    }

    /// `:seed` says the seed and whether the world is on; `:seed N` restarts every
    /// worker's entropy from N (and later workers start from it).
    @MainActor private func seed(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        let host = context.host
        let args = arguments.words
        guard args.count <= 1 else {
            return context.fail("usage: :seed [N] (N from 0 to 18446744073709551615)", origin: origin)
        }
        guard let text = args.first else {
            context.output(
                .report(
                    kind: "seed", lines: ["seed \(host.seed) (\(Self.worldDescription(of: host)))"],
                    data: .record([
                        "seed": .string(String(host.seed)), "world": .string(Self.worldName(of: host)),
                    ])))
            return true
        }
        guard let seed = UInt64(text) else {
            return context.fail(
                "'\(text)' is not a seed; write a whole number from 0 to 18446744073709551615", origin: origin,
                in: arguments, at: 0)
        }
        host.reseed(seed)
        return true
    }

    /// The world `host`'s models see, in a word: `deterministic`, `real` or `in-process`.
    @MainActor private static func worldName(of host: PluginHost) -> String {
        guard host.worldIsOn else { return "real" }
        return host.isolation == .workers ? "deterministic" : "in-process"
    }

    @MainActor private static func worldDescription(of host: PluginHost) -> String {
        switch worldName(of: host) {
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
