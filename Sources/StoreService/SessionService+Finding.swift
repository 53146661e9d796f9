import StoreShell
import StoreValue

// The operations that find bugs and their causes: `:explore`, `:bisect`, `:why`, `:find`
// and `:save-test`, offered as they are at the prompt (docs/shell/explore.md and
// docs/shell/debugging.md say what each does).
extension SessionService {
    /// The finding operations, listed after the fixed ones.
    package static let findingOperations: [Operation] = [
        Operation(
            name: "explore",
            summary:
                "Generate action sequences for the current model from where the session is, check invariants, crashes, hangs, failed effects and determinism after every step, and shrink the first failure to a minimal failing transcript (written to a file). The session is not changed.",
            parameters: [
                OperationParameter(
                    "invariants", .value,
                    doc:
                        "Checks to make after every step, a list of strings PATH OP VALUE (balance >= 0); the model's own are checked too."
                ),
                OperationParameter("actions", .string, doc: "Only these actions, names separated by ','."),
                OperationParameter(
                    "seed", .int, doc: "Every choice follows from it (default: from the time; reported)."),
                OperationParameter("runs", .int, doc: "Runs to try (default 200)."),
                OperationParameter("steps", .int, doc: "Steps per run (default 50)."),
                OperationParameter(
                    "out", .string,
                    doc:
                        "Where the failing transcript goes (default MODEL.transcript). A file explore wrote is replaced; another is refused unless overwrite."
                ),
                OperationParameter("overwrite", .bool, doc: "Replace an out file that explore did not write."),
            ],
            narrowing: "fewer runs or steps"
        ) { arguments throws(OperationError) in
            var line = ":explore"
            switch arguments.values["invariants"] {
            case nil, .null?: break
            case .array(let items)?:
                for item in items {
                    guard case .string(let text) = item, !text.contains("--"), !text.contains("\n") else {
                        throw OperationError(
                            "explore: invariants is a list of strings PATH OP VALUE, without '--' or line breaks")
                    }
                    line += " --invariant " + text
                }
            default: throw OperationError("explore: invariants is a list of strings, such as [\"balance >= 0\"]")
            }
            if let actions = arguments.string("actions") { line += " --actions " + actions }
            if let seed = arguments.int("seed") {
                guard seed >= 0 else { throw OperationError("explore: seed is 0 or more") }
                line += " --seed \(seed)"
            }
            if let runs = arguments.int("runs") { line += " --runs \(runs)" }
            if let steps = arguments.int("steps") { line += " --steps \(steps)" }
            if let out = arguments.string("out") {
                guard !out.contains("\n"), !out.contains(" --") else {
                    throw OperationError("explore: out is a file name")
                }
                line += " --out " + out
            }
            if arguments.flag("overwrite") { line += " --overwrite" }
            return line
        },
        Operation(
            name: "bisect",
            summary:
                "Find the first action of the history after which a condition PATH OP VALUE holds (or, with not, stops holding), in at most log2(n)+1 replays in a store of its own; or, with crash or error, the first action from which a later replay crashes or fails. The session is not moved.",
            parameters: [
                OperationParameter(
                    "condition", .string, doc: "PATH OP VALUE, as expect takes it: count >= 10, todos[0].done == true."),
                OperationParameter("not", .bool, doc: "The first action after which the condition stops holding."),
                OperationParameter(
                    "crash", .bool,
                    doc:
                        "Instead of a condition: the first action from which a replay crashes (after a crash that was recovered)."
                ),
                OperationParameter(
                    "error", .bool, doc: "Instead of a condition: the first action from which a replay fails."),
            ], command: "bisect"
        ) { arguments throws(OperationError) in
            if arguments.flag("crash") { return ":bisect --crash" }
            if arguments.flag("error") { return ":bisect --error" }
            guard let condition = arguments.string("condition"), !condition.contains("\n") else {
                throw OperationError("bisect needs a condition (count >= 10), or crash or error")
            }
            // A word of its own that is a flag would be read as one: `not`, `crash` and
            // `error` are parameters. (In quotes it is part of a value.)
            if let flag = CommandWords.asTyped(condition).first(where: { $0.text.hasPrefix("--") }) {
                throw OperationError(
                    "bisect: condition is PATH OP VALUE; '\(flag.text)' is not part of it (not, crash and error are parameters)"
                )
            }
            return ":bisect " + condition + (arguments.flag("not") ? " --not" : "")
        },
        Operation(
            name: "why",
            summary:
                "The actions that changed a path of the state (or anything under it), newest first, with their diffs there.",
            parameters: [
                OperationParameter(
                    "path", .string, required: true, doc: "A state path: count, todos[0].title, todos[\"t1\"].")
            ],
            command: "why", narrowing: "a narrower path"
        ) { arguments throws(OperationError) in
            ":why " + (arguments.word("path") ?? "")
        },
        Operation(
            name: "find",
            summary:
                "The paths in the state whose key or value contains a text (ignoring case), each one the state tool takes.",
            parameters: [OperationParameter("text", .string, required: true, doc: "What to look for.")],
            command: "find", narrowing: "a longer text"
        ) { arguments throws(OperationError) in
            ":find " + (arguments.word("text") ?? "")
        },
        Operation(
            name: "save_test",
            summary:
                "Write the session (or a range of its log) as a transcript that passes storesh test as written: loads, stubs, clock steps and actions with their output.",
            parameters: [
                OperationParameter("file", .string, required: true, doc: "The transcript to write."),
                OperationParameter("from", .int, doc: "The first action to include, counting from 1 (with to)."),
                OperationParameter("to", .int, doc: "The last action to include (with from)."),
                OperationParameter("force", .bool, doc: "Overwrite a file that exists."),
            ]
        ) { arguments throws(OperationError) in
            var line = ":save-test " + (arguments.word("file") ?? "")
            switch (arguments.int("from"), arguments.int("to")) {
            case (nil, nil): break
            case (let from?, let to?): line += " \(from)-\(to)"
            default: throw OperationError("save_test: from and to go together")
            }
            return line + (arguments.flag("force") ? " --force" : "")
        },
    ]
}
