import Foundation
import StoreHost
import StoreValue

/// What the commands that set watches, breakpoints and the timer need beyond any
/// command's context: the debugging state every action is looked at with. `ShellCore` is
/// the one conformer.
@MainActor
protocol DebuggingContext: CommandContext {
    /// The watches, the breakpoints, the timer, and the tape `:save-test` writes.
    var debugging: DebuggingState { get }
}

/// `:watch [EXPR]`: a line whenever EXPR's value changes.
struct WatchCommand: ShellCommand {
    let name = "watch"
    let usage = ":watch [EXPR]"
    let summary =
        "print a line whenever EXPR's value changes (typed, scripted, by an effect or a jump); no EXPR lists the watches"
    let detail = [
        "EXPR is a path (todos[0].title) or any expression of the property language (docs/shell/explore.md): count(todos), sum(items[*].qty), size == count(contents).",
        "While a watch or a breakpoint is set, scripts send their actions one at a time, so each is looked at.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        watch(arguments, origin: origin, in: core)
    }

    /// Sets a watch on the expression, or lists the watches.
    @MainActor private func watch(_ arguments: CommandArguments, origin: LineOrigin, in context: some DebuggingContext)
        -> Bool
    {
        let words = arguments.typedWords
        guard !words.isEmpty else {
            let lines = context.debugging.watches.map {
                "\($0.model): \($0.path) = \($0.last?.brief(items: 20) ?? "(nothing)")"
            }
            context.output(
                .report(
                    kind: "watches", lines: lines.isEmpty ? ["no watches; :watch EXPR sets one"] : lines,
                    data: .record([
                        "watches": .array(
                            context.debugging.watches.map {
                                .record([
                                    "model": .string($0.model), "path": .string($0.path), "value": $0.last ?? .null,
                                ])
                            })
                    ])))
            return true
        }
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        // An expression of the property language: a path as before, or anything it computes.
        let path = arguments.text.trimmingCharacters(in: .whitespaces)
        let expression: PropertyNode
        do {
            expression = try PropertyParser.parse(path)
        } catch {
            return context.fail(
                error.message, origin: origin, in: arguments,
                at: arguments.text.utf8.count - arguments.text.drop { $0 == " " || $0 == "\t" }.utf8.count
                    + error.offset)
        }
        let key = session.model.qualifiedName
        guard !context.debugging.watches.contains(where: { $0.model == key && $0.path == path }) else {
            return context.fail("\(path) is watched already", origin: origin)
        }
        let now = try? PropertyEvaluator(state: session.state, identity: session.model.stateDiff).value(of: expression)
        context.debugging.watches.append(
            DebuggingState.Watch(model: key, path: path, expression: expression, last: now))
        context.output(
            .report(
                kind: "watch", lines: ["watching \(path) (now \(now?.brief(items: 20) ?? "nothing there"))"],
                data: .record([
                    "path": .string(path), "value": now ?? .null, "watching": .bool(true),
                ])))
        return true
    }
}

/// `:unwatch [EXPR | all]`: stops a watch.
struct UnwatchCommand: ShellCommand {
    let name = "unwatch"
    let usage = ":unwatch [EXPR | all]"
    let summary = "stop watching EXPR (or the only watch, or all)"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        unwatch(arguments, origin: origin, in: core)
    }

    /// Removes one watch, or all.
    @MainActor private func unwatch(
        _ arguments: CommandArguments, origin: LineOrigin, in context: some DebuggingContext
    ) -> Bool {
        let argument = arguments.text.trimmingCharacters(in: .whitespaces)
        let words = argument.isEmpty ? [] : [argument]
        guard !context.debugging.watches.isEmpty else { return context.fail("there are no watches", origin: origin) }
        if words == ["all"] || (words.isEmpty && context.debugging.watches.count == 1) {
            context.debugging.watches = []
            return true
        }
        guard words.count == 1 else {
            return context.fail(
                "usage: :unwatch EXPR | all (watched: \(context.debugging.watches.map(\.path).joined(separator: ", ")))",
                origin: origin)
        }
        let key = context.current?.model.qualifiedName
        guard
            let index = context.debugging.watches.firstIndex(where: { $0.path == words[0] && $0.model == key })
                ?? context.debugging.watches.firstIndex(where: { $0.path == words[0] })
        else {
            return context.fail(
                "\(words[0]) is not watched (watched: \(context.debugging.watches.map(\.path).joined(separator: ", ")))",
                origin: origin)
        }
        context.debugging.watches.remove(at: index)
        return true
    }
}

