import Foundation
import Testing

/// A fresh directory holding `files` (name → contents).
private func transcriptDirectory(_ files: [String: String]) throws -> String {
    let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().appendingPathComponent(
        "suite"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, contents) in files {
        try contents.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }
    return directory
}

@Suite("Transcripts cannot pass while testing nothing")
struct TranscriptTrustTests {
    @Test func recordingAnErrorFromSetupIsLoudAndFailsAndWritesNothing() throws {
        // A forgotten plugin path: every :load fails. Recording must not make that "expected".
        let source = "> :load Missing\n> :state\n"
        let directory = try transcriptDirectory(["setup.transcript": source])
        let update = try storesh(["test", "--update", directory])
        #expect(update.status == 1)
        #expect(update.stdout.contains("FAIL \(directory)/setup.transcript (not updated)"))
        #expect(
            update.stdout.contains(
                "\(directory)/setup.transcript:1: ':load Missing' failed, so the rest of the transcript was not run (it would have run against another model): no plugin named 'Missing'"
            ), "\(update.stdout)")
        #expect(update.stdout.hasSuffix("0 passed, 1 failed, 0 updated\n"))
        #expect(try String(contentsOfFile: directory + "/setup.transcript", encoding: .utf8) == source)
        // Said to be expected, it records and then passes.
        try "!> :load Missing\n".write(toFile: directory + "/setup.transcript", atomically: true, encoding: .utf8)
        let marked = try storesh(["test", "--update", directory])
        #expect(marked.status == 0, "\(marked.stdout)")
        #expect(marked.stdout.hasSuffix("0 passed, 0 failed, 1 updated\n"))
        #expect(try storesh(["test", directory]).stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    /// A transcript whose `:load` failed ran on against the bundled Counter: fifteen
    /// cascading errors ("unknown action 'addBook'", "did you mean 'increment'?") hid the
    /// one that mattered. A failed `:load` or `:use` stops the transcript with one error
    /// that says what to check.
    @Test func aFailedSetupLineStopsTheTranscriptWithOneErrorAndAHint() throws {
        let lines =
            "> :load .build/debug/libLibrary.so\nloaded library 0.1.0: library.library\n> addBook id: \"b1\"\naddBook id: \"b1\": state changed\n> checkout\ncheckout: state changed\n"
        let directory = try transcriptDirectory([
            "load.transcript": lines,
            "use.transcript": "> :use library\n> addBook id: \"b1\"\naddBook: state changed\n",
        ])
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        #expect(!run.stdout.contains("unknown action"), "no cascade against another model: \(run.stdout)")
        #expect(!run.stdout.contains("@@"), "no diff of the lines never run: \(run.stdout)")
        let problems = run.stdout.split(separator: "\n").filter { $0.contains(".transcript:") }
        #expect(problems.count == 2, "one problem per transcript: \(problems)")
        #expect(
            run.stdout.contains(
                "\(directory)/load.transcript:1: ':load .build/debug/libLibrary.so' failed, so the rest of the transcript was not run (it would have run against another model): "
            ), "\(run.stdout)")
        #expect(
            run.stdout.contains("a path in a transcript is relative to the transcript's folder (is the plugin built?)"),
            "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "\(directory)/use.transcript:1: ':use library' failed, so the rest of the transcript was not run"),
            "\(run.stdout)")
        #expect(run.stdout.contains("':models' lists the models loaded"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("0 passed, 2 failed\n"))
    }

    @Test func anExpectedFailureThatSucceedsFails() throws {
        let directory = try transcriptDirectory([
            "x.transcript": "!> increment\nincrement: state changed\n  ~ count: 0 → 1\n"
        ])
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        #expect(run.stdout.contains("x.transcript:1: 'increment' is written '!> ' (expected to fail) but succeeded"))
    }

    @Test func effectsStillRunningAtTheEndFailUnlessAccepted() throws {
        let running = """
            > :load Auth
            loaded auth 1.0.0: auth.auth
            > authenticate user: "bo", password: "open sesame"
            authenticate user: "bo", password: "open sesame": state changed, 1 effect started
              ~ phase: "signedOut" → "authenticating"
              ~ user: null → "bo"
              ~ attempts: 0 → 1
            fx #1 authenticate started

            """
        let directory = try transcriptDirectory([
            "running.transcript": running, "accepted.transcript": running + "> :fx leave-running\n",
        ])
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains(
                "FAIL \(directory)/running.transcript\n  \(directory)/running.transcript: effects still running at the end: auth.auth fx #1 authenticate (running for 0ms); wait for them with :wait, or accept them with :fx leave-running"
            ), "\(run.stdout)")
        #expect(run.stdout.contains("PASS \(directory)/accepted.transcript"))
    }

    @Test func aBatchRunEndingWithEffectsInFlightFails() throws {
        let run = try storesh([
            "--plugin", "Auth", "--quiet", "-c", #"authenticate user: "bo", password: "open sesame""#,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: effects still running at the end: auth.auth fx #1 authenticate"))
        let waited = try storesh([
            "--plugin", "Auth", "--quiet", "-c", #"authenticate user: "bo", password: "open sesame""#, "-c", ":wait",
        ])
        #expect(waited.status == 0, "\(waited.stderr)")
    }

    @Test func updateSaysWhatItDid() throws {
        let directory = try transcriptDirectory([
            "same.transcript": "> increment\nincrement: state changed\n  ~ count: 0 → 1\n",
            "changed.transcript": "> increment\nold output\n",
        ])
        let update = try storesh(["test", "--update", directory])
        #expect(update.status == 0)
        #expect(update.stdout.contains("PASS \(directory)/same.transcript"))
        #expect(update.stdout.contains("UPDATED \(directory)/changed.transcript"))
        #expect(!update.stdout.contains("FAIL"))
        #expect(update.stdout.hasSuffix("1 passed, 0 failed, 1 updated\n"))
    }

    /// `--update` wrote a new file over the old one: a transcript linked from elsewhere
    /// stopped being a link, and its permissions became the umask's.
    @Test func updateWritesThroughALinkAndKeepsPermissions() throws {
        let directory = try transcriptDirectory(["real.transcript": "> increment\nold output\n"])
        let real = directory + "/real.transcript"
        let link = directory + "/linked.transcript"
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: real)
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let update = try storesh(["test", "--update", link])
        #expect(update.stdout.contains("UPDATED \(link)"), "\(update.stdout)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real, "still a link")
        #expect(
            try String(contentsOfFile: real, encoding: .utf8)
                == "> increment\nincrement: state changed\n  ~ count: 0 → 1\n")
        #expect(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int == 0o640)
    }

    @Test func pathsInATranscriptAreRelativeToItsFolder() throws {
        let directory = try transcriptDirectory([
            "paths.transcript": """
            > setCount 3
            setCount 3: state changed
              ~ count: 0 → 3
            > :export saved.log
            exported 1 action of counter.counter to saved.log
            > :reset
            > :import saved.log
            imported 1 action into counter.counter
            > :state count
            3

            """
        ])
        let elsewhere = try run(
            "/bin/sh", ["-c", "cd / && exec \"$0\" test \"$1\"", storeshBinary, directory + "/paths.transcript"],
            input: Data())
        #expect(elsewhere.status == 0, "\(elsewhere.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory + "/saved.log"))
    }

    @Test func aTranscriptThatTestsNothingFails() throws {
        let directory = try transcriptDirectory(["empty.transcript": "# nothing here\n"])
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        #expect(run.stdout.contains("empty.transcript: holds no '> ' input, so it tests nothing"))
        let emptyDirectory = try transcriptDirectory([:]) + "/nothing"
        try FileManager.default.createDirectory(atPath: emptyDirectory, withIntermediateDirectories: true)
        let none = try storesh(["test", emptyDirectory])
        #expect(none.status == 1)
        #expect(none.stderr == "storesh test: no *.transcript files in \(emptyDirectory); nothing was tested\n")
    }

    /// A transcript saved with CRLF line endings failed with a diff whose two sides looked
    /// the same ("-increment: state changed" against "+increment\r: state changed"): its lines
    /// end as a script's do, at LF with a CR before it dropped.
    @Test func aTranscriptWithCRLFLineEndingsPasses() throws {
        let directory = try transcriptDirectory([
            "crlf.transcript":
                "> increment\r\nincrement: state changed\r\n  ~ count: 0 → 1\r\n\r\n> :state count\r\n1\r\n"
        ])
        let run = try storesh(["test", directory + "/crlf.transcript"])
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasSuffix("1 passed, 0 failed\n"))
    }

    /// Bytes that are not UTF-8 are reported where they are, as in a script: FILE:LINE:COL.
    @Test func aTranscriptThatIsNotUTF8SaysWhere() throws {
        let directory = try transcriptDirectory([:])
        let file = directory + "/bytes.transcript"
        try Data("> increment\nincrement: state changed\n  ~ count: ".utf8 + [0xE2, 0x86] + Data(" 1\n".utf8)).write(
            to: URL(fileURLWithPath: file))
        let run = try storesh(["test", file])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\(file):3:12: not valid UTF-8 (byte 0xE2)"), "\(run.stdout)")
    }
}

