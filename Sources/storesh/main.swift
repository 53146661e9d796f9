// storesh: load store-based models from plugins, send them actions as text, watch their
// state and effects — at a prompt, or from scripts.
import ArgumentParser
import Foundation
import StoreHost
import StoreShell
import StoreWorld
import StoreshCommandLine

/// `storesh` and its subcommands: the shell (the default, so `storesh -c increment`
/// needs no subcommand name), `storesh test`, `storesh new` and `storesh explore`.
struct Storesh: ParsableCommand {
    static let version = storeshVersion
    static let configuration = CommandConfiguration(
        commandName: "storesh",
        abstract: "Load store-based models from plugins, send them actions, watch their state and effects.",
        discussion: "Without a subcommand storesh runs the shell: see 'storesh shell --help'.",
        version: "storesh \(version) (plugin ABI \(PluginHost.abiVersion), \(PluginHost.toolchain))",
        subcommands: [Options.self, TestOptions.self, NewOptions.self, ExploreCommandOptions.self, MCPOptions.self],
        defaultSubcommand: Options.self
    )
}

/// Parses the command line and runs what it names. Usage errors exit with status 2.
@MainActor
func main() async -> Int32 {
    let command: any ParsableCommand
    do {
        command = try Storesh.parseAsRoot(InspectOptions.normalized(Array(CommandLine.arguments.dropFirst())))
    } catch {
        if Storesh.exitCode(for: error) == .success {
            Storesh.exit(withError: error)  // --help, --version: printed for the right command
        }
        // Point at the help of the subcommand the usage error is in.
        let subcommand =
            CommandLine.arguments.dropFirst().first.flatMap {
                ["test", "new", "shell", "explore", "mcp"].contains($0) ? " \($0)" : nil
            } ?? ""
        StandardStreams.error("storesh: \(Storesh.message(for: error))\nTry 'storesh\(subcommand) --help'.\n")
        return 2
    }
    switch command {
    case let options as Options where options.includeDirectory:
        do {
            print(try Checkout.includeDirectory())
            return 0
        } catch {
            StandardStreams.error("storesh: \(error)\n")
            return 1
        }
    case let options as Options: return await runShell(options)
    case let options as TestOptions: return await runTests(options)
    case let options as NewOptions: return makeNewPlugin(options)
    case let options as ExploreCommandOptions:
        let status = await runExplore(options)
        if options.searchWorker { SearchWorker.endReport(status: status) }
        return status
    case is MCPOptions: return handOffToMCPServer()
    default:  // `storesh help [SUBCOMMAND]`
        var other = command
        do {
            try other.run()
        } catch {
            Storesh.exit(withError: error)
        }
        return 0
    }
}

// Pipes to workers and test children may lose their reader at any moment: their writes
// handle EPIPE, which needs SIGPIPE ignored (see StandardStreams).
StandardStreams.ignoreBrokenPipes()
// Models run in process get the session's clock and seed where their own code can be told
// apart from storesh's (docs/decisions/0002).
installInProcessWorld()
exit(await main())
