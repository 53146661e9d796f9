import Foundation

/// `:help [COMMAND]`: the list of commands, one command's help, or the action grammar.
struct HelpCommand: ShellCommand {
    let name = "help"
    let readsOnly = true
    let usage = ":help [COMMAND]"
    let summary = "list commands, or explain one"
    let detail = ["Actions are typed as text; see ':help actions' for the grammar."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return core.fail("usage: :help [COMMAND]", origin: origin) }
        guard let topic = args.first else {
            let width = ShellCore.commands.map(\.usage.count).max() ?? 0
            var lines = ShellCore.commands.map {
                $0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
            }
            lines += [
                "",
                "Anything not starting with ':' is an action for the current model; ':help actions' explains the syntax.",
            ]
            core.output(.info(kind: "help", lines: lines))
            return true
        }
        if topic == "actions" {
            core.output(.info(kind: "help", lines: Self.actionGrammar))
            return true
        }
        guard let command = ShellCore.command(named: topic.hasPrefix(":") ? String(topic.dropFirst()) : topic) else {
            return core.fail("no help for '\(topic)'; :help lists the commands", origin: origin)
        }
        core.output(
            .info(kind: "help", lines: [command.usage, "  " + command.summary] + command.detail.map { "  " + $0 }))
        return true
    }

    static let actionGrammar = [
        "increment                      an action without parameters",
        "setCount 5                     positional arguments, separated by ','",
        "setCount(5)                    the same, in parentheses",
        "setUser name: \"bo\", age: 3     labelled arguments",
        "child.increment                an action of a child component",
        "todos[\"t1\"].toggle             an action of one keyed child",
        "setTags [\"a\", \"b\"]             lists; records are {field: value}",
        "Literals: 42, -1.5, \"text\" (JSON escapes), true, false, null.",
        ":actions lists what the current model accepts.",
    ]
}