@Suite("storesh test for large suites: filter, shards, JUnit, timeouts")
struct TestSuiteScaleTests {
    private func suite() throws -> String {
        let pass = "> increment\nincrement: state changed\n  ~ count: 0 → 1\n"
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent()
            .appendingPathComponent("suite").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d"] {
            try pass.write(toFile: "\(directory)/\(name).transcript", atomically: true, encoding: .utf8)
        }
        try "> increment\nwrong & <odd>\n".write(toFile: "\(directory)/e.transcript", atomically: true, encoding: .utf8)
        return directory
    }

    @Test func filterAndShardsSelectFilesAndShardsPartitionTheSuite() throws {
        let directory = try suite()
        let filtered = try storesh(["test", "--filter", "[bc]\\.transcript$", directory])
        #expect(filtered.stdout.hasSuffix("2 passed, 0 failed\n"), "\(filtered.stdout)")
        var seen: [String] = []
        for index in 1...3 {
            let shard = try storesh(["test", "--shard", "\(index)/3", directory])
            seen += shard.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }.map {
                String($0.split(separator: "/").last!)
            }
        }
        #expect(
            seen.sorted() == ["a.transcript", "b.transcript", "c.transcript", "d.transcript", "e.transcript"],
            "every file in exactly one shard")
        let bad = try storesh(["test", "--shard", "4/3", directory])
        #expect(bad.status == 2)
        let none = try storesh(["test", "--filter", "nothing-matches", directory])
        #expect(none.status == 1)
        #expect(none.stderr.contains("nothing was tested"))
    }

    /// `storesh test` had no --format json, which every other command has: a program had
    /// to scrape PASS/FAIL lines. Each line is now one JSON object, the same with --jobs.
    @Test(arguments: ["1", "2"])
    func jsonResultsAreARecordPerTranscriptAndASummary(jobs: String) throws {
        let directory = try suite()
        let run = try storesh(["test", "--format", "json", "--jobs", jobs, "--filter", "[de]\\.transcript", directory])
        #expect(run.status == 1)
        let records = try run.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.map { $0["kind"] as? String } == ["transcript", "transcript", "summary"], "\(run.stdout)")
        #expect(records[0]["file"] as? String == directory + "/d.transcript")
        #expect(records[0]["result"] as? String == "passed")
        #expect(records[0]["seconds"] is Double)
        #expect(records[1]["result"] as? String == "failed")
        #expect((records[1]["diff"] as? [String])?.contains("-wrong & <odd>") == true, "\(records[1])")
        #expect(records[2]["passed"] as? Int == 1 && records[2]["failed"] as? Int == 1 && records[2]["updated"] == nil)
        let nothing = try storesh(["test", "--format", "json", "--filter", "nothing-matches", directory])
        #expect(nothing.status == 1)
        #expect(
            nothing.stdout.hasPrefix(#"{"kind":"error","message":"none of the 5 transcripts is selected"#),
            "\(nothing.stdout)")
        let yaml = try storesh(["test", "--format", "yaml", directory])
        #expect(yaml.status == 2 && yaml.stderr.contains("--format must be text or json, not 'yaml'"))
        #expect(yaml.stderr.contains("Try 'storesh test --help'."), "the help of the command the mistake is in")
    }

    /// The JUnit report is written at the end: a path in a missing directory failed the
    /// run only after every transcript had run.
    @Test func aJUnitReportThatCannotBeWrittenIsRefusedBeforeAnythingRuns() throws {
        let directory = try suite()
        let missing = try storesh(["test", "--junit", "/nonexistent/report.xml", directory])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.contains("--junit /nonexistent/report.xml: no such directory /nonexistent"),
            "\(missing.stderr)")
        #expect(missing.stdout.isEmpty, "nothing ran: \(missing.stdout)")
        let intoDirectory = try storesh(["test", "--junit", directory, directory])
        #expect(intoDirectory.status == 2 && intoDirectory.stderr.contains("it is a directory"))
        let notes = try temporaryFile("notes.xml", "my notes\n")
        let notOurs = try storesh(["test", "--junit", notes, directory])
        #expect(notOurs.status == 2, "\(notOurs.stderr)")
        #expect(
            notOurs.stderr.contains("\(notes) exists and storesh did not write it; --force replaces it"),
            "\(notOurs.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        let forced = try storesh(["test", "--junit", notes, "--force", directory])
        #expect(forced.status == 1, "one transcript fails: \(forced.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8).contains("<testsuites tests=\"5\""))
        let closed = try storesh(["test", "--junit", "/dev/fd/987", directory])
        #expect(closed.status == 2 && closed.stderr.contains("descriptor 987 is not open"), "\(closed.stderr)")
        #expect(closed.stdout.isEmpty, "nothing ran: \(closed.stdout)")
    }

    /// `--junit /dev/stdout`: the report follows what was printed, in the same stream.
    @Test func aJUnitReportToStandardOutputFollowsTheRun() throws {
        let run = try storesh(["test", "--junit", "/dev/stdout", try suite()])
        #expect(run.status == 1)
        let report = try #require(run.stdout.range(of: "<testsuites tests=\"5\""), "\(run.stdout)")
        #expect(run.stdout[..<report.lowerBound].contains("FAIL "), "what was printed comes first: \(run.stdout)")
    }

    @Test func junitReportsEachFileAndItsFailure() throws {
        let directory = try suite()
        let report = directory + "/report.xml"
        let run = try storesh(["test", "--junit", report, directory])
        #expect(run.status == 1)
        let xml = try String(contentsOfFile: report, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count == 6)
        #expect(xml.contains(#"<testsuites tests="5" failures="1""#))
        #expect(xml.contains("<failure message=\"the output differs from the transcript\">"))
        #expect(xml.contains("+increment: state changed"))
        #expect(xml.contains("-wrong &amp; &lt;odd&gt;"), "markup in the diff is escaped")
    }

    /// `--timeout 1e300` stopped storesh with a trap (seconds × 1e9 did not fit in UInt64).
    @Test func aTimeoutOutOfRangeIsAUsageErrorNotACrash() throws {
        let file = try suite() + "/a.transcript"
        for value in ["1e300", "inf", "nan", "-1", "86400.5"] {
            let run = try storesh(["test", "--timeout=\(value)", file])
            #expect(run.status == 2, "--timeout=\(value): \(run.stderr)")
            #expect(
                run.stderr.contains("--timeout must be from 0 (no limit) to 86400 seconds, not"),
                "--timeout=\(value): \(run.stderr)")
        }
        // A negative number after the option is its value, not a missing value and an option.
        let negative = try storesh(["test", "--timeout", "-1", file])
        #expect(
            negative.status == 2
                && negative.stderr.contains("--timeout must be from 0 (no limit) to 86400 seconds, not -1.0"),
            "\(negative.stderr)")
        let jobs = try storesh(["test", "--jobs", "-2", file])
        #expect(jobs.status == 2 && jobs.stderr.contains("--jobs must be at least 1"), "\(jobs.stderr)")
        let longest = try storesh(["test", "--timeout", "86400", "--jobs", "2", file])
        #expect(longest.status == 0, "\(longest.stdout)")
    }

    /// A misspelt `--plugin-path` was passed over in silence, so a plugin of the same name
    /// elsewhere on the search path (a stale build in the working directory) was tested.
    @Test func aPluginPathThatIsNotADirectoryIsAUsageError() throws {
        let file = try suite() + "/a.transcript"
        for arguments in [
            ["test", "--plugin-path", "/nonexistent/plugins", file],
            ["--plugin-path", "/nonexistent/plugins", "-c", "increment"],
        ] {
            let run = try storesh(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.contains("--plugin-path /nonexistent/plugins: no such directory"),
                "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "nothing ran: \(run.stdout)")
        }
        let notADirectory = try storesh(["--plugin-path", file, "-c", "increment"])
        #expect(notADirectory.status == 2)
        #expect(notADirectory.stderr.contains("--plugin-path \(file): not a directory"), "\(notADirectory.stderr)")
        let existing = try storesh([
            "test", "--plugin-path", URL(fileURLWithPath: file).deletingLastPathComponent().path, file,
        ])
        #expect(existing.status == 0, "\(existing.stdout)")
    }

    /// A transcript that could not be read failed with "cannot be read" and no reason.
    /// In a folder given to `storesh test`: a folder named like a transcript, a link to
    /// nothing, and a file whose read fails (/proc/self/mem at offset 0: the test runs as
    /// root, so a mode-000 file would be read).
    @Test func aTranscriptThatCannotBeReadSaysWhy() throws {
        let directory = try transcriptDirectory([
            "good.transcript": "> increment\nincrement: state changed\n  ~ count: 0 → 1\n"
        ])
        try FileManager.default.createDirectory(
            atPath: directory + "/folder.transcript", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/gone.transcript", withDestinationPath: directory + "/nothing-here")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/mem.transcript", withDestinationPath: "/proc/self/mem")
        let run = try storesh(["test", directory])
        #expect(run.status == 1)
        for (name, reason) in [
            ("folder", "it is a directory"), ("gone", "No such file or directory"), ("mem", "Input/output error"),
        ] {
            #expect(
                run.stdout.contains("\(directory)/\(name).transcript: cannot be read: \(reason)"),
                "\(name): \(run.stdout)")
        }
        #expect(run.stdout.hasSuffix("1 passed, 3 failed\n"), "\(run.stdout)")
    }

    /// /dev/null can be read: it holds nothing, so it fails as a transcript that tests nothing.
    @Test func aDeviceThatReadsEmptyTestsNothing() throws {
        let link =
            URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path + "/null.transcript"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let run = try storesh(["test", link])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\(link): holds no '> ' input, so it tests nothing"), "\(run.stdout)")
    }

    @Test func aTranscriptPastItsTimeoutFails() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().path
        let long = String(repeating: "> increment\n", count: 20_000)
        try long.write(toFile: directory + "/long.transcript", atomically: true, encoding: .utf8)
        let run = try storesh(["test", "--timeout", "0.2", directory + "/long.transcript"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("timed out after 0.2 s; the rest was not run"), "\(run.stdout.prefix(400))")
    }
}
