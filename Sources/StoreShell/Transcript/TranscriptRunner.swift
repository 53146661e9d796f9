import Dispatch
import Foundation
package import StoreHost

/// Runs transcripts: each in a fresh session exactly as storesh starts with no flags (the
/// bundled Counter loaded and current), on a virtual clock, without colour, settling
/// after every input so effects report in a stable order.
@MainActor
package enum TranscriptRunner {
    /// What running one transcript found.
    package struct Result: Sendable {
        package let file: String
        /// The output matched and nothing went wrong that the output cannot show.
        package var passed: Bool { diff.isEmpty && problems.isEmpty }
        /// A unified diff of the file against what the session actually printed.
        package let diff: [String]
        /// The file with its expected output replaced by the actual output (for --update).
        package let updated: String
        /// What fails the transcript whatever its expected output says, FILE:LINE first: a
        /// setup that failed, an error from an input not written `!> `, a `!> ` input that
        /// succeeded, effects still running at the end. `--update` never records these.
        package let problems: [String]

        package init(file: String, diff: [String], updated: String, problems: [String]) {
            self.file = file
            self.diff = diff
            self.updated = updated
            self.problems = problems
        }
    }

    /// Runs the transcript `text` read from `file`. With a `timeout` (seconds), a
    /// transcript still running after it stops at the next input and fails; the check is
    /// between inputs, so a plugin call that never returns is not cut short. A timeout too
    /// long to count (or not a number) is no limit.
    /// `setUp` configures the host before anything loads (where plugins run).
    package static func run(
        _ text: String, file: String, searchPath: [String], timeout: Double? = nil,
        setUp: (PluginHost) -> Void = { _ in }
    ) async -> Result {
        let deadline = timeout.map(DispatchTime.uptimeNanoseconds(afterSeconds:))
        let transcript = Transcript.parse(text)
        let host = PluginHost(clock: VirtualClock(), searchPath: searchPath)
        setUp(host)
        var printed: [String] = []
        var errors: [String] = []
        let formatter = OutputFormatter(format: .tree, color: false)
        let core = ShellCore(host: host, showDiff: true, reportActions: true) { output in
            if case .error(let error) = output { errors.append(error.message) }
            printed += formatter.lines(for: output)
        }
        core.settlesAfterEveryInput()
        // Paths in the transcript (:load ../x.so, :import, :export) are relative to its folder.
        core.baseDirectory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        do {
            try host.load("Counter")
            try core.use("counter")
        } catch {
            let problem =
                "\(file): setup failed, nothing was tested: \(error) (is the plugin search path right? --plugin-path, STORESH_PLUGIN_PATH)"
            return Result(file: file, diff: [], updated: text, problems: [problem])
        }
        var problems: [String] = []
        var actualByLine: [Int: [String]] = [:]
        for block in transcript.blocks {
            if let deadline, DispatchTime.now().uptimeNanoseconds > deadline {
                problems.append("\(file):\(block.line): timed out after \(timeout ?? 0) s; the rest was not run")
                break
            }
            printed = []
            errors = []
            // Errors are output like any other; without FILE:LINE, which would change
            // whenever the file is updated.
            let input = block.input.joined(separator: "\n")
            let lossesBefore = core.recovery.losses
            await core.execute(input, origin: .prompt)
            await core.settle()
            while printed.last == "" { printed.removeLast() }
            actualByLine[block.line] = printed
            if let error = errors.first, !block.expectsError, let setup = setupCommand(input) {
                // Everything after a failed :load or :use would run against another model
                // and fail in cascade: one problem, with what to check, and nothing more.
                problems.append(
                    "\(file):\(block.line): '\(input)' failed, so the rest of the transcript was not run (it would have run against another model): \(error); \(setupHint(setup))"
                )
                return Result(file: file, diff: [], updated: text, problems: problems)
            }
            // An input whose output is not compared may be refused (a fix may refuse what
            // the bug let through); a crash or a hang still fails it.
            let refusalAllowed =
                block.expected.map(\.text) == [Transcript.outputNotCompared] && core.recovery.losses == lossesBefore
            if let error = errors.first, !block.expectsError, !refusalAllowed {
                problems.append(
                    "\(file):\(block.line): '\(input)' failed, and the transcript does not expect it to (write it as '!> \(block.input[0])' if it should): \(error)"
                )
            } else if errors.isEmpty, block.expectsError {
                problems.append("\(file):\(block.line): '\(input)' is written '!> ' (expected to fail) but succeeded")
            }
            if core.quitRequested { break }
        }
        if let unfinished = core.unfinishedEffects() {
            problems.append("\(file): \(unfinished)")
        }
        // The file as it would read with the actual output, keeping (re)/(glob) lines that
        // matched, so the diff shows only real differences.
        var items: [Transcript.Item] = []
        let blocks = transcript.blocks
        var blockIndex = 0
        var position = 0
        let source = transcript.items
        while position < source.count {
            let item = source[position]
            guard case .input(_, let line) = item else {
                if case .output = item {} else { items.append(item) }
                position += 1
                continue
            }
            items.append(item)
            position += 1
            let expected = blocks[blockIndex].expected
            blockIndex += 1
            let actual = actualByLine[line] ?? []
            if expected.map(\.text) == [Transcript.outputNotCompared] {
                // Whatever the input printed matches, and the marker stays.
                items.append(.output(Transcript.outputNotCompared, line: 0))
            } else {
                for (offset, text) in actual.enumerated() {
                    let matched = offset < expected.count && Transcript.matches(text, expected[offset].text)
                    items.append(.output(matched ? expected[offset].text : text, line: 0))
                }
            }
            // Skip the old output (and the blanks inside it) up to the next input/comment,
            // keeping the blank lines that separate blocks.
            var trailing: [Transcript.Item] = []
            while position < source.count {
                switch source[position] {
                case .output: trailing.removeAll()
                case .blank: trailing.append(.blank)
                case .input, .comment: break
                }
                if case .input = source[position] { break }
                if case .comment = source[position] { break }
                position += 1
            }
            items += trailing
        }
        let updated = Transcript(
            items: items, expectedFailures: transcript.expectedFailures, byteOrderMark: transcript.byteOrderMark
        ).text
        let oldLines = Array(TextLines.split(text).map(String.init).dropLast(TextLines.endsWithNewline(text) ? 1 : 0))
        let newLines = Array(TextLines.split(updated).map(String.init).dropLast(1))
        let diff = UnifiedDiff.lines(
            from: oldLines, to: newLines, oldName: file + " (expected)", newName: file + " (actual)")
        return Result(file: file, diff: diff, updated: updated, problems: problems)
    }

    /// `load` or `use` when `input` is that command: the lines a transcript's later lines
    /// depend on.
    static func setupCommand(_ input: String) -> String? {
        let (kind, start) = LineKind.classify(input)
        guard kind == .command else { return nil }
        let word = input[start...].dropFirst().prefix { !$0.isWhitespace }
        return ["load", "use"].contains(word) ? String(word) : nil
    }

    /// What to check when a setup command failed.
    private static func setupHint(_ command: String) -> String {
        command == "load"
            ? "a path in a transcript is relative to the transcript's folder (is the plugin built?), and a plugin given by name is looked up in --plugin-path and STORESH_PLUGIN_PATH"
            : "':models' lists the models loaded; ':load' the plugin that has it first"
    }
}
