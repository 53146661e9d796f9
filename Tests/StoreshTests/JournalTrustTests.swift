import Foundation
import Testing

/// A path in a fresh temporary directory that does not exist yet.
func temporaryPath(_ name: String) throws -> String {
    let path = try temporaryFile(name, "")
    try FileManager.default.removeItem(atPath: path)
    return path
}

@Suite("The journal keeps every acknowledged action")
struct JournalTrustTests {
    @Test func aCutShortLastRecordIsDroppedAndTheNextActionGetsARecordOfItsOwn() throws {
        let journal = try temporaryPath("j")
        #expect(try storesh(["--journal", journal, "-c", "setCount 5", "-c", "increment"]).status == 0)
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data("1234abcd A counter.coun".utf8))  // storesh died mid-write
        try handle.close()
        let first = try storesh(["--resume", journal, "-c", "increment"])
        #expect(first.stderr.contains("the last record was cut short"))
        #expect(try storesh(["--resume", journal, "-c", "increment"]).status == 0)
        let last = try storesh(["--resume", journal, "-c", ":state count"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stdout.hasSuffix("\n8\n"), "\(last.stdout)")
    }

    @Test func aFullDiskIsAnErrorAndEveryActionReportedAsAcceptedIsInTheJournal() throws {
        let journal = try temporaryPath("j")
        let script = try temporaryFile("s.storesh", (1...3000).map { "setCount \($0)\n" }.joined())
        // A file-size limit of 8 KiB stands in for a full disk (the write fails with EFBIG).
        let full = try run(
            "/bin/sh",
            [
                "-c", "trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\"", storeshBinary, "--journal", journal, "-f",
                script,
            ], input: Data())
        #expect(full.status == 1, "a journal that could not be written makes the run fail")
        #expect(
            full.stderr.contains("error: cannot write to journal \(journal): File too large; nothing was done"),
            "\(full.stderr.prefix(500))")
        let accepted = full.stdout.split(separator: "\n").filter { $0.hasSuffix("state changed") }.count
        #expect(accepted > 0 && accepted < 3000)
        let resumed = try storesh(["--resume", journal, "-c", ":state count"])
        #expect(
            resumed.stdout.hasSuffix("\n\(accepted)\n"),
            "the last acknowledged action is the last one in the journal: \(resumed.stdout) \(resumed.stderr)")
    }

    @Test func aJournalThatIsNotAFileIsRefused() throws {
        let run = try storesh(["--journal", "/dev/full", "-c", "increment"])
        #expect(run.status == 2)
        #expect(
            run.stderr == "storesh: cannot use /dev/full as a journal: it is a character device, not a regular file\n")
    }

    /// A FIFO no process reads held `open` for writing for ever: storesh hung at start.
    @Test func aJournalOnAFIFOIsRefusedWithoutWaiting() throws {
        let folder = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
        let fifo = folder + "/journal.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        // A reader comes after 5 s, so a storesh that waits for one is freed, and fails the test.
        let reader = Thread {
            sleep(5)
            let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
            sleep(1)
            close(descriptor)
        }
        reader.start()
        let began = Date()
        let run = try storesh(["--journal", fifo, "-c", "increment"])
        #expect(Date().timeIntervalSince(began) < 4, "no wait for a reader")
        #expect(run.status == 2)
        #expect(run.stderr == "storesh: cannot use \(fifo) as a journal: it is a FIFO, not a regular file\n")
    }

    /// `--resume /dev/null` said "cannot read journal /dev/null", which it can; and a
    /// missing journal gave no reason in the system's words.
    @Test func aJournalThatCannotBeResumedSaysWhy() throws {
        let devNull = try storesh(["--resume", "/dev/null", "-c", "increment"])
        #expect(devNull.status == 2)
        #expect(
            devNull.stderr
                == "storesh: cannot use /dev/null as a journal: it is a character device, not a regular file (to go on from it, add --journal FILE)\n"
        )
        let missing = try storesh(["--resume", "/nonexistent/session.journal", "-c", "increment"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr == "storesh: cannot read journal /nonexistent/session.journal: No such file or directory\n")
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
        let notAFile = try storesh(["--resume", directory, "-c", "increment"])
        #expect(notAFile.stderr == "storesh: cannot read journal \(directory): it is a directory\n")
        // An empty journal read from a device resumes nothing, and goes on in a file.
        let copy = try temporaryPath("copy.journal")
        let fresh = try storesh([
            "--plugin", "Counter", "--resume", "/dev/null", "--journal", copy, "-c", "increment", "-c", ":state count",
        ])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.hasSuffix("\n1\n"), "\(fresh.stdout)")
    }

    /// A plugin loaded with --plugin beside --resume was not journaled: the actions sent to
    /// it were, so the next resume failed ("no model named 'todos.todos'").
    @Test func pluginsAndTheModelGivenBesideResumeAreJournaled() throws {
        let journal = try temporaryPath("session.journal")
        #expect(try storesh(["--journal", journal, "-c", "setCount 3"]).status == 0)
        let more = try storesh([
            "--plugin", "Counter", "--plugin", "Todos", "--model", "todos.todos", "--resume", journal, "-c",
            "add \"milk\", 1",
        ])
        #expect(more.status == 0, "\(more.stderr)")
        let again = try storesh([
            "--resume", journal, "-c", ":state added", "-c", ":use counter.counter", "-c", ":state count",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasSuffix("\n1\n3\n"), "\(again.stdout)")
        // Resuming with the same plugin named again adds nothing to the journal.
        let size = try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int
        let same = try storesh(["--plugin", "Todos", "--resume", journal, "-c", ":state count"])
        #expect(same.stdout.hasSuffix("\n3\n"), "the journal's last switch holds without --model: \(same.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int == size)
    }

    /// A journal names plugins by file: one written where the plugin has since gone (a CI
    /// artifact, a cleaned build directory) could not be resumed at all.
    @Test func aJournalWhosePluginFileIsGoneResumesWithThePluginOfThatName() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
        let moved = directory + "/libCounter.so"
        let built =
            URL(fileURLWithPath: storeshBinary).deletingLastPathComponent().path + "/libStoreshExampleCounter.so"
        try FileManager.default.copyItem(atPath: built, toPath: moved)
        let journal = try temporaryPath("moved.journal")
        #expect(try storesh(["--plugin", moved, "--journal", journal, "-c", "setCount 4"]).status == 0)
        try FileManager.default.removeItem(atPath: moved)
        let resumed = try storesh(["--resume", journal, "-c", "increment", "-c", ":state count"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasSuffix("\n5\n"), "\(resumed.stdout)")
        #expect(
            resumed.stderr.contains(
                "warning: \(journal):2: \(moved) is not there; going on with counter 1.0.0 from \(built)"),
            "\(resumed.stderr)")
        // No plugin of that name in the search path: an error that says both.
        let ghost = directory + "/libGhost.so"
        try FileManager.default.copyItem(atPath: built, toPath: ghost)
        let haunted = try temporaryPath("ghost.journal")
        #expect(try storesh(["--plugin", ghost, "--journal", haunted, "-c", "increment"]).status == 0)
        try FileManager.default.removeItem(atPath: ghost)
        let lost = try storesh(["--resume", haunted, "-c", ":state count"])
        #expect(lost.status == 1)
        #expect(
            lost.stderr.contains(
                "\(haunted):2: error: cannot resume: \(ghost) is not there, and no plugin named 'Ghost' stands in for it"
            ), "\(lost.stderr)")
    }

    @Test func anEmptyFileIsANewJournalButASessionIsNotOverwritten() throws {
        let journal = try temporaryFile("j", "")  // as mktemp leaves it
        #expect(try storesh(["--journal", journal, "-c", "setCount 3"]).status == 0)
        let again = try storesh(["--journal", journal, "-c", "increment"])
        #expect(again.status == 2)
        #expect(again.stderr.contains("\(journal) already holds a session"))
        #expect(again.stderr.contains("--resume \(journal)"))
        #expect(
            try storesh(["--journal", journal, "--resume", journal, "-c", "increment"]).status == 0,
            "--journal X --resume X goes on with X")
        #expect(try storesh(["--resume", journal, "-c", ":state count"]).stdout.hasSuffix("\n4\n"))
    }

    @Test func aPluginPathWithSpacesSurvivesTheRoundTrip() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent()
            .appendingPathComponent("my plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let library = directory.appendingPathComponent("libCCounter.so").path
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: storeshBinary).deletingLastPathComponent().appendingPathComponent(
                "libStoreshExampleCCounter.so"
            ).path, toPath: library)
        let journal = directory.appendingPathComponent("j").path
        #expect(try storesh(["--plugin", library, "--journal", journal, "-c", "setCount 2"]).status == 0)
        let resumed = try storesh(["--resume", journal, "-c", ":state count"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.hasSuffix("\n2\n"))
    }
}

