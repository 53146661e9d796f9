import ArgumentParser
import Foundation
import StoreHost
import StoreShell
import StoreshCommandLine

/// `storesh test PATH...`: runs transcripts and reports, like a test runner.
struct TestOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run transcripts (recorded sessions) as tests.",
        discussion: """
            Each *.transcript file (directories are searched) runs in a fresh session, as storesh \
            starts with no flags, on a virtual clock and without colour. One line per file, a unified \
            diff for each failure, and a last line 'N passed, M failed'; exit status 1 when anything \
            failed. An input that reports an error fails its transcript unless written '!> ' (expected \
            to fail), and so do effects still running at the end (unless ':fx leave-running'). \
            --update writes the actual output into the files whose only difference is output; it \
            never records an unexpected error. --from-journal JOURNAL --out FILE turns a journal \
            (--journal) into a transcript of that session, its output recorded and checked by running it.
            """
    )

    @Argument(help: ArgumentHelp("Transcript files, or directories holding *.transcript files.", valueName: "PATH"))
    var paths: [String] = []

    @Option(
        name: .customLong("from-journal"),
        help: ArgumentHelp(
            "Write the session of this journal as a transcript (to --out) instead of running transcripts.",
            valueName: "JOURNAL"))
    var fromJournal: String?

    @Option(
        help: ArgumentHelp(
            "With --from-journal: the transcript to write (replaced only with --force).", valueName: "FILE"))
    var out: String?

    @Flag(
        help:
            "Replace an existing --out file (with --from-journal), or a --junit file storesh did not write (its own it replaces anyway)."
    )
    var force = false

    @Flag(help: "Write the actual output back into each file.")
    var update = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Run up to N transcripts at a time, each in a storesh process of its own (a crash fails that file, not the run). 1: one after another, in this process.",
            valueName: "N"))
    var jobs: Int = 1

    /// Set by a parent `storesh test --jobs N` for its children: run the one file given and
    /// print its result as one JSON line.
    @Flag(name: .customLong("child-result"), help: .hidden)
    var childResult = false

    @Option(
        name: .customLong("plugin-path"),
        help: ArgumentHelp("Also search this directory for plugins. Repeatable.", valueName: "DIR"))
    var pluginPath: [String] = []

    @Option(
        help: ArgumentHelp("Run only the transcripts whose path matches this regular expression.", valueName: "REGEX"))
    var filter: String?

    @Option(
        help: ArgumentHelp(
            "Run only shard I of N (1-based): every Nth transcript of the sorted list, for splitting a suite across machines.",
            valueName: "I/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Also write the results as JUnit XML (what GitLab, Jenkins and GitHub read).", valueName: "FILE"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "text: a line per transcript and a summary line; json: one JSON object per line (transcript, error and summary records).",
            valueName: "text|json"))
    var format = "text"

    // Unconditional: "--timeout -1" is a value out of range, not a missing value and an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Fail a transcript still running after this many seconds (checked between inputs; 0: no limit; at most 86400).",
            valueName: "SECONDS"))
    var timeout: Double = 120

    @Option(
        name: .customLong("substitute"),
        help: ArgumentHelp(
            "Run the transcripts with OTHER wherever they use MODEL (':use MODEL' makes OTHER current; names as ':use' takes them): the same steps and checks against a fixed or refactored model, e.g. --substitute classics.heap=classics.heapFixed. Repeatable.",
            valueName: "MODEL=OTHER"))
    var substitutes: [String] = []

    @OptionGroup var isolation: IsolationOptions

    /// The `--substitute MODEL=OTHER` pairs.
    var modelSubstitutes: [(model: String, other: String)] {
        substitutes.compactMap { text in
            guard let equals = text.firstIndex(of: "=") else { return nil }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    func validate() throws {
        for text in substitutes {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ValidationError("--substitute takes MODEL=OTHER (two model names), not '\(text)'")
            }
        }
        if fromJournal != nil {
            guard out != nil else {
                throw ValidationError("--from-journal needs --out FILE: where to write the transcript")
            }
            guard paths.isEmpty else {
                throw ValidationError(
                    "--from-journal writes a transcript and runs none; leave out \(paths.joined(separator: " "))")
            }
        } else {
            guard !paths.isEmpty else {
                throw ValidationError(
                    "give transcripts to run (files or directories), or --from-journal JOURNAL --out FILE")
            }
            guard out == nil else { throw ValidationError("--out goes with --from-journal") }
            guard !force || junit != nil else { throw ValidationError("--force goes with --from-journal or --junit") }
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard ["text", "json"].contains(format) else {
            throw ValidationError("--format must be text or json, not '\(format)'")
        }
        // Files written at the end are refused before the run, not after it.
        if let junit { try check(reportFile(junit), option: "--junit") }
        if fromJournal != nil, let out { try check(transcriptFile(out), option: "--out") }
        guard timeout >= 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be from 0 (no limit) to 86400 seconds, not \(timeout)")
        }
        if let filter, (try? NSRegularExpression(pattern: filter)) == nil {
            throw ValidationError("--filter '\(filter)' is not a regular expression")
        }
        if let shard, shardNumbers(shard) == nil {
            throw ValidationError("--shard must be I/N with 1 ≤ I ≤ N, like 2/4; not '\(shard)'")
        }
        try validatePluginPaths(pluginPath)
    }

    /// "2/4" → (2, 4).
    func shardNumbers(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            (1...count).contains(index)
        else { return nil }
        return (index, count)
    }

    /// The files this run takes: those `paths` name, filtered, then this shard's share.
    func selected(_ files: [String]) -> [String] {
        var chosen = files
        if let filter, let expression = try? NSRegularExpression(pattern: filter) {
            chosen = chosen.filter { expression.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
        }
        if let shard, let (index, count) = shardNumbers(shard) {
            chosen = chosen.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
        }
        return chosen
    }

    /// The transcript files named by `paths`, sorted; nil with a message for a missing path.
    func files() -> Result<[String], ValidationError> {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                return .failure(ValidationError("no such file or directory: \(path)"))
            }
            if isDirectory.boolValue {
                let entries = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                found += entries.filter { $0.hasSuffix(".transcript") }.sorted().map {
                    (path as NSString).appendingPathComponent($0)
                }
            } else {
                found.append(path)
            }
        }
        return .success(found)
    }
}

extension TestOptions {
    /// Where `--junit` writes: a file storesh wrote is replaced, another only with
    /// `--force`; a device, a FIFO or `/dev/stdout` is written through.
    func reportFile(_ path: String) -> OutputFile {
        OutputFile(path: path, kind: .junitReport, force: force, hint: "--force")
    }

    /// Where `--from-journal --out` writes: an existing file is replaced only with `--force`.
    func transcriptFile(_ path: String) -> OutputFile {
        OutputFile(path: path, kind: .savedTranscript, force: force, hint: "--force")
    }

    private func check(_ file: OutputFile, option: String) throws {
        do throws(OutputFile.Problem) {
            try file.check()
        } catch {
            throw ValidationError(
                error.reason.map { "\(option) \(file.path): \($0)" } ?? "\(option) \(error.description)")
        }
    }
}
