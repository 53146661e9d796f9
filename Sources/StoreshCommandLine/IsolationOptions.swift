package import ArgumentParser
package import StoreHost
import StoreShell

/// How models run: each plugin in a worker process (the default: a crash or hang in a
/// model is reported and the session recovered), or in storesh itself; and how far their
/// reports are trusted.
package struct IsolationOptions: ParsableArguments {
    package init() {}

    @Flag(
        name: .customLong("in-process"),
        help: "Run plugins inside storesh, not in worker processes: fastest, but a crash in a model ends storesh.")
    package var inProcess = false

    @Option(
        name: .customLong("action-timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a model in a worker may take to answer an action (or to load) before it counts as hung and is stopped (0: no limit). Reading the state has no limit; Ctrl-C stops it.",
            valueName: "SECONDS"))
    package var actionTimeout: Double = 5

    @Flag(
        name: .customLong("check-changes"),
        help:
            "Check every state change a plugin reports against a whole snapshot of its state; a difference is an error naming where (for testing a plugin's snapshot_changes)."
    )
    package var checkChanges = false

    @Flag(
        name: .customLong("real-world"),
        help:
            "Under a virtual clock, leave models real time and real entropy (Date(), UUID(), random numbers, Task.sleep, asyncAfter); by default models in workers get the session's clock and a seeded world."
    )
    package var realWorld = false

    package func validate() throws {
        guard actionTimeout >= 0, actionTimeout <= 86_400 else {
            throw ValidationError("--action-timeout must be from 0 (no limit) to 86400 seconds, not \(actionTimeout)")
        }
    }

    /// Sets up `host` as these options say.
    @MainActor package func apply(to host: PluginHost) {
        host.isolation = inProcess ? .inProcess : .workers
        host.actionTimeout = actionTimeout == 0 ? nil : actionTimeout
        host.checksChanges = checkChanges
        host.realWorld = realWorld
    }
}
