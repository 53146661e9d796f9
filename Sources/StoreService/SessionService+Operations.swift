package import StoreHost
import StoreShell
package import StoreValue

extension SessionService {
    /// The operations every session offers, each one shell command: through its typed
    /// entry point on the core where it has one (`state`, `log`, `expect`, time travel, the clock, `load`, `use`),
    /// else as the shell line its arguments make. A new shell command (`:explore`,
    /// `:bisect`, `:save-test`) becomes an operation of every transport by one entry here:
    /// its name, its parameters, and the call or the line they make.
    package static let fixedOperations: [Operation] =
        [
            Operation(
                name: "send",
                summary:
                    "Send one action to the current model, as typed at the prompt (increment, setCount 5, todos[\"t1\"].toggle). Answers what changed (the diff), the effects it started, or the error with its column.",
                parameters: [
                    OperationParameter(
                        "action", .string, required: true,
                        doc: "The action as typed: name, then arguments (setCount 5; setUser name: \"bo\", age: 3).")
                ],
                narrowing: "the diff is long: read parts of the state with the state tool and a path instead"
            ) { arguments throws(OperationError) in
                let action = arguments.string("action") ?? ""
                switch LineKind.of(action) {
                case .blank: throw OperationError("send needs an action, such as increment")
                case .command: throw OperationError("send takes an action; a :command goes to the run tool")
                case .comment: throw OperationError("send takes an action, not a comment")
                case .action: return action
                }
            },
            Operation(
                name: "state", summary: "The current model's state, or the part of it at a path.",
                parameters: [
                    OperationParameter(
                        "path", .string,
                        doc:
                            "A state path: todos[0].title, todos[\"t1\"] (the element whose id is t1), counters[\"a\"]. Leave it out for the whole state."
                    ),
                    OperationParameter("depth", .int, doc: "Stop this many levels down."),
                ], command: "state",
                narrowing: "read a part: give a path (todos[0]) or a depth"
            ) { arguments throws(OperationError) in
                let path = arguments.string("path")
                if let path {
                    do throws(TextError) {
                        _ = try PathSyntax.parse(path)
                    } catch {
                        throw refusal("path", path, error)
                    }
                }
                let depth = arguments.int("depth").map { Int($0) }
                if let depth, depth <= 0 { throw OperationError("depth: \(depth) is not a positive number") }
                // All of what is read (as --all): the outcome is cut to size as a whole.
                let text =
                    ":state" + (arguments.word("path").map { " " + $0 } ?? "")
                    + (depth.map { " --depth \($0)" } ?? "") + " --all"
                return Operation.Entry(text) { core, origin in
                    core.showState(at: path, depth: depth, whole: true, origin: origin)
                }
            },
            Operation(
                name: "log",
                summary:
                    "The history of actions: source (typed, script, effect) and whether each changed the state. The last 20 unless a range is given.",
                parameters: [
                    OperationParameter("last", .int, doc: "The last N actions."),
                    OperationParameter("from", .int, doc: "The first action to show, counting from 1 (with to)."),
                    OperationParameter("to", .int, doc: "The last action to show (with from)."),
                    OperationParameter("all", .bool, doc: "Every action."),
                ], command: "log",
                narrowing: "ask for a range: from and to, or last"
            ) { arguments throws(OperationError) in
                let span = try SessionService.logSpan(arguments)
                let text: String
                switch span {
                case .all: text = ":log all"
                case .last(let number): text = ":log \(number)"
                case .range(let from, let to): text = ":log \(from)-\(to)"
                }
                return Operation.Entry(text) { core, origin in core.showLog(span, origin: origin) }
            },
            Operation(
                name: "goto",
                summary:
                    "Go to the state after action N of the history (0: the initial state) and continue from there.",
                parameters: [
                    OperationParameter(
                        "position", .int, required: true, doc: "The action's number in the log (0: before the first)."),
                    OperationParameter(
                        "with_effects", .bool,
                        doc:
                            "Start a new store and send the typed and scripted actions again, so their effects run anew."
                    ),
                ], command: "goto"
            ) { arguments throws(OperationError) in
                let (position, withEffects) = (Int(arguments.int("position") ?? 0), arguments.flag("with_effects"))
                return Operation.Entry(":goto \(position)" + (withEffects ? " --with-effects" : "")) { core, origin in
                    core.jump(to: .position(position), withEffects: withEffects, origin: origin)
                }
            },
            Operation(name: "undo", summary: "Go back one action.", parameters: [withEffects], command: "undo") {
                arguments throws(OperationError) in
                let withEffects = arguments.flag("with_effects")
                return Operation.Entry(":undo" + (withEffects ? " --with-effects" : "")) { core, origin in
                    core.jump(to: .step(-1), withEffects: withEffects, origin: origin)
                }
            },
            Operation(
                name: "redo", summary: "Go forward one undone action.", parameters: [withEffects], command: "redo"
            ) { arguments throws(OperationError) in
                let withEffects = arguments.flag("with_effects")
                return Operation.Entry(":redo" + (withEffects ? " --with-effects" : "")) { core, origin in
                    core.jump(to: .step(1), withEffects: withEffects, origin: origin)
                }
            },
            Operation(
                name: "reset",
                summary: "Start the current model over from its initial state; effects in flight are cancelled.",
                command: "reset"
            ) { _ throws(OperationError) in
                Operation.Entry(":reset") { core, origin in core.reset(origin: origin) }
            },
            Operation(
                name: "expect",
                summary:
                    "Check part of the state: PATH OP VALUE. A failed check is an error that says what the state holds.",
                parameters: [
                    OperationParameter(
                        "path", .string, required: true,
                        doc:
                            "One side of the comparison: a state path (count, todos[0].done, todos[\"t1\"].title) or an expression over the state (count(todos)); empty for the whole state. A comparison, && or || here is refused."
                    ),
                    OperationParameter(
                        "op", .choice(["==", "!=", "<", "<=", ">", ">="]), required: true,
                        doc: "How to compare; < <= > >= compare numbers with numbers and strings with strings."),
                    OperationParameter(
                        "value", .value, required: true,
                        doc: "What to compare with: a number, string, boolean, null, list or record."),
                ], command: "expect"
            ) { arguments throws(OperationError) in
                let condition = try SessionService.expectation(
                    path: arguments.string("path") ?? "", op: arguments.string("op") ?? "",
                    value: arguments.values["value"] ?? .null)
                return Operation.Entry(":expect " + condition.description) { core, origin in
                    core.expect(condition, origin: origin)
                }
            },
            Operation(
                name: "load",
                summary:
                    "Load a plugin (a name from the search path, or a path to a .so) and make its first model current.",
                parameters: [
                    OperationParameter(
                        "plugin", .string, required: true, doc: "A plugin name (Counter, Todos) or a library's path.")
                ], command: "load"
            ) { arguments throws(OperationError) in
                let plugin = arguments.string("plugin") ?? ""
                return Operation.Entry(":load " + (arguments.word("plugin") ?? "")) { core, origin in
                    core.load(plugin, as: nil, origin: origin)
                }
            },
            Operation(
                name: "use", summary: "Make another loaded model current (its state is kept).",
                parameters: [
                    OperationParameter(
                        "model", .string, required: true, doc: "A model name, plugin.model, or a plugin name.")
                ], command: "use"
            ) { arguments throws(OperationError) in
                let model = arguments.string("model") ?? ""
                return Operation.Entry(":use " + (arguments.word("model") ?? "")) { core, origin in
                    core.use(model, origin: origin)
                }
            },
            Operation(
                name: "stub",
                summary: "Replace one of the current model's services with scripted answers, or make it fail.",
                parameters: [
                    OperationParameter(
                        "service", .string, required: true,
                        doc: "The service's name (the run tool with :stubs lists them)."),
                    OperationParameter(
                        "answers", .string, required: true,
                        doc: "Answers in order, the last repeating (\"ok\", \"later\"), or fail \"MESSAGE\"."),
                ]
            ) { arguments throws(OperationError) in
                ":stub \(arguments.word("service") ?? "") \(arguments.string("answers") ?? "")"
            },
            Operation(
                name: "advance",
                summary:
                    "Move the virtual clock forward (storesh mcp --virtual-clock); effects due by then fire in order.",
                parameters: [
                    OperationParameter("duration", .string, required: true, doc: "Like 500ms, 2s, 1m, or seconds (5).")
                ], command: "advance"
            ) { arguments throws(OperationError) in
                let milliseconds = try SessionService.milliseconds(arguments, "duration") ?? 0
                return Operation.Entry(":advance \(milliseconds)ms") { core, origin in
                    await core.advance(milliseconds: milliseconds, origin: origin)
                }
            },
            Operation(
                name: "wait",
                summary:
                    "Wait until the current model's effects settle (under a virtual clock: advance to each next wake-up).",
                parameters: [OperationParameter("timeout", .string, doc: "Like 500ms, 2s, 1m (10s when left out).")],
                command: "wait"
            ) { arguments throws(OperationError) in
                let timeout = try SessionService.milliseconds(arguments, "timeout") ?? 10_000
                return Operation.Entry(":wait \(timeout)ms") { core, origin in
                    await core.wait(timeoutMilliseconds: timeout, origin: origin)
                }
            },
            Operation(
                name: "run",
                summary:
                    "Run any one line of the shell: an action, or a :command (:help lists them; :fx, :branches, :import, :reload, …).",
                parameters: [
                    OperationParameter(
                        "line", .string, required: true, doc: "One line, as typed at the storesh prompt.")
                ]
            ) { arguments throws(OperationError) in
                arguments.string("line") ?? ""
            },
        ] + findingOperations

