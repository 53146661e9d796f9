import Foundation
import StoreHost
import StoreValue

/// The tape `:save-test` writes a transcript from: what a rerun needs beside the history's
/// actions (loads, stubs, clock steps, checks, lines that failed), each where it happened.
/// The command is `Commands/SaveTestCommand.swift`.
extension ShellCore {
    /// Commands that a transcript of the session repeats when they succeeded.
    static let tapedCommands: Set<String> = [
        "stub", "unstub", "advance", "wait", "expect", "check", "seed", "latency", "ties",
    ]
    /// Taped commands that set the session up rather than act on the timeline: kept when
    /// the history is rewound past them (a stub, an answer's latency, the order of ties).
    static let settingCommands: Set<String> = ["stub", "unstub", "fx", "latency", "ties"]

    /// Puts a line that ran on the tape when a transcript of the session needs it, and
    /// remembers the last action that failed (for `:bisect --crash` and `--error`).
    func tape(_ line: String, kind: LineKind, succeeded: Bool) {
        // Only commands are taped here. An action line (most lines of a long script)
        // returns before the session's history is looked up by name: that lookup was 17 %
        // of recording a 300,000-action history (store-ratios --only time-travel).
        // A failed action is noted as it fails (`noteFailedAction`), in a batch too.
        guard kind == .command else { return }
        let session = current
        let history = session.flatMap { recorder.histories[$0.model.qualifiedName] }
        let text = Self.trimmed(line)
        func append(_ kind: TapeStep.Kind, outlivesHistory: Bool = false) {
            debugging.tape.append(
                TapeStep(
                    kind: kind, model: session?.model.qualifiedName, history: history, position: history?.position ?? 0,
                    outlivesHistory: outlivesHistory))
        }
        let words = CommandWords.unquoted(String(text.dropFirst())).map(\.text)
        guard let first = words.first else { return }
        let name = Self.aliases[first] ?? first
        if name == "load", succeeded, words.count == 2 || words.count == 4, let plugin = host.plugins.last {
            append(.load(word: words[1], path: plugin.path, plugin: plugin.name))
        } else if Self.tapedCommands.contains(name) || (name == "fx" && words == ["fx", "leave-running"]) {
            // `:latency` and `:ties` alone only list.
            if (name == "latency" || name == "ties") && words.count == 1 { return }
            if succeeded {
                append(.command(text), outlivesHistory: Self.settingCommands.contains(name))
            } else if name == "expect" {
                append(.failed(text))
            }
        }
    }

    /// An action line that failed, wherever it ran (alone or in a script's batch): on the
    /// tape as '!> ', and the last failure for `:bisect --crash` and `--error` — a crash
    /// when it left an incident in the history (its worker went down).
    func noteFailedAction(_ line: String) {
        guard let session = current, let history = recorder.histories[session.model.qualifiedName] else { return }
        let text = Self.trimmed(line)
        let incidents = history.incidents.count
        let crashed =
            history.incidents.last?.position == history.position
            && incidents > debugging.incidentsSeen[ObjectIdentifier(history), default: 0]
        debugging.incidentsSeen[ObjectIdentifier(history)] = incidents
        debugging.tape.append(
            TapeStep(
                kind: .failed(text), model: session.model.qualifiedName, history: history, position: history.position,
                outlivesHistory: false))
        debugging.lastFailure = FailedAction(
            model: session.model.qualifiedName, text: text, position: history.position, crashed: crashed)
    }
}
