import ArgumentParser
import Foundation
import StoreHost
import StoreMCP
import StoreService
import StoreShell

/// `storesh mcp`: one session served over the Model Context Protocol on standard input
/// and output, for an editor or an agent.
struct MCPOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve a session over the Model Context Protocol (MCP) on standard input and output.",
        discussion: """
        For an editor or an AI agent that takes an MCP server command. The client loads models, \
        sends actions (the send tool, or a tool per action), reads the state and its parts \
        (tools and storesh://state resources), travels in time and runs any shell line. \
        Standard output carries only the protocol; diagnostics and what plugins print go to \
        standard error. The session ends when the client closes standard input.
        """
    )

    @OptionGroup var session: SessionOptions

    @OptionGroup var inspect: InspectOptions
}

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
    core.historyLimit = options.session.historyLimit == 0 ? nil : options.session.historyLimit
    let diagnostics = OutputFormatter(format: .tree)
    let said = { (output: ShellOutput) in
        for line in diagnostics.lines(for: output) { StandardStreams.error("storesh mcp: \(line)\n") }
    }
    // A plugin that does not load is said on standard error; the session starts all the
    // same, and the client can load another.
    if case .exit(let status) = await SessionStart.prepare(core, options.session, announce: true, quiet: false, emit: said, warn: { StandardStreams.error($0) }) {
        return status
    }
    let service = SessionService(core: core)
    // The page and the MCP client see one session: the same service, the same operations.
    let inspector = InspectorLauncher(core: core, service: service) { StandardStreams.error($0) }
    if await !inspector.startFromOptions(options.inspect) { return 2 }
    let server = MCPSessionServer(service: service, version: Storesh.version)
    do {
        try await server.serve(input: STDIN_FILENO, output: protocolOutput)
    } catch {
        StandardStreams.error("storesh mcp: \(error)\n")
        return 1
    }
    return SessionStart.finish(core) ? 0 : 1
}
