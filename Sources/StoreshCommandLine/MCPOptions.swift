package import ArgumentParser

/// The release of storesh and its companion programs, as `--version` and MCP's
/// `serverInfo` say it.
package let storeshVersion = "0.2.0"

/// `storesh mcp`'s command line: one session served over the Model Context Protocol on
/// standard input and output, for an editor or an agent. `storesh` parses it (for its
/// help and usage errors), then runs `storesh-mcp`, which parses it again: the MCP SDK
/// and the networking libraries it brings are loaded only by the program that serves.
package struct MCPOptions: ParsableCommand {
    package static let configuration = CommandConfiguration(
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

    package init() {}

    @OptionGroup package var session: SessionOptions

    @OptionGroup package var inspect: InspectOptions
}
