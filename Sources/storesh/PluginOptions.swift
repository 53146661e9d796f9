import ArgumentParser

/// Which plugins to load and where else to look for them: the options every command that
/// starts models shares (the shell, `storesh mcp`, `storesh explore`).
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin"), help: ArgumentHelp("Load a plugin (a name from the search path, or a path). Repeatable. Without it, the bundled Counter loads.", valueName: "NAME|PATH"))
    var plugins: [String] = []

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also search this directory for plugins. Repeatable.", valueName: "DIR"))
    var pluginPath: [String] = []

    func validate() throws {
        try validatePluginPaths(pluginPath)
    }
}
