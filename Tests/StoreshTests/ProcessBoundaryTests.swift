import Foundation
import Testing

/// Where storesh meets other processes: a worker that dies mid-request never takes storesh
/// down, and every byte a plugin writes reaches the user, in order, linearly, before
/// storesh exits (issue: Trust III).
@Suite("The process boundary")
struct ProcessBoundaryTests {
    /// storesh died of SIGPIPE (exit 141) in about half the runs when its worker exited
    /// while a quiet script was being sent: the write of the next request raised the
    /// signal before its EPIPE could be handled.
    @Test(arguments: [["--quiet"], ["--quiet", "--journal"]])
    func aWorkerThatExitsMidScriptNeverKillsStoresh(options: [String]) throws {
        let lines = String(repeating: "increment\n", count: 30_000) + "exitNow\n" + String(repeating: "increment\n", count: 30_000) + ":state\n"
        let script = try temporaryFile("exit.storesh", lines)
        for _ in 0..<4 {
            var arguments = ["--plugin", unrulyPlugin] + options + ["-f", script]
            if let at = arguments.firstIndex(of: "--journal") { arguments.insert(script + ".journal-\(UUID())", at: at + 1) }
            let run = try storeshWithDefaultSignals(arguments)
            #expect(run.status == 1, "storesh must report the crash and go on, not die: status \(run.status), \(run.stderr.prefix(300))")
            #expect(run.stderr.contains("exit.storesh:30001: error: unruly.unruly crashed while handling 'exitNow' (exit status 0)"), "\(run.stderr.prefix(400))")
            #expect(run.stdout.contains("count: 60000\n"), "the model is rebuilt and the script goes on: \(run.stdout.suffix(200))")
        }
    }

    /// The same when the worker is killed from outside (the OOM killer, a user's `kill`).
    @Test func aWorkerKilledFromOutsideMidScriptNeverKillsStoresh() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", storeshBinary, "--plugin", unrulyPlugin, "--quiet", "-f", "-"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        let writer = input.fileHandleForWriting
        let lines = Data(String(repeating: "increment\n", count: 10_000).utf8)
        try writer.write(contentsOf: lines)
        // The worker is storesh's child; find it once it runs storesh-worker.
        var worker: pid_t?
        for _ in 0..<1000 where worker == nil {
            worker = Self.children(of: process.processIdentifier).first { child in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child)/exe"))?.hasSuffix("/storesh-worker") == true
            }
            if worker == nil { usleep(10_000) }
        }
        let killed = try #require(worker, "storesh started no worker")
        kill(killed, SIGKILL)
        for _ in 0..<5 { try writer.write(contentsOf: lines) }
        try writer.write(contentsOf: Data(":state\n".utf8))
        try writer.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "status \(process.terminationStatus) (\(process.terminationReason == .uncaughtSignal ? "killed by a signal" : "exited")): \(err.prefix(300))")
        #expect(err.contains("crashed") && err.contains("SIGKILL"), "\(err.prefix(400))")
        #expect(out.contains("count: 60000\n"), "\(out.suffix(200))")
    }

    /// The pids of `parent`'s children.
    static func children(of parent: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
    }
}
