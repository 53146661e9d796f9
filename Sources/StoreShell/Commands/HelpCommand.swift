import Foundation
import StoreHost
import StoreValue

/// `:help [COMMAND | ACTION]`: the list of commands, one command's help, one of the
/// current model's actions, or the action grammar.
struct HelpCommand: ShellCommand {
    let name = "help"
    let readsOnly = true
    let usage = ":help [COMMAND | ACTION]"
    let summary = "list commands, or explain one, or one of the model's actions"
    let detail = [
        "Actions are typed as text; see ':help actions' for the grammar.",
        "For an action of the current model: its signature and doc, each parameter's type, default and doc, the cases of each enum and the fields of each record, and an example line.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return core.fail("usage: :help [COMMAND | ACTION]", origin: origin) }
        guard let topic = args.first else {
            // Names in a column as wide as the longest name; a command's arguments are in
            // its own help (the longest usage would push every summary far right).
            let width = ShellCore.commands.map { $0.name.count + 1 }.max() ?? 0
            var lines = ShellCore.commands.map {
                (":" + $0.name).padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
            }
            lines += [
                "",
                "':help COMMAND' shows a command's arguments; ':help ACTION' one of the current model's actions.",
                "Anything not starting with ':' is an action for the current model; ':help actions' explains the syntax.",
            ]
            core.output(.info(kind: "help", lines: lines))
            return true
        }
        if topic == "actions" {
            core.output(.info(kind: "help", lines: Self.actionGrammar))
            return true
        }
        let command = ShellCore.command(named: topic.hasPrefix(":") ? String(topic.dropFirst()) : topic)
        var lines = command.map { [$0.usage, "  " + $0.summary] + $0.detail.map { "  " + $0 } } ?? []
        // An action named as a command (`seed`, `log`) is explained after the command.
        if !topic.hasPrefix(":"), let session = core.current,
            let action = session.model.action(named: topic) ?? session.model.action(named: Self.keysLeftOut(topic))
        {
            if !lines.isEmpty { lines += ["", "The action \(action.name) of \(session.model.qualifiedName):"] }
            lines += ActionHelp.lines(of: action) { collection in
                Self.firstKey(in: session.state, at: collection, identity: session.model.stateDiff)
            }
            core.output(.report(kind: "help", lines: lines, data: ActionsCommand.record(of: action)))
            return true
        }
        if !lines.isEmpty {
            core.output(.info(kind: "help", lines: lines))
            return true
        }
        var message = "no help for '\(topic)'; :help lists the commands"
        if let session = core.current {
            message += ", :actions the actions of \(session.model.qualifiedName)"
            if let near = Suggestion.nearest(to: topic, in: session.model.actions.map(\.name)) {
                message += "; did you mean '\(near)'?"
            }
        }
        return core.fail(message, origin: origin)
    }

    /// `todos["t1"].toggle` as the schema names it: `todos[].toggle`.
    static func keysLeftOut(_ name: String) -> String {
        var out = ""
        var depth = 0
        for character in name {
            if character == "[" {
                if depth == 0 { out.append(character) }
                depth += 1
            } else if character == "]" {
                depth = max(0, depth - 1)
                if depth == 0 { out.append(character) }
            } else if depth == 0 {
                out.append(character)
            }
        }
        return out
    }

    /// The key of the first element of the list at `path` (dotted field names), for an
    /// example of a keyed child action: `todos["t1"].toggle`.
    static func firstKey(in state: Value, at path: String, identity: StateDiff) -> Value? {
        var value = state
        for label in path.split(separator: ".") {
            guard let inner = value[String(label)] else { return nil }
            value = inner
        }
        guard case .array(let items) = value, let first = items.first, let key = identity.identity(first) else {
            return nil
        }
        return .string(key)
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
