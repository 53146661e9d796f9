import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// A fresh folder for transcripts.
private func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("save-test-\(UUID().uuidString)/tests")
        .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@MainActor
@Suite("Debugging: :save-test", .serialized)
struct SaveTestTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aSessionSavedAsATranscriptPassesAsWritten(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(isolation: isolation)
        let file = try folder() + "/session.transcript"
        let todos = buildDirectory + "/libStoreshExampleTodos.so"
        _ = await shell.run(
            "increment", "increment", ":goto 1", "setCount 7", ":expect count == 7", "nope", ":load \(todos)",
            "add \"milk\", 1", "toggleLater id: \"t1\", milliseconds: 50", ":advance 1s",
            ":expect todos[0].done == true", ":expect added == 9")
        let saved = await shell.run(":save-test \(file)")
        #expect(saved.first?.hasPrefix("saved ") == true, "\(saved)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("> :load ../../"), "the plugin's path is relative to the transcript: \(text)")
        #expect(text.contains("!> nope\n"), "a failed line is written '!> '")
        #expect(text.contains("!> :expect added == 9\n"))
        #expect(
            text.contains(
                "> increment\nincrement: state changed\n  ~ count: 0 → 1\n> setCount 7\nsetCount 7: state changed\n  ~ count: 1 → 7\n"
            ), "the current timeline, with its output: \(text)")
        #expect(!text.contains("todos[\"t1\"].toggle\n"), "an effect's action is left to the effect")
        let rerun = await TranscriptRunner.run(text, file: file, searchPath: [buildDirectory])
        #expect(rerun.passed, "\(rerun.problems) \(rerun.diff)")
        #expect(
            await shell.run(":save-test \(file)") == [
                "t.storesh:1: error: \(file) already exists; ':save-test \(file) --force' replaces it"
            ])
        #expect(await shell.run(":save-test \(file) --force").first?.hasPrefix("saved ") == true)
    }

    /// A late answer is part of the session: its `:latency` is on the tape, so the saved
    /// transcript waits for the answer as the session did (and a listing is not taped).
    @Test func aServicesLatencyIsSavedWithTheSession() async throws {
        let shell = try ShellHarness()
        let file = try folder() + "/late.transcript"
        let auth = buildDirectory + "/libStoreshExampleAuth.so"
        _ = await shell.run(
            ":load \(auth)", ":latency checkCredentials 300ms", ":latency",
            "authenticate user: \"a\", password: \"open sesame\"", ":advance 500ms",
            ":expect phase == \"authenticating\"",
            ":advance 300ms", ":expect phase == \"signedIn\"")
        _ = await shell.run(":save-test \(file)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("> :latency checkCredentials 300ms\n"), "\(text)")
        #expect(!text.contains("> :latency\n"), "a listing is not taped: \(text)")
        let rerun = await TranscriptRunner.run(text, file: file, searchPath: [buildDirectory])
        #expect(rerun.passed, "\(rerun.problems) \(rerun.diff)")
    }

    @Test func aRangeIsComparedAndWhatLeadsToItIsRunUncompared() async throws {
        let shell = try ShellHarness()
        let file = try folder() + "/range.transcript"
        _ = await shell.run("increment", "increment", "setCount 40", "increment", "decrement")
        _ = await shell.run(":save-test \(file) 3-4")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            text.contains(
                "> increment\n(output not compared)\n> increment\n(output not compared)\n> setCount 40\nsetCount 40: state changed\n"
            ), "\(text)")
        #expect(!text.contains("decrement"), "actions after the range are left out")
        #expect(await TranscriptRunner.run(text, file: file, searchPath: [buildDirectory]).passed)
        #expect(
            await shell.run(":save-test \(file) 9-12 --force") == [
                "t.storesh:1: error: usage: :save-test FILE [FROM-TO] [--force]: FROM-TO are actions of :log, from 1 to 5"
            ])
    }

    @Test func effectsThatCameOnARealClockGetAWait() async throws {
        let host = PluginHost(clock: RealClock(), searchPath: [buildDirectory])
        let core = ShellCore(host: host) { _ in }
        var errors: [String] = []
        core.output = { if case .error(let error) = $0 { errors.append(error.message) } }
        try host.load("Todos")
        try core.use("todos")
        let file = try folder() + "/wait.transcript"
        await core.execute("add \"milk\", 1")
        await core.execute("toggleLater id: \"t1\", milliseconds: 20")
        // The effect's action comes on its own, with no :wait or :advance typed.
        for _ in 0..<300 where core.effectsInFlight > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(core.effectsInFlight == 0)
        await core.execute("add \"eggs\", 2")
        #expect(await core.execute(":save-test \(file)"), "\(errors)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let wait = try #require(text.range(of: "> :wait\n"), "\(text)")
        #expect(text.range(of: "> toggleLater id: \"t1\", milliseconds: 20\n")!.lowerBound < wait.lowerBound)
        #expect(
            wait.lowerBound < text.range(of: "> add title: \"eggs\", priority: 2\n")!.lowerBound,
            "the effect came before the next action: \(text)")
        #expect(await TranscriptRunner.run(text, file: file, searchPath: [buildDirectory]).passed)
    }
}
