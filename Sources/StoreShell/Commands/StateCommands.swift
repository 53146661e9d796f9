import StoreHost
import StoreValue

/// `:state [PATH] [--depth N] [--all]`: the state, or the part at PATH.
struct StateCommand: ShellCommand {
    let name = "state"
    let readsOnly = true
    let usage = ":state [PATH] [--depth N] [--all]"
    let summary = "the state, or the part at PATH"
    let detail = [
        "PATH looks like todos[0].title, todos[\"t1\"] (the element whose id is t1) or counters[\"a\"]; --depth N stops N levels down.",
        "Lists and records show their first 100 entries and how many more there are, strings their first 500 characters; --all shows everything.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        guard core.current != nil else { return core.fail(core.noCurrentModel, origin: origin) }
        var path: String?
        var depth: Int?
        var whole = false
        var pathStart = 0
        var rest = arguments.typedWords[...]
        while let typed = rest.popFirst() {
            let word = typed.text
            if word == "--all" {
                whole = true
            } else if word == "--depth" {
                guard let text = rest.popFirst()?.text, let number = Int(text), number > 0 else {
                    return core.fail("--depth needs a positive number", origin: origin)
                }
                depth = number
            } else if path == nil {
                path = word
                pathStart = typed.offset
            } else {
                return core.fail("usage: :state [PATH] [--depth N] [--all]", origin: origin)
            }
        }
        do {
            _ = try PathSyntax.parse(path ?? ".")
        } catch {
            return core.fail(error.message, origin: origin, in: arguments, at: pathStart + error.offset)
        }
        return core.showState(at: path, depth: depth, whole: whole, origin: origin)
    }
}

extension ShellCore {
    /// `:state`: shows the current model's state, or the part at `path`, `depth` levels
    /// down at most; long lists and strings are cut unless `whole`. A path that does not
    /// read, or names nothing, is an error that says why.
    package func showState(at path: String?, depth: Int?, whole: Bool, origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        do {
            let value = try PathSyntax.lookup(
                path ?? ".", in: session.currentState(), identity: session.model.stateDiff)
            output(.state(path: path, value: value, depth: depth, whole: whole))
            return true
        } catch let error as TextError {
            return fail(error.message, origin: origin)
        } catch let error as SessionError {
            return fail(error.message, origin: origin)
        } catch {
            return fail("\(error)", origin: origin)
        }
    }
}

/// `:diff [on|off]`: whether the state diff is shown after each action.
struct DiffCommand: ShellCommand {
    let name = "diff"
    let readsOnly = true
    let usage = ":diff [on|off]"
    let summary = "show the state diff after each action, or say whether it is shown"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return core.fail("usage: :diff [on|off]", origin: origin) }
        switch args.first {
        case nil: core.output(.info(kind: "diff", lines: ["diff is \(core.showDiff ? "on" : "off")"]))
        case "on": core.showDiff = true
        case "off": core.showDiff = false
        default: return core.fail("usage: :diff [on|off]", origin: origin)
        }
        return true
    }
}

/// `:expect EXPR`: a check of the state; a failed check is an error.
struct ExpectCommand: ShellCommand {
    let name = "expect"
    let readsOnly = true
    let usage = ":expect EXPR"
    let summary = "check the state (e.g. balance >= 0, size == count(items)); a failed check is an error"
    let detail = [
        "EXPR is the property language (docs/shell/explore.md): PATH OP VALUE as before (VALUE a literal: 3, \"text\", true, null, [1, 2], {x: 1}), and paths, [*], + - * / %, && || !, count(…), sum(…), min(…), contains(…), ….",
        "== compares structurally (records and dictionaries by keys and values); < <= > >= compare numbers with numbers and strings with strings; a path that names nothing fails the check (:check skips it).",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.expect(arguments, origin: origin)
    }
}

/// `:reset`: the current model starts over from its initial state.
struct ResetCommand: ShellCommand {
    let name = "reset"
    let usage = ":reset"
    let summary = "start the current model over from its initial state"
    let detail = ["Effects in flight are cancelled."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.reset(origin: origin)
    }
}

/// `:quit`: leaves storesh.
struct QuitCommand: ShellCommand {
    let name = "quit"
    let usage = ":quit"
    let summary = "leave storesh (Ctrl-D does too)"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        core.requestQuit()
        return true
    }
}
