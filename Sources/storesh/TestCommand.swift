import ArgumentParser
import Foundation
import StoreHost

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
        never records an unexpected error.
        """
    )

    @Argument(help: ArgumentHelp("Transcript files, or directories holding *.transcript files.", valueName: "PATH"))
    var paths: [String]

    @Flag(help: "Write the actual output back into each file.")
    var update = false

    @Option(help: ArgumentHelp("Run up to N transcripts at a time.", valueName: "N"))
    var jobs: Int = 1

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also search this directory for plugins. Repeatable.", valueName: "DIR"))
    var pluginPath: [String] = []

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
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
                found += entries.filter { $0.hasSuffix(".transcript") }.sorted().map { (path as NSString).appendingPathComponent($0) }
            } else {
                found.append(path)
            }
        }
        return .success(found)
    }
}

/// Runs `storesh test`; returns the exit status.
@MainActor
func runTests(_ options: TestOptions) async -> Int32 {
    let files: [String]
    switch options.files() {
    case .success(let list): files = list
    case .failure(let error):
        FileHandle.standardError.write(Data("storesh test: \(error.message)\n".utf8))
        return 2
    }
    guard !files.isEmpty else {
        FileHandle.standardError.write(Data("storesh test: no *.transcript files in \(options.paths.joined(separator: ", ")); nothing was tested\n".utf8))
        return 1
    }
    let searchPath = PluginHost.defaultSearchPath(extra: options.pluginPath)
    var results: [TranscriptRunner.Result?] = Array(repeating: nil, count: files.count)
    // Up to --jobs transcripts at a time; each has its own host, clock and sessions.
    var start = 0
    while start < files.count {
        let chunk = Array(start..<min(start + options.jobs, files.count))
        var running: [(Int, Task<TranscriptRunner.Result, Never>)] = []
        for index in chunk {
            let file = files[index]
            running.append((index, Task { @MainActor in await runTranscript(file, searchPath: searchPath) }))
        }
        for (index, task) in running { results[index] = await task.value }
        start += options.jobs
    }
    var passed = 0, failed = 0, updated = 0
    for result in results.compactMap({ $0 }) {
        if result.passed {
            passed += 1
            print("PASS \(result.file)")
        } else if options.update, result.problems.isEmpty {
            // Only output differs: record it (and show what changed).
            do {
                try result.updated.write(toFile: result.file, atomically: true, encoding: .utf8)
                updated += 1
                print("UPDATED \(result.file)")
                print(result.diff.joined(separator: "\n"))
            } catch {
                failed += 1
                print("FAIL \(result.file): cannot write it: \(error.localizedDescription)")
            }
        } else {
            failed += 1
            print("FAIL \(result.file)" + (options.update ? " (not updated)" : ""))
            for problem in result.problems { print("  " + problem) }
            if !result.diff.isEmpty { print(result.diff.joined(separator: "\n")) }
        }
    }
    print("\(passed) passed, \(failed) failed" + (options.update ? ", \(updated) updated" : ""))
    return failed == 0 ? 0 : 1
}

/// Runs one transcript file; one that cannot be read, is not UTF-8 or holds no input fails.
@MainActor
private func runTranscript(_ file: String, searchPath: [String]) async -> TranscriptRunner.Result {
    let failure = { (problem: String) in TranscriptRunner.Result(file: file, diff: [], updated: "", problems: ["\(file): \(problem)"]) }
    guard let data = FileManager.default.contents(atPath: file) else { return failure("cannot be read") }
    guard let text = String(validating: data, as: UTF8.self) else { return failure("is not valid UTF-8") }
    guard !Transcript.parse(text).blocks.isEmpty else { return failure("holds no '> ' input, so it tests nothing") }
    return await TranscriptRunner.run(text, file: file, searchPath: searchPath)
}
