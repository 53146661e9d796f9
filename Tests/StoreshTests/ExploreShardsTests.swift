import Foundation
import Testing

/// A search split across processes (`--jobs N`) or machines (`--shard I/N`, then
/// `--merge`) gives the verdict and the transcript one process gives: each run is the same
/// in any shard, and the failure of the lowest run is kept.
@Suite(.serialized) struct ExploreShardsTests {
    /// The registry's first failing run with seed 3 is run 21: lane 4 of 8 (`ExploreLane`),
    /// so shard 4 of 5, not the first.
    static let registry = [
        "explore", "--plugin", "Classics", "--model", "classics.registry", "--after", "kill",
        "!contains(registry[*], args.pid)", "--seed", "3", "--runs", "3000",
    ]

    static func workspace() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-shards-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/shards", withIntermediateDirectories: true)
        return directory
    }

    @Test func jobsGiveTheTranscriptOneProcessGives() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let one = try storesh(Self.registry + ["--jobs", "1", "--out", directory + "/one.transcript"])
        #expect(one.status == 1, "\(one.stdout)\(one.stderr)")
        let five = try storesh(Self.registry + ["--jobs", "5", "--out", directory + "/five.transcript"])
        #expect(five.status == 1, "\(five.stdout)\(five.stderr)")
        #expect(five.stdout.hasPrefix("explore classics.registry: seed 3\n"), "\(five.stdout)")
        // The counts of the job that found it, which stopped there: the same whatever the
        // timing (its runs 5, 13 and 21 are lane 4's, the only lane of job 5 of 5).
        #expect(
            five.stdout.contains("run 21 failed after 30 steps (job 5 of 5: 3 runs, 138 steps, 27 distinct states)\n"),
            "\(five.stdout)")
        #expect(five.stderr.contains("explore: 5 jobs searched "), "\(five.stderr)")
        let transcript = try String(contentsOfFile: directory + "/one.transcript", encoding: .utf8)
        #expect(try String(contentsOfFile: directory + "/five.transcript", encoding: .utf8) == transcript)
        // The same shrunk run, step for step, and no job's file left behind.
        let shrunk = { (text: String) in
            text.split(separator: "\n").drop { !$0.hasPrefix("shrunk to ") }.prefix {
                !$0.hasPrefix("coverage") && !$0.hasPrefix("guidance")
            }
        }
        #expect(shrunk(one.stdout) == shrunk(five.stdout), "\(one.stdout)\n\(five.stdout)")
        // Its JSON: the merged lines (once: not the job's own as well), the job's failure.
        let json = try storesh(
            Self.registry + ["--jobs", "5", "--format", "json", "--out", directory + "/five.transcript"])
        #expect(json.stdout.components(separatedBy: "\"lines\":").count == 2, "\(json.stdout)")
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((record?["lines"] as? [String])?.dropFirst().first?.contains("(job 5 of 5: ") == true)
        #expect(record?["kind"] as? String == "explore" && record?["shard"] is NSNull, "\(json.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["five.transcript", "one.transcript", "shards"])
        // A model with no bug: nothing found, exit 0, every run made.
        let sound = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.jugsFixed", "--invariant", "big != 4", "--seed",
            "1", "--runs", "90", "--jobs", "2", "--in-process", "--out", directory + "/none.transcript",
        ])
        #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
        #expect(sound.stdout.contains("no failure in 90 runs, "), "\(sound.stdout)")
    }

    @Test func shardsMergeIntoOneVerdictFromAnotherFolder() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let one = try storesh(Self.registry + ["--jobs", "1", "--out", directory + "/one.transcript"])
        #expect(one.status == 1)
        var reports: [String] = []
        for index in 0..<5 {
            let report = directory + "/shards/\(index).json"
            let run = try storesh(
                Self.registry + [
                    "--shard", "\(index)/5", "--format", "json", "--out", directory + "/shards/\(index).transcript",
                ])
            try run.stdout.write(toFile: report, atomically: true, encoding: .utf8)
            reports.append(report)
        }
        let merged = try storesh(["explore", "--merge"] + reports + ["--out", directory + "/merged.transcript"])
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("explore classics.registry: seed 3, 5 shards\n"), "\(merged.stdout)")
        #expect(merged.stdout.contains("run 21 failed after 30 steps (shard 4/5: "), "\(merged.stdout)")
        // The failure as the shard that found it reported it, with how many shards there were.
        let json = try storesh(
            ["explore", "--merge"] + reports + ["--out", directory + "/json.transcript", "--format", "json"])
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let shardRecord =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reports[4]))) as? [String: Any]
        #expect(record?["shards"] as? Int == 5, "\(json.stdout)")
        #expect(record?["runs"] as? Int == shardRecord?["runs"] as? Int, "\(json.stdout)")
        #expect(
            (record?["failure"] as? [String: Any])?["postcondition"] as? String == "!contains(registry[*], args.pid)")
        #expect((record?["shrunk"] as? [[String: Any]])?.count == (shardRecord?["shrunk"] as? [[String: Any]])?.count)
        #expect(
            try String(contentsOfFile: directory + "/merged.transcript", encoding: .utf8)
                == String(contentsOfFile: directory + "/one.transcript", encoding: .utf8),
            "the :load path is made relative to where the merged transcript is")
        #expect(try storesh(["test", directory + "/merged.transcript"]).status == 1)
        #expect(
            try storesh([
                "test", "--substitute", "classics.registry=classics.registryFixed", directory + "/merged.transcript",
            ])
            .status == 0)

        let missing = try storesh(["explore", "--merge", reports[0]] + reports[2...])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("shard 1/5 missing: a verdict needs every shard"), "\(missing.stderr)")
        let twice = try storesh(["explore", "--merge", reports[0]] + reports)
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("are both shard 0/5"), "\(twice.stderr)")
        for (name, change) in [("seed", ["--seed", "2"]), ("steps", ["--steps", "20"])] {
            let other = try storesh(
                Self.registry + change + [
                    "--shard", "1/5", "--format", "json", "--out", directory + "/shards/\(name).transcript",
                ])
            try other.stdout.write(toFile: directory + "/shards/\(name).json", atomically: true, encoding: .utf8)
            var mixedReports = reports
            mixedReports[1] = directory + "/shards/\(name).json"
            let mixed = try storesh(["explore", "--merge"] + mixedReports)
            #expect(mixed.status == 2, "\(name)")
            #expect(
                mixed.stderr.contains(name == "seed" ? "with seed 2;" : "searched with other options than"),
                "\(mixed.stderr)")
        }
        let whole = try storesh(Self.registry + ["--format", "json", "--out", directory + "/whole.transcript"])
        try whole.stdout.write(toFile: directory + "/whole.json", atomically: true, encoding: .utf8)
        let unsplit = try storesh(["explore", "--merge", directory + "/whole.json"])
        #expect(unsplit.status == 2)
        #expect(unsplit.stderr.contains("the report of a whole search, not of a --shard I/N"), "\(unsplit.stderr)")
        // A report a file says is a shard must be one: no count of 0, no index past its count.
        let report = try String(contentsOfFile: reports[1], encoding: .utf8)
        for (shard, name) in [(#""count":0"#, "zero"), (#""count":-3"#, "negative"), (#""index":7"#, "past")] {
            let key = shard.hasPrefix(#""count""#) ? #""count":5"# : #""index":1"#
            let forged = report.replacingOccurrences(of: key, with: shard)
            #expect(forged != report, "\(name): the report holds \(key)")
            try forged.write(toFile: directory + "/shards/\(name).json", atomically: true, encoding: .utf8)
            let refused = try storesh(["explore", "--merge", directory + "/shards/\(name).json"])
            #expect(refused.status == 2, "\(name)")
            #expect(refused.stderr.contains("is not a shard (I from 0 to N-1, N at most 1024)"), "\(refused.stderr)")
        }
        let text = try storesh(["explore", "--merge", directory + "/one.transcript"])
        #expect(text.status == 2)
        #expect(text.stderr.contains("not the JSON report of storesh explore --format json"), "\(text.stderr)")
        let usage = try storesh(Self.registry + ["--jobs", "2", "--shard", "0/2"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--jobs splits a random search into shards itself"), "\(usage.stderr)")
        let badShard = try storesh(Self.registry + ["--shard", "3/3"])
        #expect(badShard.status == 2)
        #expect(badShard.stderr.contains("--shard takes I/N: N from 1 to 1024 and I from 0 to N-1, not '3/3'"))
    }

    /// What guidance reached, merged: runs kept and started from one add up, transitions
    /// taken are counted once however many jobs took them, as one process counts them.
    /// (Their keys are 64-bit: as JSON numbers, large ones came back as doubles, and were lost.)
    @Test func jobsReportWhatGuidanceReachedAsOneProcessDoes() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let search = [
            "explore", "--plugin", "Classics", "--model", "classics.bufferFixed", "--invariant",
            "size == count(contents)",
            "--seed", "2", "--runs", "400", "--out", directory + "/buffer.transcript",
        ]
        let one = try storesh(search + ["--jobs", "1"])
        let four = try storesh(search + ["--jobs", "4"])
        #expect(one.status == 0 && four.status == 0, "\(one.stdout)\(four.stdout)\(four.stderr)")
        let guidance = { (run: Run) in run.stdout.split(separator: "\n").first { $0.hasPrefix("guidance: ") } }
        #expect(guidance(one) != nil, "\(one.stdout)")
        // Not only guidance: every line, the distinct states (counted once) among them.
        #expect(four.stdout == one.stdout, "\(one.stdout)\n\(four.stdout)")
        #expect(one.stdout.contains(" distinct states\n"), "\(one.stdout)")
        // By default, one job per core: the same report.
        let byDefault = try storesh(search)
        #expect(byDefault.stdout == one.stdout, "\(byDefault.stdout)")
        #expect(
            ProcessInfo.processInfo.activeProcessorCount == 1
                || byDefault.stderr.contains(
                    "explore: \(min(8, ProcessInfo.processInfo.activeProcessorCount)) jobs searched 400 runs"),
            "\(byDefault.stderr)")
        let json = try storesh(search + ["--jobs", "4", "--format", "json"])
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        // The record one process writes, with how many shards there were.
        let alone = try storesh(search + ["--jobs", "1", "--format", "json"])
        let single = try #require(try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])
        let mergedKeys: Set<String> = Set((record ?? [:]).keys)
        let singleKeys: Set<String> = Set(single.keys).union(["shards"])
        #expect(mergedKeys == singleKeys, "\(json.stdout)")
        for key in ["runs", "steps", "distinctStates", "settings"] {
            let merged: String = "\(record?[key] ?? "")"
            let alone: String = "\(single[key] ?? "")"
            #expect(merged == alone, "\(key)")
        }
        let merged = try #require(record?["guidance"] as? [String: Any], "\(json.stdout)")
        #expect(merged["transitions"] as? Int ?? 0 > 0)
        #expect(merged["kept"] as? Int ?? 0 > 0)
    }

    /// The jobs of one search tell each other where one failed (a file, `--stop-file`):
    /// a job makes no run past the lowest failing run written there, and writes its own.
    @Test func aJobMakesNoRunPastAFailureAnotherFoundAndSaysWhereItFoundOne() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let stop = directory + "/stop"
        try "900\n7\n40".write(toFile: stop, atomically: true, encoding: .utf8)
        let sound = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.jugsFixed", "--invariant", "big != 4", "--seed",
            "1", "--runs", "500", "--in-process", "--jobs", "1", "--stop-file", stop, "--format", "json",
        ])
        #expect(sound.status == 0, "\(sound.stdout)\(sound.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(sound.stdout.utf8)) as? [String: Any]
        #expect(record?["runs"] as? Int == 7, "runs 1 to 7, the lowest whole line: \(sound.stdout)")
        try Data().write(to: URL(fileURLWithPath: stop))
        let failing = try storesh(
            Self.registry + ["--jobs", "1", "--stop-file", stop, "--out", directory + "/registry.transcript"])
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(try String(contentsOfFile: stop, encoding: .utf8) == "21\n")
    }
}
