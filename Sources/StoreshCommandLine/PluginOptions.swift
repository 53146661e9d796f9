package import ArgumentParser
import Foundation

/// Which plugins to load and where else to look for them: the options every command that
/// starts models shares (the shell, `storesh mcp`, `storesh explore`).
package struct PluginOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load a plugin (a name from the search path, or a path). Repeatable. Without it, the bundled Counter loads.",
            valueName: "NAME|PATH"))
    package var plugins: [String] = []

    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp("Also search this directory for plugins. Repeatable.", valueName: "DIR"))
    package var pluginPath: [String] = []

    package func validate() throws {
        try validatePluginPaths(pluginPath)
    }
}

/// Each `--plugin-path` must name a directory: a misspelt one was passed over in silence,
/// and a plugin of the same name elsewhere on the search path (a stale build in the
/// working directory) was loaded and tested instead.
package func validatePluginPaths(_ paths: [String]) throws {
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("--plugin-path \(path): no such directory")
        }
        guard isDirectory.boolValue else {
            throw ValidationError(
                "--plugin-path \(path): not a directory (--plugin-path names the directory a plugin is in; --plugin takes a library's path)"
            )
        }
    }
}
