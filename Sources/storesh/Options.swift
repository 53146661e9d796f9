import ArgumentParser
import Foundation
import StoreShell
import StoreshCommandLine

/// storesh's command line. The order of `-f` and `-c` matters (they run in the order
/// given, as in sqlite3), which ArgumentParser does not keep, so `scriptSteps` rebuilds it
/// from the raw arguments.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Run the shell (the default): load plugins, run scripts, show the prompt.",
        discussion: """
            With no -f or -c, storesh shows a prompt when standard input is a terminal and reads a \
            script from it otherwise. Scripts hold actions (setCount 5) and :commands (:state); \
            type :help at the prompt for both. Exit status: 0 when every line succeeded, 1 when a \
            line, a journal write or a --plugin failed, 2 for a bad option or a script \
            that could not be read to its end.
            """
    )

    @OptionGroup var session: SessionOptions

    @OptionGroup var inspect: InspectOptions

    @Option(
        name: .customShort("f"),
        help: ArgumentHelp("Run a script ('-' for standard input). Repeatable.", valueName: "FILE"))
    var files: [String] = []

    @Option(name: .customShort("c"), help: ArgumentHelp("Run one line. Repeatable.", valueName: "LINE"))
    var commands: [String] = []

    @Flag(name: .customShort("i"), help: "Show the prompt after running -f/-c.")
    var interactive = false

    @Flag(help: "Stop at the first error.")
    var bail = false

    @Flag(help: "Print each input line before its output.")
    var echo = false

    @Flag(help: "Print only errors and what commands are asked to show (no action results).")
    var quiet = false

    @Flag(
        name: .customLong("include-dir"),
        help: "Print the directory holding storeplugin.h (for C plugins: cc -I$(storesh --include-dir)) and exit.")
    var includeDirectory = false

    @Option(help: ArgumentHelp("Output format: tree (for people) or json (one object per line).", valueName: "FORMAT"))
    var format: String = "tree"

    @Flag(name: .customLong("no-color"), help: "No colours, even at a terminal.")
    var noColor = false

    func validate() throws {
        guard ["tree", "json"].contains(format) else {
            throw ValidationError("--format must be tree or json, not '\(format)'")
        }
    }

    /// One script step: a file to run, or a line from -c.
    enum Step: Equatable {
        case file(String)
        case line(String)
    }

    /// The -f and -c steps in the order they were given.
    static func scriptSteps(_ arguments: [String]) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "-f" || argument == "-c", index + 1 < arguments.count {
                steps.append(argument == "-f" ? .file(arguments[index + 1]) : .line(arguments[index + 1]))
                index += 2
                continue
            }
            if argument.hasPrefix("-f"), argument.count > 2, !argument.hasPrefix("--") {
                steps.append(.file(String(argument.dropFirst(2))))
            } else if argument.hasPrefix("-c"), argument.count > 2, !argument.hasPrefix("--") {
                steps.append(.line(String(argument.dropFirst(2))))
            }
            index += 1
        }
        return steps
    }
}
