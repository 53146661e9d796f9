import Foundation
import Testing

/// `storesh explore` on models with bugs on purpose (Tests/Plugins/planted.c): each bug
/// is found within a small budget, shrunk to at most one step more than the least run
/// that shows it, and handed back as a transcript that fails `storesh test` while the bug
/// is there and passes against a build with the bug fixed.
/// (Serialized: each test waits on storesh processes, holding a thread of the shared pool.)
@Suite(.serialized) struct ExploreTests {
    struct Planted: Sendable, CustomStringConvertible {
        let model: String
        let options: [String]
        /// The fewest steps that show the bug.
        let minimal: Int
        let failure: String
        var description: String { model }
    }

    static let bugs = [
        // The invariant is the model's own (sp_model.invariants): no flag needed.
        Planted(
            model: "bank", options: [], minimal: 2,
            failure: "failure: invariant balance >= 0 broken: balance is -1, expected >= 0"),
        Planted(model: "deep", options: [], minimal: 5, failure: "failure: the model crashed: SIGABRT"),
        Planted(model: "shelf", options: [], minimal: 3, failure: "failure: the model crashed: SIGABRT"),
        Planted(
            model: "stall", options: ["--action-timeout", "0.5"], minimal: 4,
            failure: "failure: the model hung: no answer in 0.5s"),
    ]

