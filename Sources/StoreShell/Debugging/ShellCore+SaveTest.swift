import Foundation
import StoreHost
import StoreValue

/// `:save-test`: the session as a transcript that passes as written. The history gives
/// the actions of the current timeline; the tape gives what else a rerun needs (loads,
/// stubs, clock steps, checks, lines that failed), each where it happened.
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

    func saveTest(_ args: [String], origin: LineOrigin) async -> Bool {
        guard let session = current, let history = recorder.histories[session.model.qualifiedName] else {
            return fail(noCurrentModel, origin: origin)
        }
        let force = args.contains("--force")
        let words = args.filter { $0 != "--force" }
        let usage = "usage: :save-test FILE [FROM-TO] [--force]"
        guard let file = words.first, words.count <= 2 else { return fail(usage, origin: origin) }
        var compareFrom = 0
        var end = history.position
        if words.count == 2 {
            guard words[1].contains("-"),
                let span = LogSpan(words: [words[1]]),
                case let range = Self.logRange(span, count: history.position, dropped: history.dropped), !range.isEmpty
            else {
                return fail(
                    "\(usage): FROM-TO are actions of :log, from \(history.dropped + 1) to \(history.shown(history.position))",
                    origin: origin)
            }
            (compareFrom, end) = (range.lowerBound, range.upperBound)
        }
        guard history.dropped == 0 else {
            return fail(
                "the first \(history.dropped) actions were dropped (--history-limit \(history.limit ?? 0)), so a transcript could not rebuild the state; a journal (--journal) keeps every action",
                origin: origin)
        }
        // A transcript replays the actions, not what such an effect did.
        if let lost = history.unreplayable(replayingUpTo: end).first {
            let before =
                lost.position > compareFrom && lost.position < history.entries.count
                ? "; ':save-test \(file) \(history.shown(compareFrom) + 1)-\(history.shown(lost.position))' saves the actions before it"
                : ""
            return fail(
                "cannot save \(session.model.qualifiedName)'s actions as a test: after action \(history.shown(lost.position)) \(lost.note), so a transcript would replay them without it\(before); \(file) was not written",
                origin: origin)
        }
        let path = resolvePath(file)
        let target = OutputFile(
            path: path, named: file, kind: .savedTranscript, force: force, hint: "':save-test \(file) --force'")
        do throws(OutputFile.Problem) {
            try target.check()
        } catch {
            return fail(error.description, origin: origin)
        }
        var writer = TranscriptWriter(file: path)
        let ranged = words.count == 2
        writer.comment(
            "Recorded by :save-test from a session of \(session.model.qualifiedName)"
                + (ranged ? ", actions \(history.shown(compareFrom) + 1)-\(history.shown(end)) compared" : "") + ".")
        writer.comment("Run it with: storesh test \(file)")
        var inputs = loadInputs(writer)
        let loadsPlugins = !inputs.isEmpty
        // The models' world starts where every session's does (a `:seed` typed later is on
        // the tape, in its place).
        if host.worldIsOn { inputs.insert(SavedInput(":seed 0"), at: 0) }
        let models = ranged ? [session.model.qualifiedName] : modelsToSave()
        for model in models {
            guard let modelHistory = recorder.histories[model] else { continue }
            let last = model == session.model.qualifiedName ? end : modelHistory.position
            if models.count > 1 || model != "counter.counter" || loadsPlugins {
                inputs.append(SavedInput(":use \(model)"))
            }
            inputs += timelineInputs(
                of: model, history: modelHistory, upTo: last,
                comparedFrom: model == session.model.qualifiedName ? compareFrom : 0)
        }
        for input in inputs {
            writer.input(
                input.line, output: input.compared ? [] : [Transcript.outputNotCompared],
                expectsFailure: input.expectsFailure)
        }
        return await record(writer.text, to: target, inputs: inputs.count, origin: origin)
    }

    /// One line of a saved transcript.
    struct SavedInput {
        let line: String
        var compared = true
        var expectsFailure = false

        init(_ line: String, compared: Bool = true, expectsFailure: Bool = false) {
            self.line = line
            self.compared = compared
            self.expectsFailure = expectsFailure
        }
    }

    /// `:load` lines for the plugins loaded in the session (from the command line too),
    /// except Counter, which `storesh test` loads itself: by name as typed, else by a path
    /// relative to the transcript.
    private func loadInputs(_ writer: TranscriptWriter) -> [SavedInput] {
        host.plugins.filter {
            $0.loadedAs != nil || ($0.registeredName ?? $0.name).caseInsensitiveCompare("Counter") != .orderedSame
        }.map { plugin in
            let typed = debugging.tape.lazy.compactMap { step -> String? in
                guard case .load(let word, let path, _) = step.kind, path == plugin.path, !PluginHost.isPath(word)
                else { return nil }
                return word
            }.first
            return SavedInput(
                typed.map { TranscriptWriter.loadCommand($0, as: plugin.loadedAs) }
                    ?? writer.loadCommand(plugin: plugin.path, as: plugin.loadedAs))
        }
    }

    /// Models to write, in the order the session first used them.
    private func modelsToSave() -> [String] {
        var seen: [String] = []
        for model in debugging.tape.compactMap(\.model) + recorder.histories.keys.sorted() where !seen.contains(model) {
            if let history = recorder.histories[model],
                history.position > 0 || debugging.tape.contains(where: { $0.model == model })
            {
                seen.append(model)
            }
        }
        return seen
    }

    /// The actions of `model`'s timeline up to `end`, with the steps of the tape where they
    /// happened. Actions effects sent are left to the effects; where they came without a
    /// clock step (a real clock), a `:wait` lets them come before the next line.
    private func timelineInputs(of model: String, history: History, upTo end: Int, comparedFrom: Int) -> [SavedInput] {
        let steps = debugging.tape.filter { step in
            guard step.model == model else { return false }
            if step.history === history { return step.position <= end }
            return step.outlivesHistory
        }
        let stepsAt = Dictionary(grouping: steps) { $0.history === history ? $0.position : 0 }
        var inputs: [SavedInput] = []
        var effectsPending = false
        var clockSinceLine = false
        // Compared from the first action of the range on; the steps just before it are
        // the way there.
        func line(_ text: String, compared: Bool, expectsFailure: Bool = false) {
            if effectsPending { inputs.append(SavedInput(":wait", compared: compared)) }
            effectsPending = false
            clockSinceLine = false
            inputs.append(SavedInput(text, compared: compared, expectsFailure: expectsFailure))
        }
        for position in 0...end {
            for step in stepsAt[position] ?? [] {
                switch step.kind {
                case .command(let text) where text.hasPrefix(":advance") || text.hasPrefix(":wait"):
                    inputs.append(SavedInput(text, compared: position > comparedFrom))
                    effectsPending = false
                    clockSinceLine = true
                case .command(let text): line(text, compared: position > comparedFrom)
                case .failed(let text): line(text, compared: position > comparedFrom, expectsFailure: true)
                case .load: break
                }
            }
            guard position < end else { break }
            let entry = history.entries[position]
            if entry.skipped { continue }
            if entry.source == .effect {
                if !clockSinceLine { effectsPending = true }
                continue
            }
            line(text(of: entry, in: sessions[model]?.model ?? current!.model), compared: position >= comparedFrom)
        }
        if effectsPending { inputs.append(SavedInput(":wait")) }
        if !inFlight(in: model).isEmpty { inputs.append(SavedInput(":fx leave-running")) }
        return inputs
    }

    /// Runs the transcript `text` once to record its output, runs what that gives again
    /// to check it passes, and writes it to `target`.
    func record(_ text: String, to target: OutputFile, inputs: Int, origin: LineOrigin) async -> Bool {
        let file = target.name
        let recorded = await Self.recordTranscript(text, file: target.path, like: host)
        switch recorded {
        case .failure(let problem):
            return fail("\(problem); \(file) was not written", origin: origin)
        case .success(let transcript):
            do throws(TranscriptWriter.Problem) {
                try target.write(transcript)
            } catch {
                return fail(error.description, origin: origin)
            }
            output(
                .report(
                    kind: "save-test",
                    lines: [
                        "saved \(inputs) input\(inputs == 1 ? "" : "s") to \(file); 'storesh test \(file)' runs it"
                    ],
                    data: .record([
                        "file": .string(file), "inputs": .int(Int64(inputs)),
                    ])))
            return true
        }
    }

    /// `text` with its output recorded by running it in a fresh session set up as `host`
    /// is (where models run, how long they may take), then checked by running it again:
    /// the transcript, or why it would not pass as written.
    static func recordTranscript(_ text: String, file: String, like host: PluginHost) async -> Result<
        String, TranscriptWriter.Problem
    > {
        let setUp = { (fresh: PluginHost) in
            fresh.adoptSettings(of: host)
        }
        let first = await TranscriptRunner.run(text, file: file, searchPath: host.searchPath, setUp: setUp)
        guard first.problems.isEmpty else {
            return .failure(
                TranscriptWriter.Problem(
                    description: "the transcript would not pass as written: " + first.problems.joined(separator: "; ")))
        }
        let check = await TranscriptRunner.run(first.updated, file: file, searchPath: host.searchPath, setUp: setUp)
        guard check.passed else {
            let why = check.problems + check.diff.prefix(12)
            return .failure(
                TranscriptWriter.Problem(
                    description: "the recorded transcript did not pass when run again (its output is not repeatable): "
                        + why.joined(separator: "\n")))
        }
        return .success(first.updated)
    }
}
