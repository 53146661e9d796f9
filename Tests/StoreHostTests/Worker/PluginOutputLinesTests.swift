import Foundation
import StoreHost
import Testing

/// A worker's output is forwarded line by line in linear time: whatever the chunks it
/// arrives in, every byte comes out once, in order; a line past the limit comes out in
/// pieces with a note after it; a crash report stops the forwarding.
@Suite("Forwarding a worker's output")
struct PluginOutputLinesTests {
    /// Feeds `text` in chunks of the sizes `chunks` cycles through; returns what was forwarded.
    static func forwarded(_ text: String, chunks: [Int]) -> String {
        var lines = StderrLines()
        var out = ""
        let bytes = Array(text.utf8)
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunks[index % chunks.count])
            bytes[start..<end].withUnsafeBytes { lines.take($0) { out += $0 } }
            start = end
            index += 1
        }
        lines.finish { out += $0 }
        return out
    }

    @Test func everyByteComesOutOnceInOrderWhateverTheChunks() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<16 {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let length = [0, 1, 5, 80, 65_537, 140_000][Int.random(in: 0..<6, using: &generator)]
                text += String(repeating: round % 2 == 0 ? "x" : "é", count: length) + "\n"
            }
            let chunks = (0..<5).map { _ in Int.random(in: 1...70_000, using: &generator) }
            let out = Self.forwarded(text, chunks: chunks)
            // Undo the cuts: each note says how many lines before it are one line.
            var rebuilt: [String] = []
            for line in out.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                if line.hasPrefix("[storesh: the plugin's line above"),
                    let count = line.split(separator: " ").dropLast().last.flatMap({ Int($0) })
                {
                    let whole = rebuilt.suffix(count).joined()
                    rebuilt.removeLast(count)
                    rebuilt.append(whole)
                } else {
                    rebuilt.append(String(line))
                }
            }
            let expected = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(rebuilt == expected, "round \(round), chunks \(chunks)")
            #expect(out.split(separator: "\n").allSatisfy { $0.utf8.count <= StderrLines.longestLine + 200 })
        }
    }

    @Test func aLongLineIsCutIntoPiecesAndSaysSo() {
        let out = Self.forwarded(String(repeating: "x", count: 150_000) + "\nnext\n", chunks: [16_384])
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(lines.map(\.count))")
        #expect(lines[0].count == 65_536 && lines[1].count == 65_536 && lines[2].count == 150_000 - 2 * 65_536)
        #expect(
            lines[3]
                == "[storesh: the plugin's line above was 150000 bytes long, over the 65536-byte limit; it is shown in 3 lines]"
        )
        #expect(lines[4] == "next")
    }

    @Test func aLastLineWithoutANewlineIsForwardedAtTheEnd() {
        #expect(Self.forwarded("one\ntwo", chunks: [3]) == "one\ntwo\n")
    }

    @Test func aCrashReportIsNotForwarded() {
        let out = Self.forwarded("before\n\nFaulty.swift:52: Fatal error: boom\n\n*** Program crashed\n", chunks: [7])
        #expect(out == "before\n")
    }
}