    /// A folder of its own with the planted plugin in `lib/`.
    static func workspace() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-explore-\(UUID())").path
        _ = try buildPlanted(into: directory + "/lib", fixed: false)
        return directory
    }

    static func explore(_ directory: String, _ model: String, _ options: [String]) throws -> Run {
        try storesh(
            [
                "explore", "--plugin", directory + "/lib/libplanted.so", "--model", "planted." + model, "--seed", "7",
                "--runs", "300", "--steps", "40", "--out", directory + "/\(model).transcript",
            ] + options)
    }

    @Test(arguments: bugs)
    func aPlantedBugIsFoundShrunkAndHandedBackAsAFailingTest(_ bug: Planted) throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let found = try Self.explore(directory, bug.model, bug.options)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let lines = found.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "explore planted.\(bug.model): seed 7")
        #expect(lines.contains(bug.failure), "\(found.stdout)")
        let shrunk = lines.first { $0.hasPrefix("shrunk to ") }.flatMap { Int($0.split(separator: " ")[2]) }
        #expect(shrunk.map { $0 <= bug.minimal + 1 } == true, "\(found.stdout)")
        let transcript = directory + "/\(bug.model).transcript"
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(text.contains("> :load lib/libplanted.so\n"), "relative to the transcript: \(text)")
        #expect(text.contains("(output not compared)"))
        // Run from elsewhere: the transcript names its plugin relative to itself.
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "fails while the bug is there: \(buggy.stdout)")
        _ = try buildPlanted(into: directory + "/lib", fixed: true)
        let fixed = try storesh(["test", transcript])
        #expect(fixed.status == 0, "passes once it is fixed: \(fixed.stdout)\(fixed.stderr)\n\(text)")
    }

    @Test func theSameSeedGivesTheSameBytes() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.explore(directory, "deep", [])
        let firstFile = try Data(contentsOf: URL(fileURLWithPath: directory + "/deep.transcript"))
        let second = try Self.explore(directory, "deep", [])
        let secondFile = try Data(contentsOf: URL(fileURLWithPath: directory + "/deep.transcript"))
        #expect(first.status == 1 && second.status == 1)
        #expect(first.stdout == second.stdout)
        #expect(firstFile == secondFile)
        let json = try Self.explore(directory, "deep", ["--format", "json"])
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(record?["kind"] as? String == "explore")
        #expect((record?["failure"] as? [String: Any])?["kind"] as? String == "crash")
        #expect((record?["shrunk"] as? [Any])?.count == 5, "\(json.stdout)")
    }

    @Test func aModelWithoutABugPassesAndSaysWhatItTried() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.explore(directory, "sound", ["--runs", "40"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("no failure in 40 runs, "), "\(run.stdout)")
        #expect(run.stdout.contains("  increment  "), "the coverage table: \(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/sound.transcript"))
    }

    @Test func aModelThatIsNotDeterministicIsFound() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.explore(directory, "dice", [])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains("failure: not deterministic: the same actions in a fresh store gave a different count"),
            "\(run.stdout)")
        #expect(run.stdout.contains("shrunk to 1 step "), "\(run.stdout)")
        // Pinned by :replay-check: fails while the model is not deterministic, passes once it is.
        let transcript = directory + "/dice.transcript"
        #expect(
            try String(contentsOfFile: transcript, encoding: .utf8).hasSuffix(
                "> roll\n(output not compared)\n> :replay-check\n"))
        #expect(try storesh(["test", transcript]).status == 1)
        _ = try buildPlanted(into: directory + "/lib", fixed: true)
        let fixed = try storesh(["test", transcript])
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }

    @Test func aModelInThisProcessIsExploredToo() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try Self.explore(directory, "bank", ["--invariant", "balance >= 0", "--in-process"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("shrunk to 2 steps"), "\(run.stdout)")
    }

    /// `:explore` searches from where the session is, and leaves the session as it was.
    @Test func exploreAtThePromptStartsWhereTheSessionIs() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/from-here.transcript"
        let run = try storesh([
            "--plugin", directory + "/lib/libplanted.so", "--model", "planted.bank", "-c", "deposit 5", "-c",
            "withdraw 2",
            "-c", ":explore --invariant balance >= 0 --seed 3 --runs 50 --out \(transcript)", "-c", ":state balance",
            "-c", ":log",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("explore planted.bank: seed 3, each run after the session's 2 actions"), "\(run.stdout)"
        )
        #expect(run.stdout.contains("failure: invariant balance >= 0 broken: balance is -1, expected >= 0"))
        #expect(
            run.stdout.contains("\n3\n1  script  deposit 5\n2  script  withdraw 2\nat 2 of 2"),
            "the session is as it was: \(run.stdout)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(
            text.contains("> deposit 5\n(output not compared)\n> withdraw 2\n(output not compared)\n"), "\(text)")
        #expect(text.hasSuffix("> :check balance >= 0\n"), "\(text)")
        #expect(try storesh(["test", transcript]).status == 1)
        _ = try buildPlanted(into: directory + "/lib", fixed: true)
        #expect(try storesh(["test", transcript]).status == 0)
        let usage = try storesh([
            "--plugin", directory + "/lib/libplanted.so", "--model", "planted.bank", "-c", ":explore --steps 0",
        ])
        #expect(
            usage.stderr.contains("<command line>:1:18: error: --steps takes a number from 1 to 100000, not '0'")
                || usage.stderr.contains("error: --steps takes a number from 1 to 100000, not '0'"), "\(usage.stderr)")
    }

    /// Effects on the virtual clock: a stubbed service that fails fails the effect, and
    /// an effect that crashes its worker is a crash; both are pinned in the transcript
    /// (`:fx none-failed`, the clock step that crashes), and effects still waiting when a
    /// run ends get a minute of clock within it, so the blame stays in the run.
    /// `--stub` is made in the reference of `--against` too (issue 47): the explored model's
    /// greeting said "Hi" and the reference's own "Hello, NAME!", a difference of stubs, not
    /// of models.
    @Test func aStubIsMadeInTheReferenceToo() throws {
        let same = try storesh([
            "explore", "--plugin", "CGreeter", "--stub", #"greeting "Hi""#, "--against", "CGreeter", "--seed", "1",
            "--runs", "30", "--no-determinism-check",
        ])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("no failure in 30 runs"), "\(same.stdout)")
        let unknown = try storesh([
            "explore", "--plugin", "CGreeter", "--stub", #"greeting "Hi""#, "--against", "Counter", "--seed", "1",
            "--runs", "3",
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr.contains(#"stub greeting "Hi": the reference counter.counter refused it"#),
            "\(unknown.stderr)")
    }

    @Test func failedAndCrashingEffectsAreFound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-explore-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let greeter = try storesh([
            "explore", "--plugin", "CGreeter", "--stub", #"greeting fail "offline""#, "--seed", "1", "--runs", "50",
            "--out", directory + "/greet.transcript",
        ])
        #expect(greeter.status == 1, "\(greeter.stdout)\(greeter.stderr)")
        #expect(greeter.stdout.contains("failure: effect greetLater failed: greeting: offline"), "\(greeter.stdout)")
        let greetText = try String(contentsOfFile: directory + "/greet.transcript", encoding: .utf8)
        #expect(
            greetText.contains("> :stub greeting fail \"offline\"\n") && greetText.hasSuffix("> :fx none-failed\n"),
            "\(greetText)")
        #expect(try storesh(["test", directory + "/greet.transcript"]).status == 1)
        let faulty = try storesh([
            "explore", "--plugin", "Faulty", "--actions", "increment,crashLater", "--seed", "1", "--runs", "50",
            "--out", directory + "/faulty.transcript",
        ])
        #expect(faulty.status == 1)
        #expect(
            faulty.stdout.contains(
                "failure: the model crashed: SIGILL: Unexpectedly found nil while unwrapping an Optional value, Faulty.swift:"
            ), "\(faulty.stdout)")
        #expect(faulty.stdout.contains("   1  crashLater 0\n   2  :advance 1ms  <- fails here\n"), "\(faulty.stdout)")
        let crashed = try storesh(["test", directory + "/faulty.transcript"])
        #expect(
            crashed.status == 1 && crashed.stdout.contains("crashed while running effect #1 crashLater"),
            "\(crashed.stdout)")
        let unknown = try storesh(["explore", "--plugin", "Faulty", "--actions", "increment,nosuch"])
        #expect(
            unknown.status == 2
                && unknown.stderr.contains("faulty.faulty has no action 'nosuch'; its actions: increment, add,"),
            "\(unknown.stderr)")
    }

    /// A transcript that cannot be written (a full disk) is an error saying why; the
    /// report still reaches standard output, the transcript there before is whole, and
    /// the exit status is 3: a failure found, its transcript not written (it was 1, as if
    /// it had been).
    @Test func aFullDiskLeavesTheOldTranscriptWhole() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let old = "# Found by storesh explore (seed 1): an earlier find\n> :load ../lib/libplanted.so\n"
        try old.write(toFile: out + "/deep.transcript", atomically: true, encoding: .utf8)
        let run = try storesh(
            [
                "explore", "--plugin", directory + "/lib/libplanted.so", "--model", "planted.deep", "--seed", "7",
                "--runs", "300",
                "--steps", "40", "--out", out + "/deep.transcript",
            ],
            environment: ["LD_PRELOAD": faultShim, "STORESH_FAULT_PATH": out])
        #expect(run.status == 3, "a failure was found, and not written: \(run.stderr)")
        #expect(
            run.stderr.contains("cannot write \(out)/deep.transcript: No space left on device"), "\(run.stderr)")
        #expect(run.stdout.contains("shrunk to 5 steps"), "the report is not lost: \(run.stdout)")
        #expect(!run.stdout.contains("wrote "))
        #expect(try String(contentsOfFile: out + "/deep.transcript", encoding: .utf8) == old)
    }

    /// `--out` replaced whatever was at the path: a file explore did not write, without a
    /// word, and (the transcript renamed over it) a FIFO or, as root, `/dev/full`.
    @Test func anOutPathExploreDidNotWriteIsRefusedBeforeTheSearch() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let options = [
            "explore", "--plugin", directory + "/lib/libplanted.so", "--model", "planted.deep", "--seed", "7",
            "--runs", "300", "--steps", "40", "--out",
        ]
        let fifo = directory + "/out.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let toFIFO = try storesh(options + [fifo])
        #expect(toFIFO.status == 2, "\(toFIFO.stdout)\(toFIFO.stderr)")
        #expect(
            toFIFO.stderr == "storesh explore: cannot write \(fifo): it is a FIFO, not a regular file\n",
            "\(toFIFO.stderr)")
        #expect(toFIFO.stdout.isEmpty, "refused before the search")
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
        let notes = directory + "/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: false, encoding: .utf8)
        let refused = try storesh(options + [notes])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr
                == "storesh explore: \(notes) exists and storesh did not write it; --overwrite replaces it\n",
            "\(refused.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        let replaced = try storesh(options + [notes, "--overwrite"])
        #expect(replaced.status == 1, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8).hasPrefix("# Found by storesh explore (seed 7)"))
        let again = try storesh(options + [notes])
        #expect(again.status == 1, "its own file is replaced without --overwrite: \(again.stderr)")
    }

    /// A transcript pins the property, not the output on the way: the fixed ring keeps the
    /// newest first, so every state before the failure changes, and the transcript still
    /// passes against it, while it fails against the buggy build. An invariant is pinned by
    /// `:check`, a postcondition by `:check-after`.
    @Test(arguments: [
        (["--invariant", "size == count(contents)"], "> :check size == count(contents)\n"),
        (
            ["--after", "push", "accepted && size == count(contents) && contains(contents, args.value)"],
            "> :check-after push accepted && size == count(contents) && contains(contents, args.value)\n"
        ),
    ])
    func aTranscriptPassesOnceTheBugIsFixedThoughEarlierStatesChange(options: [String], pin: String) throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let found = try Self.explore(directory, "ring", ["--actions", "push"] + options)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("shrunk to 3 steps"), "\(found.stdout)")
        let transcript = directory + "/ring.transcript"
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(text.hasSuffix(pin), "\(text)")
        #expect(!text.contains("state changed"), "no step's output is compared: \(text)")
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "fails while the bug is there: \(buggy.stdout)")
        #expect(buggy.stdout.contains("check failed: "), "\(buggy.stdout)")
        _ = try buildPlanted(into: directory + "/lib", fixed: true)
        // The fix changes the states before the failure: the newest comes first.
        let replay = try storesh([
            "--plugin", directory + "/lib/libplanted.so", "--model", "planted.ring", "-c", "push 1", "-c", "push 2",
            "-c", ":state contents",
        ])
        #expect(replay.stdout.hasSuffix("[0]: 2\n[1]: 1\n"), "\(replay.stdout)")
        let fixed = try storesh(["test", transcript])
        #expect(fixed.status == 0, "passes once it is fixed: \(fixed.stdout)\(fixed.stderr)\n\(text)")
        let inProcess = try storesh(["test", "--in-process", transcript])
        #expect(inProcess.status == 0, "\(inProcess.stdout)")
    }

    @Test func aPostconditionNamesTheModelsActionsAndArguments() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let action = try Self.explore(directory, "ring", ["--after", "pop", "size >= 0"])
        #expect(action.status == 2)
        #expect(
            action.stderr.contains("--after pop: planted.ring has no action 'pop'; its actions: push, clear"),
            "\(action.stderr)")
        let argument = try Self.explore(directory, "ring", ["--after", "push", "args.vlaue > 0"])
        #expect(argument.status == 2)
        #expect(argument.stderr.contains("push has no argument 'vlaue'; its arguments: value"), "\(argument.stderr)")
        let column = try storesh(["explore", "--after", "push", "old(size) >"])
        #expect(column.status == 2)
        #expect(
            column.stderr.contains("--after push 'old(size) >': column 12: expected a value after '>'"),
            "\(column.stderr)")
        let outside = try storesh(["explore", "--invariant", "size == old(size)"])
        #expect(outside.status == 2)
        #expect(outside.stderr.contains("column 9: old(…) reads the state before an action"), "\(outside.stderr)")
    }

    /// `--time-limit` is a budget: with no `--runs` the search goes on until the time is
    /// spent (it stopped after the default 200 runs, a fraction of a second here).
    @Test func aTimeLimitWithoutRunsSearchesUntilItIsSpent() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try storesh([
            "explore", "--plugin", directory + "/lib/libplanted.so", "--model", "planted.sound", "--seed", "1",
            "--steps", "5", "--time-limit", "1.5",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(stopped by the time limit)"), "\(run.stdout)")
        let runs = run.stdout.split(separator: "\n").first { $0.hasPrefix("no failure in ") }
            .flatMap { Int($0.split(separator: " ")[3]) }
        #expect(runs.map { $0 > 200 } == true, "\(run.stdout)")
        let counted = try storesh([
            "explore", "--plugin", directory + "/lib/libplanted.so", "--model", "planted.sound", "--seed", "1",
            "--steps", "5", "--time-limit", "60", "--runs", "20",
        ])
        // Guided runs end where their plan does, so the steps are not 20 × 5.
        #expect(counted.stdout.contains("no failure in 20 runs, "), "--runs still bounds it: \(counted.stdout)")
    }

    @Test func mistakesInTheOptionsAreUsageErrors() throws {
        let bad = try storesh(["explore", "--invariant", "balance >="])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains("--invariant 'balance >=': column 11: expected a value after '>='"), "\(bad.stderr)")
        #expect(try storesh(["explore", "--runs", "0"]).status == 2)
        let missing = try storesh(["explore", "--plugin", "/nonexistent/libx.so"])
        #expect(missing.status == 2)
    }
}