    /// The actions the `log` operation's arguments name; numbers that name none are refused
    /// before anything runs.
    nonisolated private static func logSpan(_ arguments: OperationArguments) throws(OperationError) -> LogSpan {
        if arguments.flag("all") { return .all }
        let (from, to, last) = (arguments.int("from"), arguments.int("to"), arguments.int("last"))
        if let from {
            guard let to else { throw OperationError("log: from needs to (log from 3 to 9)") }
            guard from >= 1, to >= from else {
                throw OperationError(
                    "log: from \(from) to \(to) is no range: from counts from 1, and to is at least from")
            }
            return .range(from: Int(from), to: Int(to))
        }
        if to != nil { throw OperationError("log: to needs from (log from 3 to 9)") }
        guard let last else { return .last(20) }
        guard last > 0 else { throw OperationError("log: last \(last) is not a positive number") }
        return .last(Int(last))
    }

    /// The condition `expect` checks: the value at `path` (one side of a comparison:
    /// `todos[0].done`, `count(todos)`; blank for the whole state, as `:expect == V`)
    /// against `value` by `op`, built from them: the value is never written out and read
    /// again. Refused before anything runs: a path that does not read, or whose top is a
    /// comparison, `&&` or `||` (written out, it would have changed what is compared), and
    /// a condition nested too deep for its line on the tape to be read at the prompt.
    package nonisolated static func expectation(path: String, op word: String, value: Value) throws(OperationError)
        -> StateCondition
    {
        guard let op = PropertyOperator(rawValue: word), op.isComparison else {
            throw OperationError("op: '\(word)' is not one of == != < <= > >=")
        }
        let operand: PropertyNode
        if path.allSatisfy(\.isWhitespace) {
            operand = PropertyNode(.state, start: 0, end: 0)
        } else {
            do throws(TextError) {
                operand = try PropertyParser.parse(path)
            } catch {
                throw refusal("path", path, error)
            }
        }
        if case .binary(let inner, _, _) = operand.kind, inner.level <= 4 {
            throw OperationError(
                "path: '\(path)' is a condition (\(inner.rawValue)), not a path; give the path, the operator and the value apart"
            )
        }
        let condition = StateCondition.comparison(operand, op, value)
        // Built, it skipped the parser's nesting limits; what the tape records must read.
        do throws(TextError) {
            _ = try StateCondition.parse(condition.description)
        } catch {
            throw OperationError(
                "path and value: the condition nests too deep to be written as a line :expect reads (\(error.message))")
        }
        return condition
    }

    /// `text`, the argument `name`, does not read: `error` said where, as a column.
    nonisolated private static func refusal(_ name: String, _ text: String, _ error: TextError) -> OperationError {
        let column = String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count + 1
        return OperationError("\(name) '\(text)', column \(column): \(error.message)")
    }

    /// A duration argument (500ms, 2s, 1m, or seconds) in milliseconds, nil when it is not
    /// given; one that is no duration is refused before anything runs.
    nonisolated private static func milliseconds(_ arguments: OperationArguments, _ name: String) throws(OperationError)
        -> Int64?
    {
        guard let text = arguments.string(name) else { return nil }
        guard let milliseconds = Duration.milliseconds(text) else {
            throw OperationError(
                "\(name): '\(text)' is not a duration; write seconds (5) or 500ms, 2s, 1m (at most 365 days)")
        }
        return milliseconds
    }

    private static let withEffects = OperationParameter(
        "with_effects", .bool, doc: "Replay with a new store, so effects run anew (as :goto --with-effects).")
}
