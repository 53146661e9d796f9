package import ArgumentParser
import StoreShell

/// The options that make a session, shared by the shell and `storesh mcp`: the plugins
/// and model to start with, the journal, the clock, where models run, the history kept.
package struct SessionOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var loading: PluginOptions

    @Option(
        help: ArgumentHelp(
            "Start with this model current (with --resume: go on in it once the journal is replayed).",
            valueName: "NAME"))
    package var model: String?

    @Option(
        help: ArgumentHelp(
            "Write every accepted action to this new journal before its result is printed. With --resume: continue in this new file, leaving the old journal as it was.",
            valueName: "PATH"))
    package var journal: String?

    @Option(help: ArgumentHelp("Rebuild the session from a journal, then keep appending to it.", valueName: "PATH"))
    package var resume: String?

    @Flag(help: "With --resume: leave out actions the model no longer has, instead of stopping at the first.")
    package var force = false

    @Flag(
        name: .customLong("virtual-clock"),
        help: "Plugins see a clock that stands still until :wait or :advance moves it.")
    package var virtualClock = false

    @OptionGroup package var isolation: IsolationOptions

    @Flag(
        help:
            "Reload a plugin (in a new worker, replaying the history) when its file changes: rebuild, and the session follows."
    )
    package var watch = false

    @Option(
        name: .customLong("history-limit"), parsing: .unconditional,
        help: ArgumentHelp(
            "Keep at most about N actions per model for time travel (0: all); older ones are dropped in chunks, the oldest kept snapshot becoming the start. The journal keeps everything.",
            valueName: "N"))
    package var historyLimit = History.defaultLimit

    /// The plugins named with `--plugin`.
    package var plugins: [String] { loading.plugins }
    /// The directories named with `--plugin-path`.
    package var pluginPath: [String] { loading.pluginPath }

    package func validate() throws {
        guard historyLimit >= 0 else {
            throw ValidationError(
                "--history-limit must be 0 (keep everything) or a number of actions, not \(historyLimit)")
        }
    }
}
