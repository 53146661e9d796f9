import StoreHost
import StoreValue

/// Turns `ShellOutput` into text: readable lines for people (optionally coloured), or one
/// JSON object per line for programs. Pure formatting; it never touches a terminal.
package struct OutputFormatter: Sendable {
    package enum Format: String, Sendable, CaseIterable {
        case tree, json
    }

    package var format: Format
    /// ANSI colours; storesh turns them on only at a terminal and never with NO_COLOR.
    package var color: Bool

    package init(format: Format = .tree, color: Bool = false) {
        self.format = format
        self.color = color
    }

    /// The lines for one output, without trailing newlines.
    package func lines(for output: ShellOutput) -> [String] {
        format == .json ? [json(output)] : text(output)
    }

    /// Appends the lines for one output to `out` as UTF-8, each ending in a newline.
    package func append(_ output: ShellOutput, to out: OutputBuffer) {
        switch format {
        case .json:
            appendJSON(output, to: out)
            out.append(UInt8(ascii: "\n"))
        case .tree:
            for line in text(output) {
                out.append(line)
                out.append(UInt8(ascii: "\n"))
            }
        }
    }

    // MARK: Text

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func diffLines(_ changes: [StateChange]) -> [String] {
        changes.map { change in
            let code =
                switch change.kind {
                case .moved: "36"
                case .added: "32"
                case .removed: "31"
                case .changed: "33"
                }
            return "  " + paint(change.description, code)
        }
    }

    private func text(_ output: ShellOutput) -> [String] {
        switch output {
        case .action(let typed, let result):
            var summary = result.stateChanged ? "state changed" : "no change"
            if result.effectsStarted > 0 {
                summary += ", \(result.effectsStarted) effect\(result.effectsStarted == 1 ? "" : "s") started"
            }
            return ["\(paint(typed, "1")): \(summary)"] + diffLines(result.changes)
        case .state(_, let value, let depth, let whole):
            return value.tree(depth: depth, whole: whole).split(separator: "\n", omittingEmptySubsequences: false).map(
                String.init)
        case .effect(let report):
            let event = report.event
            var line = "fx #\(event.effect) \(report.label ?? "effect") "
            switch event.kind {
            case .started: line += "started"
            case .emitted: line += "emitted \(event.action ?? "?")"
            case .finished: line += "finished"
            case .failed: line += "failed: \(event.message ?? "?")"
            case .cancelled: line += "cancelled"
            }
            if event.kind != .started { line += " (+\(report.elapsedMilliseconds)ms)" }
            return [paint(line, "36")]
        case .applied(_, let changes, let showDiff):
            return showDiff ? diffLines(changes) : []
        case .error(let error):
            var location = ""
            if let file = error.origin.file {
                location = "\(file):\(error.origin.line):" + (error.column.map { "\($0):" } ?? "") + " "
            }
            var lines = [location + paint("error:", "31;1") + " " + error.message]
            if let text = error.text, let column = error.column {
                lines.append("  " + text)
                lines.append("  " + String(repeating: " ", count: column - 1) + paint("^", "32;1"))
            }
            return lines
        case .info(_, let lines), .report(_, let lines, _):
            return lines
        case .loaded(let plugin, let version, let models):
            return ["loaded \(plugin) \(version): \(models.joined(separator: ", "))"]
        }
    }

    // MARK: JSON

    /// A diff's change as an element of the `diff` field: `op`, `path`, `old` and `new`
    /// when there is one, `from` and `to` for a move.
    private static func append(_ change: StateChange, to out: OutputBuffer) {
        let opening: StaticString =
            switch change.kind {
            case .added: #"{"op":"added","path":"#
            case .removed: #"{"op":"removed","path":"#
            case .changed: #"{"op":"changed","path":"#
            case .moved: #"{"op":"moved","path":"#
            }
        out.append(opening)
        out.appendJSONString(change.path)
        func value(_ key: StaticString, _ value: Value?) {
            guard let value else { return }
            out.append(key)
            out.appendJSON(value)
        }
        func index(_ key: StaticString, _ index: Int?) {
            guard let index else { return }
            out.append(key)
            out.appendDecimal(index)
        }
        value(#","old":"#, change.old)
        value(#","new":"#, change.new)
        index(#","from":"#, change.from)
        index(#","to":"#, change.to)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"diff":[…]}`: the end of a record that reports changes.
    private static func appendDiff(_ changes: [StateChange], to out: OutputBuffer) {
        out.append(#","diff":["# as StaticString)
        for (index, change) in changes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(change, to: out)
        }
        out.append("]}" as StaticString)
    }

    private func json(_ output: ShellOutput) -> String {
        let out = OutputBuffer(capacity: 256)
        appendJSON(output, to: out)
        return out.text
    }

    /// The records written once per action are appended in runs of fixed text and fields
    /// (a field at a time, they cost more than the action); the others are made as strings.
    private func appendJSON(_ output: ShellOutput, to out: OutputBuffer) {
        switch output {
        case .action(let typed, let result):
            out.append(#"{"kind":"action","action":"# as StaticString)
            out.appendJSONString(typed)
            out.append(#","name":"# as StaticString)
            out.appendJSONString(result.action)
            out.append(
                result.stateChanged ? #","changed":true,"effects":"# : #","changed":false,"effects":"# as StaticString)
            out.appendDecimal(result.effectsStarted)
            Self.appendDiff(result.changes, to: out)
        case .applied(let action, let changes, _):
            out.append(#"{"kind":"applied","action":"# as StaticString)
            out.appendJSONString(action)
            Self.appendDiff(changes, to: out)
        default:
            out.append(otherJSON(output))
        }
    }

    private func otherJSON(_ output: ShellOutput) -> String {
        switch output {
        case .action, .applied:
            return json(output)
        case .state(let path, let value, _, _):
            return JSON.object([
                ("kind", JSON.string("state")), ("path", path.map(JSON.string)), ("value", JSON.value(value)),
            ])
        case .effect(let report):
            let event = report.event
            return JSON.object([
                ("kind", JSON.string("effect")), ("event", JSON.string("\(event.kind)")), ("id", String(event.effect)),
                ("model", JSON.string(report.model)), ("label", report.label.map(JSON.string)),
                ("action", event.action.map(JSON.string)), ("message", event.message.map(JSON.string)),
                ("elapsed_ms", String(report.elapsedMilliseconds)),
            ])
        case .error(let error):
            return JSON.object([
                ("kind", JSON.string("error")), ("message", JSON.string(error.message)),
                ("file", error.origin.file.map(JSON.string)),
                ("line", error.origin.file == nil ? nil : String(error.origin.line)),
                ("column", error.column.map { String($0) }),
            ])
        case .info(let kind, let lines):
            return JSON.object([("kind", JSON.string(kind)), ("lines", JSON.array(lines.map(JSON.string)))])
        case .report(let kind, let lines, let data):
            let fields = data.children.map { ($0.label ?? "", Optional(JSON.value($0.value))) }
            return JSON.object([("kind", JSON.string(kind)), ("lines", JSON.array(lines.map(JSON.string)))] + fields)
        case .loaded(let plugin, let version, let models):
            return JSON.object([
                ("kind", JSON.string("loaded")), ("plugin", JSON.string(plugin)), ("version", JSON.string(version)),
                ("models", JSON.array(models.map(JSON.string))),
            ])
        }
    }
}