@Suite("Scripts: unreadable input fails, any stream is read as it arrives")
struct ScriptTrustTests {
    @Test func aLineThatIsNotUTF8StopsTheScriptWithFileLineColumn() throws {
        let bad = try temporaryFile("bad", "")
        try Data("setCount 5\n\u{FF}\n".utf8).write(to: URL(fileURLWithPath: bad))
        try Data([0x73, 0x65, 0x74, 0x43, 0x6F, 0x75, 0x6E, 0x74, 0x20, 0x35, 0x0A, 0xFF, 0x0A]).write(
            to: URL(fileURLWithPath: bad))
        let run = try storesh(["-f", bad])
        #expect(run.status == 2)
        #expect(run.stderr == "\(bad):2:1: error: not valid UTF-8 (byte 0xFF); the script stops here\n")
        // One Latin-1 byte in a comment: the failing :expect after it must not vanish.
        var latin1 = Data("setCount 5\n# caf".utf8)
        latin1.append(0xE9)
        latin1.append(Data("\n:expect count == 6\n".utf8))
        try latin1.write(to: URL(fileURLWithPath: bad))
        let comment = try storesh(["-f", bad])
        #expect(comment.status == 2)
        #expect(comment.stderr.contains("\(bad):2:6: error: not valid UTF-8 (byte 0xE9)"))
    }

