import Foundation
import StoreHost

/// `storesh mcp`, its arguments checked: `storesh-mcp` (beside storesh, or
/// `$STORESH_MCP`) takes this process's place with the arguments that followed `mcp`, so
/// the client's process, descriptors and signals stay as they were. Only that program links
/// the MCP SDK and the networking libraries it brings, which cost every other start of
/// storesh about 8 ms. Returns only when it cannot be run: the exit status, 2.
func handOffToMCPServer() -> Int32 {
    var searched: [String] = []
    guard let program = CompanionProgram.path(named: "storesh-mcp", overriddenBy: "STORESH_MCP", searched: &searched)
    else {
        StandardStreams.error(
            "storesh mcp: storesh-mcp is not beside storesh (looked in \(searched.joined(separator: ", "))); build it with 'swift build --product storesh-mcp', or set STORESH_MCP to its path\n"
        )
        return 2
    }
    let afterSubcommand = CommandLine.arguments.dropFirst().drop { $0 != "mcp" }.dropFirst()
    let argv = ([program] + afterSubcommand).map { strdup($0) } + [nil]
    execv(program, argv)
    let reason = String(cString: strerror(errno))
    argv.forEach { free($0) }
    StandardStreams.error("storesh mcp: cannot run \(program): \(reason)\n")
    return 2
}
