import Foundation
import StoreHost
import StoreValue

/// `:find TEXT`: the paths in the state whose key or value contains TEXT.
struct FindCommand: ShellCommand {
    let name = "find"
    let readsOnly = true
    let usage = ":find TEXT"
    let summary = "the paths in the state whose key or value contains TEXT (ignoring case)"
    let detail = [
        "Each path pastes into :state; list elements with an id are named by it. Up to 100 matches are listed."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        find(arguments, origin: origin, in: core)
    }

    /// Lists the paths whose key or value holds the text.
    @MainActor private func find(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let words = arguments.words
        guard words.count == 1, !words[0].isEmpty else {
            return context.fail("usage: :find TEXT (in quotes when it has spaces)", origin: origin)
        }
        let needle = words[0]
        let state: Value
        do {
            state = try session.currentState()
        } catch {
            return context.fail(error.message, origin: origin)
        }
        let matches = Self.paths(in: state, matching: needle, identity: session.model.stateDiff)
        let limit = 100
        var lines = matches.prefix(limit).map { "\($0.path): \($0.value.brief(items: 5))" }
        if matches.isEmpty { lines = ["nothing in the state has '\(needle)' in a key or a value"] }
        if matches.count > limit { lines.append("… \(matches.count - limit) more") }
        context.output(
            .report(
                kind: "find", lines: lines,
                data: .record([
                    "text": .string(needle), "count": .int(Int64(matches.count)),
                    "matches": .array(
                        matches.prefix(limit).map { .record(["path": .string($0.path), "value": $0.value]) }),
                ])))
        return true
    }

    /// The paths (as `:state` takes them) whose last key, or whose value (a string, a
    /// number, a boolean or an enum case's name), contains `needle`, ignoring case; in the
    /// order of the state. Walked with a stack of its own: no recursion on input depth.
    static func paths(in state: Value, matching needle: String, identity: StateDiff) -> [(path: String, value: Value)] {
        var found: [(path: String, value: Value)] = []
        var stack: [(path: String, key: String?, value: Value)] = [(".", nil, state)]
        while let (path, key, value) = stack.popLast() {
            let keyMatches = key.map { $0.range(of: needle, options: .caseInsensitive) != nil } ?? false
            var children: [(path: String, key: String?, value: Value)] = []
            var scalar: String?
            switch value {
            case .record(_, let fields):
                for (offset, field) in fields.enumerated() {
                    let label = field.label ?? String(offset)
                    children.append((PathSyntax.append(label, to: path == "." ? "" : path), label, field.value))
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    let id = identity.identity(item)
                    children.append(
                        ((path == "." ? "" : path) + "[\(id.map(Value.quoted) ?? String(index))]", id, item))
                }
            case .enumCase(let name, let payload):
                scalar = name
                for (offset, field) in payload.enumerated() {
                    let label = field.label ?? String(offset)
                    children.append((PathSyntax.append(label, to: path == "." ? "" : path), label, field.value))
                }
            case .string(let text): scalar = text
            case .null: scalar = nil
            default: scalar = value.compact
            }
            let valueMatches = scalar.map { $0.range(of: needle, options: .caseInsensitive) != nil } ?? false
            if keyMatches || valueMatches { found.append((path, value)) }
            stack += children.reversed()
        }
        return found
    }
}
