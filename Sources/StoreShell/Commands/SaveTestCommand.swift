import Foundation
import StoreHost
import StoreValue

/// What `:save-test` needs beyond the debugging context: each model's session and the
/// effects it has in flight (a timeline that ends with some running says so). `ShellCore`
/// is the one conformer.
@MainActor
protocol SaveTestContext: DebuggingContext {
    /// The session of the model named `model` (`plugin.model`), if it has one.
    func session(of model: String) -> Session?
    /// The effects `model` has in flight, by id.
    func inFlight(in model: String) -> [EffectLedger.Running]
}

/// `:save-test FILE [FROM-TO] [--force]`: the session, written as a transcript.
struct SaveTestCommand: ShellCommand {
    let name = "save-test"
    let usage = ":save-test FILE [FROM-TO] [--force]"
    let summary = "write the session as a transcript that passes as written"
    let detail = [
        "The loads, stubs, clock steps, checks and the actions of the current timeline (FROM-TO: only those actions of :log are compared; the ones before are run with their output not compared), with their output recorded by running it once. A line that failed is written '!> '. Plugin paths are relative to FILE. An existing FILE is replaced only with --force."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await saveTest(arguments.words, origin: origin, in: core)
    }

    /// Writes the session's timeline (FROM-TO compared) as a transcript, recorded by running it.
    @MainActor private func saveTest(_ args: [String], origin: LineOrigin, in context: some SaveTestContext) async
        -> Bool
    {
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        let force = args.contains("--force")
        let words = args.filter { $0 != "--force" }
        let usage = "usage: :save-test FILE [FROM-TO] [--force]"
        guard let file = words.first, words.count <= 2 else { return context.fail(usage, origin: origin) }
        var compareFrom = 0
        var end = history.position
        if words.count == 2 {
            guard words[1].contains("-"),
                let span = LogSpan(words: [words[1]]),
                case let range = span.entries(count: history.position, dropped: history.dropped), !range.isEmpty
            else {
                return context.fail(
                    "\(usage): FROM-TO are actions of :log, from \(history.dropped + 1) to \(history.shown(history.position))",
                    origin: origin)
            }
            (compareFrom, end) = (range.lowerBound, range.upperBound)
        }
        guard history.dropped == 0 else {
            return context.fail(
                "the first \(history.dropped) actions were dropped (--history-limit \(history.limit ?? 0)), so a transcript could not rebuild the state; a journal (--journal) keeps every action",
                origin: origin)
        }
        // A transcript replays the actions, not what such an effect did.
        if let lost = history.unreplayable(replayingUpTo: end).first {
            let before =
                lost.position > compareFrom && lost.position < history.entries.count
                ? "; ':save-test \(file) \(history.shown(compareFrom) + 1)-\(history.shown(lost.position))' saves the actions before it"
                : ""
            return context.fail(
                "cannot save \(session.model.qualifiedName)'s actions as a test: after action \(history.shown(lost.position)) \(lost.note), so a transcript would replay them without it\(before); \(file) was not written",
                origin: origin)
        }
        let path = context.resolvePath(file)
        let target = OutputFile(
            path: path, named: file, kind: .savedTranscript, force: force, hint: "':save-test \(file) --force'")
        do throws(OutputFile.Problem) {
            try target.check()
        } catch {
            return context.fail(error.description, origin: origin)
        }
        var writer = TranscriptWriter(file: path)
        let ranged = words.count == 2
        writer.comment(
            "Recorded by :save-test from a session of \(session.model.qualifiedName)"
                + (ranged ? ", actions \(history.shown(compareFrom) + 1)-\(history.shown(end)) compared" : "") + ".")
        writer.comment("Run it with: storesh test \(file)")
        var inputs = loadInputs(writer, in: context)
        let loadsPlugins = !inputs.isEmpty
        // The models' world starts where every session's does (a `:seed` typed later is on
        // the tape, in its place).
        if context.host.worldIsOn { inputs.insert(SavedInput(":seed 0"), at: 0) }
        let models = ranged ? [session.model.qualifiedName] : modelsToSave(in: context)
        for model in models {
            guard let modelHistory = context.recorder.histories[model] else { continue }
            let last = model == session.model.qualifiedName ? end : modelHistory.position
            if models.count > 1 || model != "counter.counter" || loadsPlugins {
                inputs.append(SavedInput(":use \(model)"))
            }
            inputs += timelineInputs(
                of: model, history: modelHistory, upTo: last,
                comparedFrom: model == session.model.qualifiedName ? compareFrom : 0, in: context)
        }
        for input in inputs {
            writer.input(
                input.line, output: input.compared ? [] : [Transcript.outputNotCompared],
                expectsFailure: input.expectsFailure)
        }
        return await record(writer.text, to: target, inputs: inputs.count, origin: origin, in: context)
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
    @MainActor private func loadInputs(_ writer: TranscriptWriter, in context: some SaveTestContext) -> [SavedInput] {
        context.host.plugins.filter {
            $0.loadedAs != nil || ($0.registeredName ?? $0.name).caseInsensitiveCompare("Counter") != .orderedSame
        }.map { plugin in
            let typed = context.debugging.tape.lazy.compactMap { step -> String? in
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
    @MainActor private func modelsToSave(in context: some SaveTestContext) -> [String] {
        var seen: [String] = []
        for model in context.debugging.tape.compactMap(\.model) + context.recorder.histories.keys.sorted()
        where !seen.contains(model) {
            if let history = context.recorder.histories[model],
                history.position > 0 || context.debugging.tape.contains(where: { $0.model == model })
            {
                seen.append(model)
            }
        }
        return seen
    }

    /// The actions of `model`'s timeline up to `end`, with the steps of the tape where they
    /// happened. Actions effects sent are left to the effects; where they came without a
    /// clock step (a real clock), a `:wait` lets them come before the next line.
    @MainActor private func timelineInputs(
        of model: String, history: History, upTo end: Int, comparedFrom: Int, in context: some SaveTestContext
    ) -> [SavedInput] {
        let steps = context.debugging.tape.filter { step in
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
            line(
                entry.text(in: context.session(of: model)?.model ?? context.current!.model),
                compared: position >= comparedFrom)
        }
        if effectsPending { inputs.append(SavedInput(":wait")) }
        if !context.inFlight(in: model).isEmpty { inputs.append(SavedInput(":fx leave-running")) }
        return inputs
    }

    /// Runs the transcript `text` once to record its output, runs what that gives again
    /// to check it passes, and writes it to `target`.
    @MainActor private func record(
        _ text: String, to target: OutputFile, inputs: Int, origin: LineOrigin, in context: some SaveTestContext
    ) async -> Bool {
        let file = target.name
        let recorded = await TranscriptWriter.recorded(text, file: target.path, like: context.host)
        switch recorded {
        case .failure(let problem):
            return context.fail("\(problem); \(file) was not written", origin: origin)
        case .success(let transcript):
            do throws(TranscriptWriter.Problem) {
                try target.write(transcript)
            } catch {
                return context.fail(error.description, origin: origin)
            }
            context.output(
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
}
