import StoreHost
import StoreValue

/// Which actions `:log` shows: the last N, actions FROM to TO (counting from 1, dropped
/// ones included), or all of them.
package enum LogSpan: Sendable, Equatable {
    case last(Int)
    case range(from: Int, to: Int)
    case all

    /// `:log`'s word (`N`, `FROM-TO`, `all`; none: the last 20); nil for anything else.
    init?(words: [String]) {
        guard let text = words.first else {
            self = .last(20)
            return
        }
        guard words.count == 1 else { return nil }
        if text == "all" {
            self = .all
        } else if let number = Int(text), number > 0 {
            self = .last(number)
        } else {
            let bounds = text.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let from = Int(bounds[0]), let to = Int(bounds[1]), from >= 1, to >= from else {
                return nil
            }
            self = .range(from: from, to: to)
        }
    }

    /// Which entries it names: the last N, FROM-TO (1-based, inclusive, clipped to the
    /// history), or all. `dropped`: actions counted before the first entry (FROM and TO
    /// count them).
    func entries(count: Int, dropped: Int) -> Range<Int> {
        switch self {
        case .all: return 0..<count
        case .last(let number): return max(0, count - max(number, 0))..<count
        case .range(let from, let to):
            // Clamped, so that no number a client sends overflows.
            let lower = min(max(max(from, 1) - 1 - dropped, 0), count)
            return lower..<max(lower, min(max(to, 0) - dropped, count))
        }
    }
}

/// `:log`: the current model's history, one line (or record) per action.
extension ShellCore {
    func log(_ args: [String], origin: LineOrigin) -> Bool {
        guard let span = LogSpan(words: args) else {
            guard current != nil else { return fail(noCurrentModel, origin: origin) }
            return fail(
                "usage: :log [N | FROM-TO | all]  (N: the last N actions; FROM-TO: actions FROM to TO, counting from 1)",
                origin: origin)
        }
        return showLog(span, origin: origin)
    }

    /// `:log`: the actions of the current model's history that `span` names, with their
    /// source, whether each changed the state, and what happened between them.
    package func showLog(_ span: LogSpan, origin: LineOrigin) -> Bool {
        guard let session = current, let history = recorder.histories[session.model.qualifiedName] else {
            return fail(noCurrentModel, origin: origin)
        }
        let entries = history.entries
        let shown = span.entries(count: entries.count, dropped: history.dropped)
        let width = String(history.shown(entries.count)).count
        let records: [Value] = shown.map { logRecord(at: $0, of: history, in: session.model) }
        let incidents = Dictionary(grouping: history.incidents + history.unreplayable, by: \.position)
        let incidentLines = { (position: Int) in
            (incidents[position] ?? []).map { String(repeating: " ", count: width + 2) + "!       " + $0.note }
        }
        var lines: [String] = []
        if history.dropped > 0 {
            lines.append(
                "… \(history.dropped) earlier action\(history.dropped == 1 ? " was" : "s were") dropped (--history-limit \(history.limit ?? 0))"
            )
        }
        if shown.lowerBound > 0 {
            let earlier = shown.lowerBound
            let first = history.dropped + 1
            lines.append(
                "… \(earlier) earlier action\(earlier == 1 ? "" : "s") (:log \(first)-\(first - 1 + min(earlier, 20)) shows \(earlier <= 20 ? "them" : "the first 20"))"
            )
        }
        lines += incidentLines(shown.lowerBound)
        for index in shown {
            let entry = entries[index]
            let number = history.shown(index) + 1
            var line = String(repeating: " ", count: width - String(number).count) + "\(number)  "
            line +=
                entry.source.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + entry.text(in: session.model)
            if !entry.changed { line += "  (no change)" }
            if entry.skipped { line += "  (skipped)" }
            if index >= history.position { line += "  (undone)" }
            lines.append(line)
            lines += incidentLines(index + 1)
        }
        if shown.upperBound < entries.count {
            let later = entries.count - shown.upperBound
            lines.append("… \(later) later action\(later == 1 ? "" : "s")")
        }
        lines.append("at \(history.shown(history.position)) of \(history.shown(entries.count))")
        output(
            .report(
                kind: "log", lines: lines,
                data: .record([
                    "entries": .array(records), "position": .int(Int64(history.shown(history.position))),
                    "count": .int(Int64(history.shown(entries.count))),
                    "from": .int(Int64(history.shown(shown.lowerBound) + 1)),
                    "to": .int(Int64(history.shown(shown.upperBound))),
                    "dropped": .int(Int64(history.dropped)),
                    "incidents": .array(
                        history.incidents.map {
                            .record(["after": .int(Int64(history.shown($0.position))), "note": .string($0.note)])
                        }),
                ])))
        return true
    }

    /// Entry `index` of `history` as `:log`'s JSON lists it: `index` (from 1, as the user
    /// counts), `source`, `action`, `changed`, `skipped`, `undone`.
    func logRecord(at index: Int, of history: History, in model: ModelDescriptor) -> Value {
        let entry = history.entries[index]
        return .record([
            "index": .int(Int64(history.shown(index) + 1)), "source": .string(entry.source.rawValue),
            "action": .string(entry.text(in: model)), "changed": .bool(entry.changed),
            "skipped": .bool(entry.skipped), "undone": .bool(index >= history.position),
        ])
    }
}
