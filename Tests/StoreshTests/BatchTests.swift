import Foundation
import Glibc
import Testing

@Suite("storesh in batch mode, as a program")
struct BatchTests {
    @Test func linesFromArgumentsRunInOrder() throws {
        let run = try storesh(["-c", "increment", "-c", "setCount 5", "-c", ":state count"])
        #expect(run.status == 0)
        #expect(run.stdout == "increment: state changed\nsetCount 5: state changed\n5\n")
        #expect(run.stderr == "")
    }

    @Test func scriptsReportFileLineAndColumnAndGoOn() throws {
        let script = try temporaryFile(
            "counter.storesh", "increment\nsetCount \"x\"\n# a comment\nincrement\n:state count\n")
        let run = try storesh(["-f", script])
        #expect(run.status == 1, "a failed line makes the exit status 1")
        #expect(run.stderr.contains("\(script):2:10: error: setCount: this argument should be int, not string \"x\""))
        #expect(run.stdout.hasSuffix("2\n"), "lines after the error still ran")
    }

    @Test func bailStopsAtTheFirstError() throws {
        let script = try temporaryFile("bail.storesh", "increment\nnope\nincrement\n")
        let run = try storesh(["--bail", "-f", script, "-c", ":state count"])
        #expect(run.status == 1)
        #expect(run.stdout == "increment: state changed\n")
    }

    @Test func standardInputIsAScriptWhenItIsNotATerminal() throws {
        let run = try storesh(["--quiet"], input: "increment\nincrement\n:state\n")
        #expect(run.status == 0)
        #expect(run.stdout == "count: 2\n")
    }

