import Foundation
import StoreShell
import Testing

@Suite("Transcripts: the writer")
struct TranscriptWriterTests {
    @Test func whatIsWrittenReadsBackAsTheSameBlocks() {
        var writer = TranscriptWriter(file: "/tmp/t/bug.transcript")
        writer.comment("recorded")
        writer.input("setTags [\"a\",\n\"b\"]", output: ["setTags: state changed", "", "  ~ tags", ""])
        writer.input("boom", output: ["error: no action 'boom'"], expectsFailure: true)
        let blocks = Transcript.parse(writer.text).blocks
        #expect(blocks.count == 2)
        #expect(blocks[0].input == ["setTags [\"a\",", "\"b\"]"])
        #expect(
            blocks[0].expected.map(\.text) == ["setTags: state changed", "", "  ~ tags"],
            "trailing blanks dropped, inner kept")
        #expect(blocks[1].expectsError && !blocks[0].expectsError)
        #expect(writer.text.contains("!> boom\n"))
    }

    @Test func outputThatWouldReadAsInputIsAPatternForItself() {
        let tricky = [
            "> looks like input", "!> also", "... and this", "# a comment", "ends in (re)", "ends in (glob)", ">",
        ]
        var writer = TranscriptWriter(file: "/tmp/t/x.transcript")
        writer.input(":state", output: tricky)
        let block = Transcript.parse(writer.text).blocks[0]
        #expect(block.expected.count == tricky.count, "every line stays an expected line: \(writer.text)")
        for (line, pattern) in zip(tricky, block.expected.map(\.text)) {
            #expect(Transcript.matches(line, pattern), "\(pattern) matches \(line)")
            #expect(!Transcript.matches(line + "x", pattern))
        }
    }

    @Test func pluginPathsAreRelativeToTheTranscript() {
        let writer = TranscriptWriter(file: "/tmp/storesh-writer-test/tests/bug.transcript")
        #expect(writer.relativePath("/tmp/storesh-writer-test/build/libA.so") == "../build/libA.so")
        #expect(writer.relativePath("/tmp/storesh-writer-test/tests/libA.so") == "./libA.so")
        #expect(writer.relativePath("/tmp/storesh-writer-test/tests/lib/libA.so") == "lib/libA.so")
        #expect(writer.loadCommand(plugin: "/tmp/storesh-writer-test/my dir/libA.so") == #":load "../my dir/libA.so""#)
    }

    @Test func anExistingFileIsReplacedOnlyWithForce() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "writer-\(UUID().uuidString).transcript"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = { (force: Bool) in OutputFile(path: path, kind: .savedTranscript, force: force, hint: "--force") }
        try file(false).write("> a\n")
        #expect(throws: TranscriptWriter.Problem.self) { try file(false).write("> b\n") }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "> a\n")
        try file(true).write("> b\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "> b\n")
    }
}
