import Foundation
import Testing

/// Effect schedules (`storesh explore --schedules`): the bugs that live in the order in
/// which service answers arrive (Tests/Plugins/latecomers.c) — a stale search answer that
/// overwrites a newer one, a cancel that races the answer — and in the order of timers due
/// together (Tests/Plugins/checkout.c) are found with schedules and never without, shrunk
/// to the fewest actions and the simplest schedule, and written as transcripts that fail
/// on the buggy build and pass on the fixed one.
/// (Serialized: each test waits on storesh processes, holding a thread of the shared pool.)
@Suite(.serialized) struct ExploreSchedulesTests {
    /// A folder with `liblatecomers.so` and `libcheckout.so` (the bugs), and each built
    /// with -DFIXED (`…-fixed.so`).
    static func workspace() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-late-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let header = tests.deletingLastPathComponent().appendingPathComponent("Sources/CStorePlugin/include").path
        for plugin in ["latecomers", "checkout"] {
            let source = tests.appendingPathComponent("Plugins/\(plugin).c").path
            for (flags, name) in [([String](), "lib\(plugin).so"), (["-DFIXED"], "lib\(plugin)-fixed.so")] {
                let built = try run(
                    "/usr/bin/env",
                    ["cc", "-shared", "-fPIC"] + flags + ["-I", header, "-o", directory + "/" + name, source],
                    input: Data())
                guard built.status == 0 else { throw CompileFailure(message: built.stderr) }
            }
        }
        return directory
    }

    /// The properties each model is searched with, and the user's actions (the actions
    /// its effects send are not the user's to press).
    static let properties: [String: [String]] = [
        "search": ["--actions", "search"],
        "checkout": ["--actions", "checkout"],
        "download": [
            "--actions", "start,cancel", "--after", "cancel", #"old(status) != "loading" || status == "cancelled""#,
        ],
    ]

    /// One search of `model` as its JSON report; its transcript is `MODEL-SEED.transcript`.
    static func search(
        _ directory: String, _ model: String, seed: Int, runs: Int = 300, schedules: Bool = true, inWorker: Bool = false
    ) throws -> [String: Any] {
        let plugin = model == "checkout" ? "checkout" : "latecomers"
        let found = try storesh(
            ["explore"] + (inWorker ? ["--no-search-worker"] : ["--in-process"]) + [
                "--plugin", directory + "/lib\(plugin).so", "--model", "\(plugin).\(model)", "--seed", String(seed),
                "--runs", String(runs), "--format", "json", "--out", directory + "/\(model)-\(seed).transcript",
                "--overwrite",
            ] + properties[model, default: []] + (schedules ? ["--schedules"] : []))
        let report = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
        return try #require(report, "\(found.stdout)\(found.stderr)")
    }

    static func shrunkLines(_ report: [String: Any]) -> [String] {
        (report["shrunk"] as? [[String: Any]] ?? []).compactMap { $0["line"] as? String }
    }

    static func lateAnswers(_ report: [String: Any]) -> [String] {
        (report["schedule"] as? [[String: Any]] ?? []).compactMap { $0["latency"] as? String }.filter { $0 != "now" }
    }

    /// `storesh test` of the transcript explore wrote, against the buggy build and against
    /// the fixed one (the same transcript with the other plugin file).
    static func transcriptVerdicts(_ directory: String, _ name: String) throws -> (buggy: Int32, fixed: Int32) {
        let path = directory + "/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let fixedPath = directory + "/fixed-" + name
        try text.replacingOccurrences(of: "liblatecomers.so", with: "liblatecomers-fixed.so")
            .replacingOccurrences(of: "libcheckout.so", with: "libcheckout-fixed.so")
            .write(toFile: fixedPath, atomically: true, encoding: .utf8)
        return (try storesh(["test", path]).status, try storesh(["test", fixedPath]).status)
    }

    @Test func aStaleAnswerThatOverwritesANewerOneIsFoundAndShrunk() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for seed in 1...5 {
            let report = try Self.search(directory, "search", seed: seed)
            let failure = try #require(report["failure"] as? [String: Any], "seed \(seed): not found")
            #expect(failure["invariant"] as? String == "loading || results_for == query")
            let lines = Self.shrunkLines(report)
            #expect(lines.count == 3, "seed \(seed): two searches and the clock: \(lines)")
            #expect(lines.first == #"search query: """#, "the simplest first query")
            #expect(lines.last?.hasPrefix(":advance") == true)
            #expect(
                Self.lateAnswers(report) == ["1ms"], "one late answer, the shortest wait: \(report["schedule"] ?? "")")
            let verdicts = try Self.transcriptVerdicts(directory, "search-\(seed).transcript")
            #expect(verdicts.buggy == 1, "the transcript fails while the bug is there")
            #expect(verdicts.fixed == 0, "and passes once it is fixed")
        }
        let transcript = try String(contentsOfFile: directory + "/search-1.transcript", encoding: .utf8)
        #expect(transcript.contains("> :latency fetch 1ms, now\n"), "the schedule, replayed: \(transcript)")
    }

    @Test func aCancelThatRacesTheAnswerIsFoundAndShrunkToStartThenCancel() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for seed in 1...5 {
            let report = try Self.search(directory, "download", seed: seed)
            let failure = try #require(report["failure"] as? [String: Any], "seed \(seed): not found")
            #expect(failure["kind"] as? String == "postcondition")
            #expect(Self.shrunkLines(report) == ["start", "cancel"], "seed \(seed)")
            #expect(Self.lateAnswers(report) == ["next"], "the answer arrives after the next action: the cancel")
            let verdicts = try Self.transcriptVerdicts(directory, "download-\(seed).transcript")
            #expect(verdicts.buggy == 1)
            #expect(verdicts.fixed == 0)
        }
    }

    @Test func twoTimersDueTogetherThatFireInTheOtherOrderAreFound() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for seed in 1...5 {
            let report = try Self.search(directory, "checkout", seed: seed)
            let failure = try #require(report["failure"] as? [String: Any], "seed \(seed): not found")
            #expect(failure["invariant"] as? String == #"failure == """#)
            let lines = Self.shrunkLines(report)
            #expect(lines.first == "checkout" && lines.count == 2, "seed \(seed): \(lines)")
            #expect(lines.last?.hasPrefix(":advance") == true)
            #expect(report["ties"] as? [Int] == [2], "the second scheduled first: \(report["ties"] ?? "")")
            let verdicts = try Self.transcriptVerdicts(directory, "checkout-\(seed).transcript")
            #expect(verdicts.buggy == 1)
            #expect(verdicts.fixed == 0)
        }
        let transcript = try String(contentsOfFile: directory + "/checkout-1.transcript", encoding: .utf8)
        #expect(transcript.contains("> :ties 2\n"), "\(transcript)")
    }

    @Test func withoutSchedulesEveryAnswerComesAtOnceAndNoBugIsFound() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for model in ["search", "download", "checkout"] {
            for seed in 1...5 {
                let report = try Self.search(directory, model, seed: seed, runs: 60, schedules: false)
                #expect(report["failure"] is NSNull, "\(model), seed \(seed): \(report["failure"] ?? "")")
                #expect((report["steps"] as? Int ?? 0) > 1_500, "a real search, not an empty one")
            }
        }
    }

    /// The answers' timing is the shell's clock's in a worker too (protocol 12's `answer`):
    /// the same run found, shrunk to the same steps and schedule.
    @Test func aWorkerFindsWhatTheShellProcessFinds() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for model in ["search", "download", "checkout"] {
            let inProcess = try Self.search(directory, model, seed: 2)
            let inWorker = try Self.search(directory, model, seed: 2, inWorker: true)
            _ = try #require(inProcess["failure"] as? [String: Any], "\(model): found in process")
            _ = try #require(inWorker["failure"] as? [String: Any], "\(model): found in a worker")
            #expect(inWorker["foundInRun"] as? Int == inProcess["foundInRun"] as? Int)
            #expect(Self.shrunkLines(inWorker) == Self.shrunkLines(inProcess))
            #expect(Self.lateAnswers(inWorker) == Self.lateAnswers(inProcess))
            #expect(inWorker["ties"] as? [Int] == inProcess["ties"] as? [Int])
        }
    }

    @Test func latencyListsSetsAndPointsAtWhatItCannotRead() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = """
            :use latecomers.search
            :latency fetch 100ms, next
            :latency
            search query: "a"
            search query: "b"
            :state
            :latency fetch soon
            :latency cache 1s
            :advance 100ms
            :state
            """
        let ran = try storesh(
            ["--virtual-clock", "--plugin", directory + "/liblatecomers.so"], input: script + "\n")
        #expect(ran.stdout.contains("fetch: 100ms, next (then the last repeats)"), "\(ran.stdout)")
        #expect(
            ran.stderr.contains(
                "<stdin>:7:16: error: 'soon' is not a latency; write now, next, never, or a duration such as 250ms or 2s"
            ), "\(ran.stderr)")
        #expect(ran.stderr.contains("latecomers.search has no service 'cache'; its services: fetch"), "\(ran.stderr)")
        // "a" waits 100 ms; "b" waits for the next action, which never comes; after the
        // clock moves, "a"'s answer is shown for "b": the bug, by hand.
        #expect(ran.stdout.contains(#"results_for: "a""#), "\(ran.stdout)")
        let real = try storesh(
            ["--plugin", directory + "/liblatecomers.so"], input: ":use latecomers.search\n:latency fetch 1s\n")
        #expect(real.stderr.contains("latencies need a virtual clock"), "\(real.stderr)")
    }
}
