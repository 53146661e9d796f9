import Foundation
import Testing

/// Guidance (`ExploreLane`): a keypad that opens after eight presses in order among ten
/// buttons (Tests/Plugins/guided.c) is found within a budget of steps on every seed,
/// because runs that reach a new state are kept and extended; without guidance random
/// search does not find it. Budgets are in steps, never seconds.
/// (Serialized: each test waits on storesh processes, holding a thread of the shared pool.)
@Suite(.serialized) struct ExploreGuidanceTests {
    static func workspace() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-guided-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let header = tests.deletingLastPathComponent().appendingPathComponent("Sources/CStorePlugin/include").path
        let built = try run(
            "/usr/bin/env",
            [
                "cc", "-shared", "-fPIC", "-I", header, "-o", directory + "/libguided.so",
                tests.appendingPathComponent("Plugins/guided.c").path,
            ], input: Data())
        guard built.status == 0 else { throw CompileFailure(message: built.stderr) }
        return directory
    }

    /// One search of the keypad, in process (the search's speed is not what is measured),
    /// as its JSON report.
    static func search(_ directory: String, seed: Int, runs: Int, guided: Bool) throws -> [String: Any] {
        let found = try storesh(
            [
                "explore", "--in-process", "--plugin", directory + "/libguided.so", "--model", "guided.keypad",
                "--seed", String(seed), "--runs", String(runs), "--steps", "50", "--no-determinism-check",
                "--format", "json", "--out", directory + "/keypad\(seed).transcript", "--overwrite",
            ] + (guided ? [] : ["--no-guidance"]))
        let report = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
        return try #require(report, "\(found.stdout)\(found.stderr)")
    }

    @Test func eightPressesInOrderAreFoundOnEverySeedWithGuidance() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for seed in 1...5 {
            let report = try Self.search(directory, seed: seed, runs: 200_000, guided: true)
            let failure = report["failure"] as? [String: Any]
            #expect(failure?["message"] as? String == "invariant open == false broken: open is true, expected false")
            let steps = try #require(report["steps"] as? Int)
            #expect(steps <= 2_000_000, "seed \(seed): \(steps) steps")
            #expect((report["shrunk"] as? [Any])?.count == 8, "the code itself, press by press")
            let guidance = try #require(report["guidance"] as? [String: Any])
            #expect((guidance["kept"] as? Int ?? 0) > 8, "a run kept for each press of the code at least")
        }
    }

    @Test func withoutGuidanceRandomSearchDoesNotFindThem() throws {
        let directory = try Self.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var found = 0
        for seed in 1...5 {
            // 200,000 steps each, a tenth of guidance's budget, for CI's time; at 2,000,000
            // steps each it found none of the five either (ExploreGuidanceTests' closing note).
            let report = try Self.search(directory, seed: seed, runs: 4_000, guided: false)
            #expect(report["guidance"] is NSNull, "no guidance, none reported")
            if !(report["failure"] is NSNull) { found += 1 }
        }
        #expect(found <= 1)
    }
}
