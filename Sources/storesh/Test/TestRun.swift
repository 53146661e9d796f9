import Foundation
import StoreHost
import StoreShell
import StoreshCommandLine

/// Runs `storesh test`; returns the exit status.
@MainActor
func runTests(_ options: TestOptions) async -> Int32 {
    let reporter = TestReporter(json: options.format == "json")
    if let journal = options.fromJournal, let out = options.out {
        return await writeJournalTranscript(journal, to: out, options: options, reporter: reporter)
    }
    let files: [String]
    switch options.files() {
    case .success(let list): files = list
    case .failure(let error):
        reporter.error(error.message)
        return 2
    }
    guard !files.isEmpty else {
        reporter.error("no *.transcript files in \(options.paths.joined(separator: ", ")); nothing was tested")
        return 1
    }
    let chosen = options.selected(files)
    guard !chosen.isEmpty else {
        reporter.error("none of the \(files.count) transcripts is selected by --filter/--shard; nothing was tested")
        return 1
    }
    let searchPath = PluginHost.defaultSearchPath(extra: options.pluginPath)
    let timeout = options.timeout > 0 ? options.timeout : nil
    if options.childResult {
        let result = await runTranscript(
            chosen[0], searchPath: searchPath, timeout: timeout, isolation: options.isolation,
            substitutes: options.modelSubstitutes)
        print(ChildResult(result).json)
        return 0
    }
    var outcomes: [TestOutcome] = []
    var tally = Tally()
    if options.jobs > 1 {
        // Each file in a storesh of its own, up to --jobs at once; reported in file order.
        let interruption = TestInterruption()
        await TestChildren(options: options, interruption: interruption).run(chosen) { outcome in
            report(outcome, update: options.update, with: reporter, into: &tally)
            outcomes.append(outcome)
        }
        if let signal = interruption.signal {
            reporter.error(
                "interrupted by \(TestInterruption.name(signal)): \(tally.passed) passed, \(tally.failed) failed, \(chosen.count - outcomes.count) not run; the transcripts running were stopped"
            )
            return 128 + signal
        }
    } else {
        for file in chosen {
            let began = DispatchTime.now().uptimeNanoseconds
            let result = await runTranscript(
                file, searchPath: searchPath, timeout: timeout, isolation: options.isolation,
                substitutes: options.modelSubstitutes)
            let outcome = TestOutcome(
                result: result, seconds: Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            report(outcome, update: options.update, with: reporter, into: &tally)
            outcomes.append(outcome)
        }
    }
    // A report that cannot be written fails the run, but it is no transcript's failure:
    // the counts stay what the transcripts did.
    var reportWritten = true
    if let path = options.junit {
        do throws(OutputFile.Problem) {
            try options.reportFile(path).write(JUnitReport.xml(outcomes))
        } catch {
            reporter.error("cannot write the JUnit report \(path): \(error.reason ?? error.description)")
            reportWritten = false
        }
    }
    reporter.summary(passed: tally.passed, failed: tally.failed, updated: options.update ? tally.updated : nil)
    return tally.failed == 0 && reportWritten ? 0 : 1
}

/// One transcript's result and how long it took.
struct TestOutcome {
    let result: TranscriptRunner.Result
    let seconds: Double
}

private struct Tally {
    var passed = 0, failed = 0, updated = 0
}

/// Reports one transcript (with its diff or problems); with --update, writes the files
/// whose only difference is output.
@MainActor
private func report(_ outcome: TestOutcome, update: Bool, with reporter: TestReporter, into tally: inout Tally) {
    let (result, seconds) = (outcome.result, outcome.seconds)
    if result.passed {
        tally.passed += 1
        reporter.transcript(result.file, .passed, seconds: seconds)
    } else if update, result.problems.isEmpty {
        // Only output differs: record it (and show what changed).
        do throws(RewriteError) {
            try rewriteInPlace(result.file, with: Array(result.updated.utf8))
            tally.updated += 1
            reporter.transcript(result.file, .updated, seconds: seconds, diff: result.diff)
        } catch {
            tally.failed += 1
            let problem = "cannot write it: \(error)"
            reporter.transcript(
                result.file, .failed, seconds: seconds, problems: reporter.json ? [problem] : [], note: ": " + problem)
        }
    } else {
        tally.failed += 1
        reporter.transcript(
            result.file, .failed, seconds: seconds, problems: result.problems, diff: result.diff,
            note: update ? " (not updated)" : "")
    }
}

/// Runs one transcript file; one that cannot be read, is not UTF-8 or holds no input fails.
@MainActor
private func runTranscript(
    _ file: String, searchPath: [String], timeout: Double?, isolation: IsolationOptions,
    substitutes: [(model: String, other: String)]
) async -> TranscriptRunner.Result {
    let failure = { (problem: String) in
        TranscriptRunner.Result(file: file, diff: [], updated: "", problems: ["\(file): \(problem)"])
    }
    let data: [UInt8]
    switch readWholeFile(file) {
    case .success(let bytes): data = bytes
    case .failure(let error): return failure("cannot be read: \(error.reason)")
    }
    guard let text = String(validating: data, as: UTF8.self) else {
        let invalid = TextLines.firstInvalidUTF8(in: data) ?? (line: 1, column: 1, byte: 0)
        return TranscriptRunner.Result(
            file: file, diff: [], updated: "",
            problems: [
                "\(file):\(invalid.line):\(invalid.column): not valid UTF-8 (\(TextLines.describe(invalid.byte)))"
            ])
    }
    guard !Transcript.parse(text).blocks.isEmpty else { return failure("holds no '> ' input, so it tests nothing") }
    return await TranscriptRunner.run(text, file: file, searchPath: searchPath, timeout: timeout) {
        isolation.apply(to: $0)
        $0.modelSubstitutes = substitutes
    }
}
