import Foundation
import StoreHost
import StoreValue

extension ShellCore {
    /// Completions for the word before `cursor` (a byte offset): where that word starts,
    /// and the candidates that could replace it. Commands, action names, parameter
    /// labels, state paths, plugin and model names, and file paths.
    package func completions(line: String, cursor: Int) -> (start: Int, candidates: [String]) {
        let before = String(decoding: line.utf8.prefix(cursor), as: UTF8.self)
        let wordStart =
            before.utf8.lastIndex {
                $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: ",")
                    || $0 == UInt8(ascii: "(")
            }
            .map { before.utf8.distance(from: before.utf8.startIndex, to: $0) + 1 } ?? 0
        let word = String(decoding: before.utf8.dropFirst(wordStart), as: UTF8.self)
        let earlier = String(decoding: before.utf8.prefix(wordStart), as: UTF8.self)
        let words = CommandWords.unquoted(earlier).map(\.text)
        let candidates: [String]
        if before.hasPrefix(":") {
            if words.isEmpty {
                candidates = Self.commands.map { ":" + $0.name }
            } else {
                candidates = commandArguments(words[0], word: word)
            }
        } else if words.isEmpty {
            candidates = actionNames(completing: word)
        } else {
            // The action's name as written, quotes kept: `book["b1"].checkout`, which
            // shell-style splitting made `book[b1].checkout`, a name no action has.
            candidates = labels(for: CommandWords.asTyped(earlier)[0].text, given: earlier)
        }
        var seen = Set<String>()
        return (wordStart, candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }.sorted())
    }

    /// Action names, with the keys the user already typed in place of `[]`:
    /// `todos["t1"].` completes to `todos["t1"].toggle`, `todos["t1"].rename`, ….
    private func actionNames(completing word: String) -> [String] {
        let names = current?.model.actions.map(\.name) ?? []
        if let keyed = keys(completing: word, names: names) { return keyed }
        var keys: [Substring] = []
        var schemaWord = ""
        var rest = Substring(word)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            schemaWord += rest[...open] + "]"
            keys.append(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        schemaWord += rest
        guard !keys.isEmpty else { return names }
        return names.filter { $0.hasPrefix(schemaWord) }.map { name in
            var filled = ""
            var remaining = keys[...]
            var parts = Substring(name)
            while let slot = parts.range(of: "[]"), let key = remaining.popFirst() {
                filled += parts[..<slot.lowerBound] + "[" + key + "]"
                parts = parts[slot.upperBound...]
            }
            return filled + parts
        }
    }

    /// `todos[` (a keyed action's name, its key not typed yet) → the keys in the state,
    /// `todos["t1"]`, `todos["t2"]`, …: the schema's `todos[].` is not something to type.
    /// The keys are those of the elements at the state path of that name, else of a list
    /// whose name starts with it (`book[` and a state's `books`). Nil when `word` is not
    /// such a start.
    private func keys(completing word: String, names: [String]) -> [String]? {
        guard let open = word.firstIndex(of: "["), !word[open...].contains("]") else { return nil }
        let prefix = String(word[..<open])
        guard !prefix.isEmpty, names.contains(where: { $0.hasPrefix(prefix + "[]") }), let session = current else {
            return nil
        }
        let keyed = statePaths(session.state, depth: 2, identity: session.model.stateDiff).filter { path in
            guard let bracket = path.firstIndex(of: "["), path.hasSuffix("\"]"),
                path[bracket...].dropFirst(2).firstIndex(of: "[") == nil
            else { return false }
            return path[path.index(after: bracket)] == "\""
        }
        let exact = keyed.filter { $0.hasPrefix(prefix + "[") }
        if !exact.isEmpty { return exact }
        return keyed.filter { $0.hasPrefix(prefix) }.map { prefix + $0[$0.firstIndex(of: "[")!...] }
    }

    private func commandArguments(_ command: String, word: String) -> [String] {
        switch Self.aliases[String(command.dropFirst())] ?? String(command.dropFirst()) {
        case "help": return Self.commands.map(\.name) + ["actions"] + (current?.model.actions.map(\.name) ?? [])
        case "load": return host.availablePlugins().map(\.name) + filePaths(word)
        case "import", "export": return filePaths(word)
        case "use": return host.models.map(\.name) + host.models.map(\.qualifiedName)
        case "reload", "crash": return host.plugins.map(\.name)
        case "state": return current.map { statePaths($0.state, identity: $0.model.stateDiff) } ?? []
        case "diff": return ["on", "off"]
        case "expect": return current.map { statePaths($0.state, identity: $0.model.stateDiff) } ?? []
        case "explore":
            return ["--invariant", "--seed", "--runs", "--steps", "--out"]
                + (current.map { statePaths($0.state, identity: $0.model.stateDiff) } ?? [])
        case let other: return debuggingCompletions(other) ?? []
        }
    }

    private func labels(for actionName: String, given earlier: String) -> [String] {
        let (written, arguments) = ArgumentCompletion.split(earlier)
        let name = (try? ActionCall.parse(written))?.name ?? written
        guard let action = current?.model.action(named: name) else { return [] }
        let keyCount = action.name.split(separator: ".").filter { $0.hasSuffix("[]") }.count
        return ArgumentCompletion.candidates(params: Array(action.params.dropFirst(keyCount)), after: arguments)
    }

    /// Paths into `value`, a few levels deep, as `:state` takes them.
    func statePaths(_ value: Value, prefix: String = "", depth: Int = 3, identity: StateDiff = StateDiff()) -> [String]
    {
        guard depth > 0 else { return [] }
        var paths: [String] = []
        switch value {
        case .record(_, let fields):
            for field in fields {
                let path = PathSyntax.append(field.label ?? "", to: prefix)
                paths.append(path)
                paths += statePaths(field.value, prefix: path, depth: depth - 1, identity: identity)
            }
        case .array(let items):
            for (index, item) in items.prefix(20).enumerated() {
                // Elements with an id are also reached by it, as keyed actions name them.
                let keyed = identity.identity(item).map { prefix + "[\(Value.quoted($0))]" }
                for path in [prefix + "[\(index)]"] + (keyed.map { [$0] } ?? []) {
                    paths.append(path)
                    paths += statePaths(item, prefix: path, depth: depth - 1, identity: identity)
                }
            }
        default:
            break
        }
        return paths
    }

    /// Files and directories (with a '/') that `word` may be the start of; `~` and the
    /// base directory count as the commands that take files resolve them.
    private func filePaths(_ word: String) -> [String] {
        let directory = word.contains("/") ? String(word[...word.lastIndex(of: "/")!]) : ""
        let listed =
            (try? FileManager.default.contentsOfDirectory(atPath: resolvePath(directory.isEmpty ? "." : directory)))
            ?? []
        return listed.map { entry in
            var isDirectory: ObjCBool = false
            let path = directory + entry
            _ = FileManager.default.fileExists(atPath: resolvePath(path), isDirectory: &isDirectory)
            return isDirectory.boolValue ? path + "/" : path
        }
    }
}
