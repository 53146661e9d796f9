// storesh-mcp: `storesh mcp`'s server, a program of its own so that storesh itself does not
// load the MCP SDK's networking libraries (FoundationNetworking, curl, TLS) at every start.
// storesh checks the command line, then runs this program in its place (exec) with the
// arguments that followed `mcp`.
import ArgumentParser
import Foundation
import StoreHost
import StoreMCP
import StoreService
import StoreShell
import StoreWorld
import StoreshCommandLine

/// Runs `storesh mcp` until the client closes its side. Returns the exit status: 0, or
/// 2 when the session could not start, 1 when its journal could not be synced at the end.
@MainActor
func runMCP(_ options: MCPOptions) async -> Int32 {
    // Standard output is the protocol's alone: it is kept on a descriptor of its own, and
    // descriptor 1 becomes standard error, so a plugin in this process that prints
    // (printf, print) cannot break a message.
    let protocolOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
    guard protocolOutput >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
        StandardStreams.error("storesh mcp: cannot set up standard output: \(String(cString: strerror(errno)))\n")
        return 2
    }
    let host = SessionStart.host(for: options.session)
    host.workerOutput = { StandardStreams.error($0) }
    let core = ShellCore(host: host, showDiff: true, reportActions: true) { _ in }
    core.recorder.historyLimit = options.session.historyLimit == 0 ? nil : options.session.historyLimit
    let diagnostics = OutputFormatter(format: .tree)
    let said = { (output: ShellOutput) in
        for line in diagnostics.lines(for: output) { StandardStreams.error("storesh mcp: \(line)\n") }
    }
    // A plugin that does not load is said on standard error; the session starts all the
    // same, and the client can load another.
    if case .exit(let status) = await SessionStart.prepare(
        core, options.session, announce: true, quiet: false, emit: said, warn: { StandardStreams.error($0) })
    {
        return status
    }
    let service = SessionService(core: core)
    // The page and the MCP client see one session: the same service, the same operations.
    let inspector = InspectorLauncher(core: core, service: service) { StandardStreams.error($0) }
    if await !inspector.startFromOptions(options.inspect) { return 2 }
    let server = MCPSessionServer(service: service, version: storeshVersion)
    do {
        try await server.serve(input: STDIN_FILENO, output: protocolOutput)
    } catch {
        StandardStreams.error("storesh mcp: \(error)\n")
        return 1
    }
    return SessionStart.finish(core) ? 0 : 1
}

/// Parses `storesh mcp`'s arguments and serves. A usage error (possible only when this
/// program is run by hand: storesh checked them) exits with status 2.
@MainActor
func main() async -> Int32 {
    let options: MCPOptions
    do {
        options = try MCPOptions.parse(InspectOptions.normalized(Array(CommandLine.arguments.dropFirst())))
    } catch {
        if MCPOptions.exitCode(for: error) == .success { MCPOptions.exit(withError: error) }
        StandardStreams.error("storesh mcp: \(MCPOptions.message(for: error))\nTry 'storesh mcp --help'.\n")
        return 2
    }
    return await runMCP(options)
}

// A client that goes away mid-reply must not kill the session before its journal is
// synced: writes to a closed pipe fail with EPIPE instead (see StandardStreams).
StandardStreams.ignoreBrokenPipes()
// Models run in process get the session's clock and seed (docs/decisions/0002).
installInProcessWorld()
exit(await main())