    @Test func aDirectoryOrMissingFileIsAnErrorBeforeAnythingRuns() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
        let run = try storesh(["-c", "increment", "-f", directory])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "storesh: cannot read script '\(directory)': it is a directory\n")
    }

    @Test func devStdinAndProcessSubstitutionAreReadAsStreams() throws {
        let viaDevStdin = try storesh(
            ["--quiet", "-c", "increment", "-f", "/dev/stdin", "-c", ":state count"], input: "increment\nincrement\n")
        #expect(viaDevStdin.stdout == "3\n")
        let substituted = try run(
            "/bin/bash",
            ["-c", "exec \"$0\" --quiet -f <(printf 'setCount 4\\nincrement\\n') -c ':state count'", storeshBinary],
            input: Data())
        #expect(substituted.status == 0, "\(substituted.stderr)")
        #expect(substituted.stdout == "5\n")
    }

    @Test func aFIFOIsReadAsItArrives() throws {
        let fifo = try temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        Thread {
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            writer.write(Data("setCount 7\n".utf8))
            usleep(50_000)
            writer.write(Data(":state count\n".utf8))
            try? writer.close()
        }.start()
        let run = try storesh(["--quiet", "-f", fifo])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "7\n")
    }

    @Test func aLineLongerThanTheLimitIsAnErrorNamingIt() throws {
        let long = "setCount 1\n:state count\nsetCount " + String(repeating: " ", count: 2 << 20) + "5\n:state count\n"
        let run = try storesh(["--quiet"], input: long)
        #expect(run.status == 2)
        #expect(run.stdout == "1\n")
        #expect(
            run.stderr == "<stdin>:3:1: error: line is longer than 1048576 bytes (the limit); the script stops here\n")
        // Just under the limit: read whole, in linear time.
        let big = try storesh(
            ["--quiet"], input: "setCount " + String(repeating: " ", count: 1_000_000) + "5\n:state count\n")
        #expect(big.stdout == "5\n", "\(big.stderr)")
    }

    @Test func anUnclosedBracketNamesWhereItOpenedAndDoesNotSwallowTheNextCommand() throws {
        let script = try temporaryFile(
            "u.storesh", "setCount [1,\n  2\n:state count\nincrement\nsetCount(\n  7)\nsetTags \"abc\n")
        let run = try storesh(["-f", script])
        #expect(run.status == 1)
        #expect(
            run.stdout == "0\nincrement: state changed\nsetCount(\n  7): state changed\n",
            "the :state after the mistake ran")
        #expect(
            run.stderr == """
                \(script):1:10: error: this '[' is never closed (the next line starts a command)
                  setCount [1,
                           ^
                \(script):7:9: error: this quote is never closed (the script ends first)
                  setTags "abc
                          ^

                """)
    }
}