    @Test func statementsContinueOverLines() throws {
        let run = try storesh(
            ["--plugin", "Todos", "--quiet"], input: "add(title: \"a\",\n    priority: 1)\n:state todos[0].title\n")
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("\"a\"\n"))
    }

    @Test func usageErrorsExitWithTwo() throws {
        let unknown = try storesh(["--bogus"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown option '--bogus'"))
        let missing = try storesh(["-f", "/nonexistent/script.storesh"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr == "storesh: cannot read script '/nonexistent/script.storesh': No such file or directory\n")
        let format = try storesh(["--format", "xml"])
        #expect(format.status == 2)
    }

    @Test func versionAndHelpNameTheSubcommands() throws {
        let version = try storesh(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("storesh 0.2.0 (plugin ABI 1, "))
        let help = try storesh(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("shell (default)"))
        #expect(help.stdout.contains("test                    Run transcripts"))
        let shellHelp = try storesh(["shell", "--help"])
        #expect(shellHelp.stdout.contains("--journal <PATH>"))
        #expect(try storesh(["shell", "-c", ":state count"]).stdout == "0\n")
    }

    @Test func aPluginThatFailsIsReportedAndTheOthersLoad() throws {
        let bad = try temporaryFile("libbroken.so", "not a library")
        let run = try storesh(["--plugin", bad, "--plugin", "CCounter", "-c", "increment"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(bad): not a loadable shared library"))
        #expect(run.stdout.contains("loaded ccounter 1.0.0: ccounter.ccounter"))
        #expect(run.stdout.contains("increment: state changed"))
    }

    /// After '--model nosuch' Counter was loaded and none was current, and every line said
    /// "no model is loaded; load one with :load NAME" — wrong, and the wrong remedy.
    @Test func aModelThatIsNotThereLeavesNoneCurrentAndSaysWhatIsLoaded() throws {
        let run = try storesh([
            "--model", "nosuch", "-c", "increment", "-c", ":reset", "-c", ":use counter.counter", "-c", "increment",
            "-c", ":state count",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: no model named 'nosuch'; loaded: counter.counter"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "-c#1:1: error: no model is current; choose one with :use MODEL (loaded: counter.counter)"),
            "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "-c#2:1: error: no model is current; choose one with :use MODEL (loaded: counter.counter)"),
            "\(run.stderr)")
        #expect(run.stdout.hasSuffix("\n1\n"), "\(run.stdout)")
        // With nothing loaded at all (an empty journal resumed), the remedy is :load.
        let journal = try temporaryPath("empty.journal")
        let none = try storesh(["--resume", "/dev/null", "--journal", journal, "-c", "increment"])
        #expect(none.stderr.contains("-c#1:1: error: no model is loaded; load one with :load NAME"), "\(none.stderr)")
    }

    @Test func jsonLinesCarryAKind() throws {
        let run = try storesh(
            ["--format", "json", "--plugin", "Auth", "--virtual-clock"],
            input: """
                authenticate user: "bo", password: "open sesame"
                :wait
                :state
                oops
                """)
        #expect(run.status == 1)
        let objects = try run.stdout.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        }
        #expect(
            objects.map { $0["kind"] as? String } == [
                "loaded", "action", "effect", "effect", "applied", "effect", "state", "error",
            ])
        let state = objects[6]["value"] as? [String: Any]
        #expect(state?["phase"] as? String == "signedIn")
        #expect(objects[7]["line"] as? Int == 4)
    }

    @Test func jsonRecordsAreStructuredAndQuietRunsKeepEffectDiffs() throws {
        let run = try storesh(
            ["--format", "json", "--quiet", "--plugin", "Auth", "--virtual-clock"],
            input: """
                authenticate user: "bo", password: "open sesame"
                :fx
                :wait
                :log
                :stub checkCredentials false, fail "down"
                :stubs
                :models
                """)
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        func record(_ kind: String) -> [String: Any]? { objects.first { $0["kind"] as? String == kind } }
        let fx = try #require(record("fx")?["effects"] as? [[String: Any]])
        #expect(fx.first?["label"] as? String == "authenticate")
        let applied = try #require(record("applied")?["diff"] as? [[String: Any]])
        #expect(applied.first?["path"] as? String == "phase", "the applied record has its diff in a --quiet run")
        let log = try #require(record("log"))
        #expect((log["entries"] as? [[String: Any]])?.map { $0["source"] as? String } == ["script", "effect"])
        #expect(log["position"] as? Int == 2)
        let stubs = try #require((record("stubs")?["services"] as? [[String: Any]])?.first)
        #expect(stubs["stubbed"] as? Bool == true)
        #expect((stubs["answers"] as? [Any])?.count == 2)
        let models = try #require(record("models")?["models"] as? [[String: Any]])
        #expect(models.first?["qualified_name"] as? String == "auth.auth")
        #expect(models.first?["current"] as? Bool == true)
    }

    @Test func eachResultIsFlushedAtOnce() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: storeshBinary)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("increment\n".utf8))
        // The answer must arrive while storesh is still waiting for more input.
        let line = output.fileHandleForReading.availableLine(timeout: 5)
        #expect(line == "increment: state changed")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

extension FileHandle {
    /// Reads until a newline or `timeout` seconds, without waiting for end of file.
    func availableLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var bytes: [UInt8] = []
        var pollDescriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            guard poll(&pollDescriptor, 1, 50) > 0 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(fileDescriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

/// A program reading storesh's output through a pipe: the pipe grows to 1 MB, so storesh
/// goes on while the reader catches up instead of stopping at every 64 KB.
@Suite("Output through a pipe")
struct OutputPipeTests {
    /// The pipe storesh wrote to, as the reader sees it once storesh has ended.
    private func pipeSize() throws -> (size: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: storeshBinary)
        process.arguments = ["--plugin", "Counter", "--format", "json", "-c", "increment"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // F_GETPIPE_SZ
        return (fcntl(output.fileHandleForReading.fileDescriptor, 1032), String(decoding: text, as: UTF8.self))
    }

    @Test func aPipeOnStandardOutputGrowsToOneMegabyte() throws {
        let (size, output) = try pipeSize()
        #expect(size == 1 << 20)
        #expect(output.contains(#""action":"increment""#), "the output is all there: \(output)")
    }
}

@Suite("storesh test, as a program")
struct TestCommandTests {
    @Test func reportsEachFileAndACountAndFailsWithOne() throws {
        let good = try temporaryFile("good.transcript", "> increment\nincrement: state changed\n  ~ count: 0 → 1\n")
        let directory = (good as NSString).deletingLastPathComponent
        try "> increment\nwrong\n".write(toFile: directory + "/bad.transcript", atomically: true, encoding: .utf8)
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        #expect(run.stdout.contains("FAIL \(directory)/bad.transcript\n--- \(directory)/bad.transcript (expected)"))
        #expect(run.stdout.contains("PASS \(directory)/good.transcript"))
        #expect(run.stdout.hasSuffix("1 passed, 1 failed\n"))
        let update = try storesh(["test", "--update", "--jobs", "2", directory])
        #expect(update.status == 0)
        #expect(
            try String(contentsOfFile: directory + "/bad.transcript", encoding: .utf8)
                == "> increment\nincrement: state changed\n  ~ count: 0 → 1\n")
        #expect(try storesh(["test", directory]).stdout.hasSuffix("2 passed, 0 failed\n"))
    }

    @Test func aMissingPathIsAUsageError() throws {
        let run = try storesh(["test", "/nonexistent/dir"])
        #expect(run.status == 2)
        #expect(run.stderr == "storesh test: no such file or directory: /nonexistent/dir\n")
    }
}

@Suite("The journal, as a program")
struct JournalProgramTests {
    @Test func killedWithSIGKILLAndResumedNothingPrintedIsLost() throws {
        let journal = try temporaryFile("session.journal", "")
        try FileManager.default.removeItem(atPath: journal)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: storeshBinary)
        process.arguments = ["--journal", journal]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = 0
        for index in 1...200 {
            input.fileHandleForWriting.write(Data((index == 100 ? "setCount 1000\n" : "increment\n").utf8))
            if output.fileHandleForReading.availableLine(timeout: 5) != nil { printed += 1 }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(printed == 200)
        let resumed = try storesh(["--resume", journal, "-c", ":state count", "-c", ":log 1"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("resumed \(journal)"))
        #expect(resumed.stdout.contains("\n1100\n"), "every action whose result was printed is back: \(resumed.stdout)")
        #expect(resumed.stdout.contains("200  script  increment"))
    }
}
