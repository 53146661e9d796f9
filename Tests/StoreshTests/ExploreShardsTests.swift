import Foundation
import Testing

/// A search split across processes (`--jobs N`) or machines (`--shard I/N`, then
/// `--merge`) gives the verdict and the transcript one process gives: each run is the same
/// in any shard, and the failure of the lowest run is kept.
@Suite(.serialized) struct ExploreShardsTests {
    static let heap = [
        "explore", "--plugin", "Classics", "--model", "classics.heap", "--after", "pop", "popped == old(min(items))",
        "--seed", "1", "--runs", "3000",
    ]

    static func workspace() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-shards-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory + "/shards", withIntermediateDirectories: true)
        return directory
    }

    @Test func jobsGiveTheTranscriptOneProcessGives() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let one = try storesh(Self.heap + ["--out", directory + "/one.transcript"])
        #expect(one.status == 1, "\(one.stdout)\(one.stderr)")
        let three = try storesh(Self.heap + ["--jobs", "3", "--out", directory + "/three.transcript"])
        #expect(three.status == 1, "\(three.stdout)\(three.stderr)")
        #expect(three.stdout.hasPrefix("explore classics.heap: seed 1, 3 shards\n"), "\(three.stdout)")
        #expect(three.stderr.contains("explore: 3 jobs searched "), "\(three.stderr)")
        let transcript = try String(contentsOfFile: directory + "/one.transcript", encoding: .utf8)
        #expect(try String(contentsOfFile: directory + "/three.transcript", encoding: .utf8) == transcript)
        // The same shrunk run, step for step, and no job's file left behind.
        let shrunk = { (text: String) in text.split(separator: "\n").drop { !$0.hasPrefix("shrunk to ") }.prefix(13) }
        #expect(shrunk(one.stdout) == shrunk(three.stdout), "\(one.stdout)\n\(three.stdout)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["one.transcript", "shards", "three.transcript"])
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
        let one = try storesh(Self.heap + ["--out", directory + "/one.transcript"])
        #expect(one.status == 1)
        var reports: [String] = []
        for index in 0..<3 {
            let report = directory + "/shards/\(index).json"
            let run = try storesh(
                Self.heap + [
                    "--shard", "\(index)/3", "--format", "json", "--out", directory + "/shards/\(index).transcript",
                ])
            try run.stdout.write(toFile: report, atomically: true, encoding: .utf8)
            reports.append(report)
        }
        let merged = try storesh(["explore", "--merge"] + reports + ["--out", directory + "/merged.transcript"])
        #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
        #expect(merged.stdout.contains("run 1 failed (shard 0/3; "), "\(merged.stdout)")
        #expect(
            try String(contentsOfFile: directory + "/merged.transcript", encoding: .utf8)
                == String(contentsOfFile: directory + "/one.transcript", encoding: .utf8),
            "the :load path is made relative to where the merged transcript is")
        #expect(try storesh(["test", directory + "/merged.transcript"]).status == 1)
        #expect(
            try storesh(["test", "--substitute", "classics.heap=classics.heapFixed", directory + "/merged.transcript"])
                .status == 0)

        let missing = try storesh(["explore", "--merge", reports[0], reports[2]])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("shard 1/3 missing: a verdict needs every shard"), "\(missing.stderr)")
        let twice = try storesh(["explore", "--merge", reports[0], reports[0], reports[2]])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("are both shard 0/3"), "\(twice.stderr)")
        let other = try storesh(
            Self.heap.map { $0 == "1" ? "2" : $0 } + [
                "--shard", "1/3", "--format", "json", "--out", directory + "/shards/other.transcript",
            ])
        try other.stdout.write(toFile: directory + "/shards/other.json", atomically: true, encoding: .utf8)
        let mixed = try storesh(["explore", "--merge", reports[0], directory + "/shards/other.json", reports[2]])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("with seed 2;"), "\(mixed.stderr)")
        let text = try storesh(["explore", "--merge", directory + "/one.transcript"])
        #expect(text.status == 2)
        #expect(text.stderr.contains("not the JSON report of storesh explore --format json"), "\(text.stderr)")
        let usage = try storesh(Self.heap + ["--jobs", "2", "--shard", "0/2"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--jobs splits a random search into shards itself"), "\(usage.stderr)")
        let badShard = try storesh(Self.heap + ["--shard", "3/3"])
        #expect(badShard.status == 2)
        #expect(badShard.stderr.contains("--shard takes I/N: N from 1 to 1024 and I from 0 to N-1, not '3/3'"))
    }
}
