import Foundation
import Testing

/// The inspector's HTTP server is a program of its own, `storesh-inspector`, which storesh
/// starts beside itself: found, it serves; missing, the reason is said and the session
/// goes on.
@Suite struct InspectorProcessTests {
    @Test func inspectStartsTheServerAndSaysItsAddress() throws {
        let result = try storesh(["--in-process", "--inspect", "-c", "increment"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("inspector: http://127.0.0.1:") && result.stderr.contains("/?token="),
            "\(result.stderr)")
        #expect(result.stdout.contains("increment: state changed"), "\(result.stdout)")
    }

    @Test func aMissingServerIsSaidAndTheSessionGoesOn() throws {
        let result = try storesh(
            ["--in-process", "-c", ":inspect", "-c", "increment"],
            environment: ["STORESH_INSPECTOR": "/nonexistent/storesh-inspector"])
        #expect(result.status == 1, "the line that failed makes the run fail")
        #expect(
            result.stderr.contains(
                "the inspector cannot start: cannot run /nonexistent/storesh-inspector: No such file or directory"),
            "\(result.stderr)")
        #expect(result.stdout.contains("increment: state changed"), "the next line runs: \(result.stdout)")
    }

    /// Killed with no chance to stop its inspector, storesh still leaves no server behind:
    /// the server ends when its pipe from storesh closes.
    @Test func theServerEndsWhenStoreshIsKilled() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: storeshBinary)
        process.arguments = ["--in-process", "--inspect"]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        defer { try? input.fileHandleForWriting.close() }
        var said = ""
        while !said.contains("/?token="), let chunk = try errors.fileHandleForReading.read(upToCount: 1) {
            said += String(decoding: chunk, as: UTF8.self)
        }
        let server = try #require(
            Self.children(of: process.processIdentifier).first { $0.command.contains("storesh-inspector") },
            "storesh started its server: \(said)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        var alive = true
        for _ in 0..<500 where alive {
            alive = Self.isRunning(server.pid)
            if alive { usleep(10_000) }
        }
        #expect(!alive, "storesh-inspector (pid \(server.pid)) still runs 5 seconds after storesh was killed")
    }

    /// The processes whose parent is `parent`, with their command lines.
    static func children(of parent: Int32) -> [(pid: Int32, command: String)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> (Int32, String)? in
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == parent else { return nil }
            let command = (try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8)) ?? ""
            return (pid, command.replacingOccurrences(of: "\0", with: " "))
        }
    }

    /// Whether `pid` runs (a zombie waiting for its reaper counts as ended).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}