/// `:break [PATH OP VALUE]`: stops a run at the action that makes a condition true.
struct BreakCommand: ShellCommand {
    let name = "break"
    let usage = ":break [PATH OP VALUE]"
    let summary =
        "stop a script, :wait, :advance or a :goto replay at the action that makes a condition true; no condition lists them"
    let detail = [
        "OP as for :expect. At the prompt the run stops there with an error; in a script that line fails and the script stops."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        setBreakpoint(arguments, origin: origin, in: core)
    }

    /// Sets a breakpoint on the condition, or lists the breakpoints.
    @MainActor private func setBreakpoint(
        _ arguments: CommandArguments, origin: LineOrigin, in context: some DebuggingContext
    ) -> Bool {
        guard !arguments.text.isEmpty else {
            let lines = context.debugging.breakpoints.enumerated().map {
                "\($0.offset + 1): \($0.element.model): \($0.element.condition)\($0.element.held ? "  (holds now)" : "")"
            }
            context.output(
                .report(
                    kind: "breakpoints",
                    lines: lines.isEmpty ? ["no breakpoints; :break PATH OP VALUE sets one"] : lines,
                    data: .record([
                        "breakpoints": .array(
                            context.debugging.breakpoints.enumerated().map {
                                .record([
                                    "number": .int(Int64($0.offset + 1)), "model": .string($0.element.model),
                                    "condition": .string($0.element.condition.description),
                                    "holds": .bool($0.element.held),
                                ])
                            })
                    ])))
            return true
        }
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        guard let condition = context.parseCondition(arguments.text, in: arguments, origin: origin) else {
            return false
        }
        let holds = condition.holds(in: session.state, identity: session.model.stateDiff)
        context.debugging.breakpoints.append(
            DebuggingState.Breakpoint(model: session.model.qualifiedName, condition: condition, held: holds))
        let note = holds ? "; it holds now, so it fires when an action makes it true again" : ""
        context.output(
            .report(
                kind: "break", lines: ["breakpoint \(context.debugging.breakpoints.count): \(condition)\(note)"],
                data: .record([
                    "number": .int(Int64(context.debugging.breakpoints.count)),
                    "condition": .string(condition.description),
                    "holds": .bool(holds),
                ])))
        return true
    }
}

/// `:unbreak [N | all]`: removes a breakpoint.
struct UnbreakCommand: ShellCommand {
    let name = "unbreak"
    let usage = ":unbreak [N | all]"
    let summary = "remove breakpoint N (as :break lists them; the only one, or all)"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        removeBreakpoint(arguments.words, origin: origin, in: core)
    }

    /// Removes one breakpoint, or all.
    @MainActor private func removeBreakpoint(_ args: [String], origin: LineOrigin, in context: some DebuggingContext)
        -> Bool
    {
        let count = context.debugging.breakpoints.count
        guard count > 0 else { return context.fail("there are no breakpoints", origin: origin) }
        if args == ["all"] || (args.isEmpty && count == 1) {
            context.debugging.breakpoints = []
            return true
        }
        guard args.count == 1, let number = Int(args[0]), (1...count).contains(number) else {
            return context.fail(
                "usage: :unbreak N | all, with N from 1 to \(count) (:break lists them)", origin: origin)
        }
        context.debugging.breakpoints.remove(at: number - 1)
        return true
    }
}

/// `:timer [on|off]`: where each action's time went.
struct TimerCommand: ShellCommand {
    let name = "timer"
    let usage = ":timer [on|off]"
    let summary = "after each action, show where its time went (update, state read, diff, worker round trip)"
    let detail = [
        "As sqlite3's .timer. In a worker the update and the read happen inside the round trip, which is shown whole."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        timer(arguments.words, origin: origin, in: core)
    }

    /// Turns the timer on or off, or says which it is.
    @MainActor private func timer(_ args: [String], origin: LineOrigin, in context: some DebuggingContext) -> Bool {
        guard args.count <= 1 else { return context.fail("usage: :timer [on|off]", origin: origin) }
        switch args.first {
        case nil: context.output(.info(kind: "timer", lines: ["timer is \(context.debugging.timer ? "on" : "off")"]))
        case "on": context.debugging.timer = true
        case "off": context.debugging.timer = false
        default: return context.fail("usage: :timer [on|off]", origin: origin)
        }
        return true
    }
}
