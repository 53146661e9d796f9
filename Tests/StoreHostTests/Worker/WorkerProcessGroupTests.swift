import Foundation
import HostTestSupport
import Testing

@testable import StoreHost

/// A worker runs in a process group of its own; what a plugin starts in it (a helper, a
/// daemon under development) ends with the worker, whether the worker is stopped or lost.
@MainActor
@Suite("Processes a plugin starts")
struct WorkerProcessGroupTests {
    /// The pids of the live processes running `sleep SECONDS` (a zombie has no command line).
    func sleepers(_ seconds: Int) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let line = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8)
            else { return nil }
            return line == "sleep\0\(seconds)\0" ? pid : nil
        }
    }

    /// Waits up to two seconds for the helper's processes to be gone.
    func gone(_ seconds: Int) async throws -> Bool {
        for _ in 0..<200 {
            if sleepers(seconds).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// A host whose Faulty worker has started `sleep SECONDS` (once it has exec'd).
    func startHelper(seconds: Int) async throws -> (PluginHost, Session) {
        let host = makeHost(clock: RealClock())
        host.isolation = .workers
        try host.load("Faulty")
        let session = try Session(model: host.model(named: "faulty"), host: host)
        _ = try session.send(text: "linger \(seconds)")
        for _ in 0..<200 where sleepers(seconds).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!sleepers(seconds).isEmpty, "the helper started")
        return (host, session)
    }

    @Test func aHelperEndsWhenItsWorkerIsStopped() async throws {
        let seconds = Int.random(in: 100_000..<900_000)
        defer { for pid in sleepers(seconds) { kill(pid, SIGKILL) } }
        let (host, _) = try await startHelper(seconds: seconds)
        let worker = try #require(host.plugins.first?.worker?.process)
        worker.stop()
        #expect(try await gone(seconds), "the plugin's helper outlived its stopped worker")
    }

    @Test func aHelperEndsWhenItsWorkerCrashes() async throws {
        let seconds = Int.random(in: 100_000..<900_000)
        defer { for pid in sleepers(seconds) { kill(pid, SIGKILL) } }
        let (host, session) = try await startHelper(seconds: seconds)
        let worker = try #require(host.plugins.first?.worker?.process)
        #expect(throws: (any Error).self) { try session.send(text: "abort") }
        #expect(worker.loss != nil, "the crash lost the worker")
        #expect(try await gone(seconds), "the plugin's helper outlived its crashed worker")
    }
}
