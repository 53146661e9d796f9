import Foundation
import Testing

/// `storesh explore` makes its search in a search worker: a child storesh with the model
/// in its own process (docs/decisions/0011). What storesh prints is what a search with the
/// model in process prints; a model that ends the search worker (an exit, a crash, a hang)
/// is searched again with the model in a worker process, which says where and why.
/// (Serialized: each test waits on storesh processes, holding a thread of the shared pool.)
@Suite(.serialized) struct SearchWorkerTests {
    @Test func theReportAndTranscriptAreThoseOfTheModelInProcess() throws {
        let directory = try ExploreTests.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = URL(fileURLWithPath: directory + "/bank.transcript")
        let searched = try ExploreTests.explore(directory, "bank", [])
        let transcript = try Data(contentsOf: file)
        let inProcess = try ExploreTests.explore(directory, "bank", ["--in-process"])
        #expect(searched.status == 1 && inProcess.status == 1, "\(searched.stderr)\(inProcess.stderr)")
        #expect(searched.stdout == inProcess.stdout)
        #expect(transcript == (try Data(contentsOf: file)))
        #expect(!searched.stderr.contains("searching again"), "nothing ended the search worker: \(searched.stderr)")
        let json = try ExploreTests.explore(directory, "bank", ["--format", "json"])
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(record?["kind"] as? String == "explore", "one JSON object, as the search worker wrote it")
    }

    /// `--no-search-worker` asks for the search made in storesh, the model in a worker
    /// process: the same report; with `--in-process` it means nothing and is refused.
    @Test func noSearchWorkerSearchesWithTheModelInAWorkerProcess() throws {
        let directory = try ExploreTests.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let searched = try ExploreTests.explore(directory, "bank", [])
        let stepped = try ExploreTests.explore(directory, "bank", ["--no-search-worker"])
        #expect(stepped.status == 1 && stepped.stdout == searched.stdout, "\(stepped.stdout)\(stepped.stderr)")
        let refused = try ExploreTests.explore(directory, "bank", ["--no-search-worker", "--in-process"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.contains("--no-search-worker keeps the model in a worker process: not with --in-process"),
            "\(refused.stderr)")
    }

    /// The model's stdout is the search worker's, but only the report reaches storesh's:
    /// what the model prints goes to standard error, as from a worker process.
    @Test func whatTheModelPrintsGoesToStandardErrorNotIntoTheReport() throws {
        let found = try storesh([
            "explore", "--plugin", unrulyPlugin, "--model", "unruly.unruly", "--actions", "say,increment", "--seed",
            "3",
            "--runs", "20", "--steps", "10", "--invariant", "count < 1000", "--format", "json",
        ])
        #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any]
        #expect(record?["runs"] as? Int == 20, "the report alone on standard output: \(found.stdout)")
        let others = found.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.hasPrefix("explore: ")
        }
        #expect(others.count > 1, "what `say` printed went to standard error: \(found.stderr)")
    }

    /// `exitNow` ends the process mid-action with status 0 and no report: storesh says so
    /// and the search made again in a worker process finds it.
    @Test func aModelThatEndsTheSearchWorkerIsSearchedAgainInAWorkerProcess() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-sw-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let found = try storesh([
            "explore", "--plugin", unrulyPlugin, "--model", "unruly.unruly", "--actions", "increment,exitNow",
            "--seed", "1", "--runs", "20", "--steps", "10", "--jobs", "1", "--out", directory + "/exit.transcript",
        ])
        #expect(
            found.stderr.contains(
                "storesh explore: the model ended the process (exit status 0) in the search's process; searching again with the model in a worker process"
            ), "\(found.stderr)")
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.split(separator: "\n").contains { $0.hasPrefix("failure: ") }, "\(found.stdout)")
        #expect(found.stdout.contains("exitNow  <- fails here"), "\(found.stdout)")
    }

    /// A model stuck in one call gives no sign of life: the search worker's watchdog ends
    /// it after --action-timeout, and the search made again in a worker process says it hung.
    @Test func aHungModelIsStoppedByTheWatchdogAndReportedFromAWorkerProcess() throws {
        let directory = try ExploreTests.workspace()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let found = try ExploreTests.explore(directory, "stall", ["--action-timeout", "0.5", "--jobs", "1"])
        #expect(found.stderr.contains("the model gave no answer in 0.5s in the search's process"), "\(found.stderr)")
        #expect(found.status == 1)
        #expect(found.stdout.contains("failure: the model hung: no answer in 0.5s"), "\(found.stdout)")
    }
}
