import Foundation
import Testing

/// A storesh that goes on writing its journal while the test runs: its script comes from a
/// pipe the test keeps open.
private final class LiveStoresh {
    let process = Process()
    private let input = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: storeshBinary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["STORESH_HISTORY"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("storesh-test-history-\(UUID())").path
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Ends its script and waits for it.
    func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Waits (20 s at most) until the file at `path` holds `count` lines that end in `text`.
private func waitFor(
    _ count: Int, linesEndingIn text: String, in path: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    for _ in 0..<2000 {
        let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if contents.split(separator: "\n").filter({ $0.hasSuffix(text) }).count >= count { return }
        usleep(10_000)
    }
    Issue.record("\(path) never held \(count) records of \(text)", sourceLocation: sourceLocation)
}

@Suite("One journal, one writer")
struct JournalWriterTests {
    @Test func aSecondStoreshIsRefusedAndTheWritersRecordsAreWhole() throws {
        let journal = try temporaryPath("held.journal")
        let writer = try LiveStoresh(["--journal", journal])
        try writer.send("increment")
        waitFor(1, linesEndingIn: "increment", in: journal)
        for arguments in [["--resume", journal, "-c", "increment"], ["--journal", journal, "-c", "increment"]] {
            let second = try storesh(arguments)
            #expect(second.status != 0, "\(arguments)")
            #expect(
                second.stderr.contains("\(journal) is being written by storesh (pid \(writer.pid))"),
                "\(arguments): \(second.stderr)")
        }
        try writer.send("increment")
        waitFor(2, linesEndingIn: "increment", in: journal)
        #expect(try writer.finish() == 0)
        let resumed = try storesh(["--resume", journal, "-c", ":state count"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            resumed.stdout.hasSuffix("\n2\n"),
            "only the writer's actions, each whole: \(resumed.stdout) \(resumed.stderr)")
        #expect(!resumed.stderr.contains("cut short"), "\(resumed.stderr)")
    }

    @Test func twoResumesAtOnceDoNotInterleave() throws {
        let journal = try temporaryPath("twice.journal")
        #expect(try storesh(["--journal", journal, "-c", "increment"]).status == 0)
        let first = try LiveStoresh(["--resume", journal])
        try first.send("increment")
        waitFor(2, linesEndingIn: "increment", in: journal)
        let second = try storesh(["--resume", journal, "-c", "setCount 100"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("pid \(first.pid)"), "\(second.stderr)")
        #expect(try first.finish() == 0)
        #expect(try storesh(["--resume", journal, "-c", ":state count"]).stdout.hasSuffix("\n2\n"))
    }

    @Test func aWriterThatDiedLeavesNothingInTheWay() throws {
        let journal = try temporaryPath("stale.journal")
        let writer = try LiveStoresh(["--journal", journal])
        try writer.send("increment")
        waitFor(1, linesEndingIn: "increment", in: journal)
        kill(writer.pid, SIGKILL)
        writer.process.waitUntilExit()
        let resumed = try storesh(["--resume", journal, "-c", "increment", "-c", ":state count"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasSuffix("\n2\n"), "\(resumed.stdout)")
    }
}

@Suite("Reports and flushes that fail say why, and count as what they are")
struct FailedWriteTests {
    @Test func aJUnitReportThatCannotBeWrittenFailsTheRunButNoTranscript() throws {
        let folder = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent()
            .appendingPathComponent("reports").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let transcript = try temporaryFile(
            "one.transcript", "> increment\nincrement: state changed\n  ~ count: 0 → 1\n")
        let run = try storesh(
            ["test", "--junit", folder + "/report.xml", transcript],
            environment: ["LD_PRELOAD": faultShim, "STORESH_FAULT_PATH": folder])
        #expect(run.status == 1, "the report was asked for and is missing")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"), "the transcript passed: \(run.stdout)")
        #expect(
            run.stderr.contains("cannot write the JUnit report \(folder)/report.xml: No space left on device"),
            "\(run.stderr)")
    }

    @Test func aJournalThatCannotBeFlushedAtTheEndSaysWhy() throws {
        let journal = try temporaryPath("flush.journal")
        let run = try storesh(
            ["--journal", journal, "-c", "increment"],
            environment: [
                "LD_PRELOAD": faultShim, "STORESH_FAULT_PATH": journal, "STORESH_FAULT_AFTER": "1000000",
                "STORESH_FAULT_FSYNC": "1", "STORESH_FAULT": "EIO",
            ])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains("storesh: cannot flush journal \(journal) to the disk: Input/output error"),
            "\(run.stderr)")
    }
}
