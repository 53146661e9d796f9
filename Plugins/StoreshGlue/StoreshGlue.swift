import Foundation
import PackagePlugin

/// Applied to a plugin target (`plugins: [.plugin(name: "StoreshGlue", package: "storesh")]`):
/// runs storesh-glue over the target's Swift files, and compiles the one file it writes
/// with them (docs/plugins.md, "Glue that writes itself"). A build command with its
/// inputs and output declared, so a build whose sources did not change runs nothing.
@main
struct StoreshGlue: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)+StoreshGlue.swift")
        return [
            .buildCommand(
                displayName: "Writing storesh glue for \(target.name)",
                executable: try context.tool(named: "storesh-glue").url,
                arguments: ["--module", target.name, "--output", output.path] + sources.map(\.path),
                inputFiles: sources,
                outputFiles: [output])
        ]
    }
}
