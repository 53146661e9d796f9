import Foundation
import Testing

/// `storesh test FILE` run from `directory`, another folder than the transcript's.
private func testFrom(_ directory: String, _ arguments: [String]) throws -> Run {
    let quoted = ([storeshBinary, "test"] + arguments).map {
        "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }.joined(separator: " ")
    return try run("/bin/sh", ["-c", "cd '\(directory)' && " + quoted], input: Data())
}

@Suite("Debugging end to end: breakpoints in scripts, sessions and journals as transcripts", .serialized)
struct DebuggingEndToEndTests {
    @Test(arguments: [[], ["--in-process"]])
    func aBreakpointStopsAScriptAtTheLineThatMadeItTrue(mode: [String]) throws {
        let script = try temporaryFile(
            "break.storesh", ":break count >= 3\nincrement\nincrement\nincrement\nincrement\n:state count\n")
        let result = try storesh(mode + ["-f", script])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "break.storesh:4: error: break: count >= 3 became true after #3 increment (script); stopped here"),
            "\(result.stderr)")
        #expect(
            !result.stdout.contains("\n4\n") && !result.stdout.hasSuffix("3\n"),
            "the lines after it did not run: \(result.stdout)")
        #expect(result.stdout.components(separatedBy: "increment: state changed").count == 4, "\(result.stdout)")
    }

    @Test(arguments: [[], ["--in-process"]])
    func aSavedSessionPassesStoreshTestFromAnyDirectory(mode: [String]) throws {
        let folder = (try temporaryPath("x") as NSString).deletingLastPathComponent + "/saved"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/session.transcript"
        let session = try storesh(
            mode + [
                "--plugin", "Todos", "-c", "add \"milk\", 1", "-c", "todos[\"t1\"].toggle", "-c", "nope", "-c",
                ":expect todos[0].done == true", "-c", ":save-test \(file)",
            ])
        #expect(session.stdout.contains("saved 6 inputs to \(file)"), "\(session.stdout) \(session.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("> :load ../"), "\(text)")
        #expect(text.contains("!> nope\n"))
        let elsewhere = FileManager.default.temporaryDirectory.path
        let checked = try testFrom(elsewhere, mode + [file])
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        #expect(checked.stdout.contains("1 passed, 0 failed"))
    }

    @Test(arguments: [[], ["--in-process"]])
    func aJournalBecomesATranscriptThatPasses(mode: [String]) throws {
        let journal = try temporaryPath("night.journal")
        let session = try storesh(
            mode + [
                "--journal", journal, "--plugin", "Todos", "--plugin", "Counter", "-c", "add \"milk\", 1", "-c",
                "add \"eggs\", 2", "-c", ":goto 1", "-c", "todos[\"t1\"].rename \"oat milk\"", "-c", ":use counter",
                "-c", "increment",
            ])
        #expect(session.status == 0, "\(session.stderr)")
        let out = (journal as NSString).deletingLastPathComponent + "/from-journal.transcript"
        let written = try storesh(["test"] + mode + ["--from-journal", journal, "--out", out])
        #expect(written.status == 0, "\(written.stdout) \(written.stderr)")
        #expect(written.stdout == "wrote \(out) from \(journal); storesh test \(out) runs it\n")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(
            text.contains("> :goto 1\n") && text.contains("> todos[\"t1\"].rename \"oat milk\"\n")
                && text.contains("> :use counter.counter\n> increment\n"), "\(text)")
        let checked = try testFrom(FileManager.default.temporaryDirectory.path, mode + [out])
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        let again = try storesh(["test", "--from-journal", journal, "--out", out])
        #expect(
            again.status == 2 && again.stderr.contains("already exists; --force replaces it"),
            "refused before the journal is converted: \(again.stderr)")
        #expect(try storesh(["test", "--from-journal", journal]).stderr.contains("--from-journal needs --out FILE"))
    }
}
