import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

@Suite("Transcripts: the format")
struct TranscriptFormatTests {
    @Test func inputsOutputsCommentsAndContinuations() {
        let transcript = Transcript.parse(
            """
            # comment
            > setTags ["a",
            ... "b"]
            line one

            line three

            > :state
            count: 1
            """)
        let blocks = transcript.blocks
        #expect(blocks.count == 2)
        #expect(blocks[0].input == [#"setTags ["a","#, #""b"]"#])
        #expect(blocks[0].line == 2)
        #expect(
            blocks[0].expected.map(\.text) == ["line one", "", "line three"],
            "inner blank lines count; trailing ones separate")
        #expect(blocks[1].expected.map(\.line) == [9])
        #expect(Transcript.parse(transcript.text) == transcript, "the text round-trips")
    }

    @Test func regularExpressionsAndGlobs() {
        #expect(Transcript.matches("count: 42", #"count: \d+ (re)"#))
        #expect(!Transcript.matches("count: 42x", #"count: \d+ (re)"#), "a (re) line matches the whole line")
        #expect(Transcript.matches("took 12ms", "took *ms (glob)"))
        #expect(Transcript.matches("id a7", "id a? (glob)"))
        #expect(!Transcript.matches("id a77", "id a? (glob)"))
        #expect(Transcript.matches("a*b", #"a\*b (glob)"#))
        #expect(!Transcript.matches("count: 1", "count: 2"))
    }

    @Test func unifiedDiffCarriesLineNumbers() {
        let diff = UnifiedDiff.lines(
            from: ["a", "b", "c", "d"], to: ["a", "B", "c", "d", "e"], oldName: "x (expected)", newName: "x (actual)")
        #expect(diff == ["--- x (expected)", "+++ x (actual)", "@@ -1,4 +1,5 @@", " a", "-b", "+B", " c", " d", "+e"])
        #expect(UnifiedDiff.lines(from: ["same"], to: ["same"], oldName: "a", newName: "b").isEmpty)
    }

    @Test func theDiffIsMinimalAndRebuildsBothSides() {
        // Against a plain LCS on many random pairs: the edit script turns old into new and
        // has exactly n + m - 2·LCS edits.
        var generator = SplitMix(seed: 42)
        for _ in 0..<400 {
            let old = (0..<Int(generator.next() % 13)).map { _ in ["a", "b", "c"][Int(generator.next() % 3)] }
            let new = (0..<Int(generator.next() % 13)).map { _ in ["a", "b", "c"][Int(generator.next() % 3)] }
            let body = UnifiedDiff.lines(from: old, to: new, oldName: "o", newName: "n", context: 1_000).dropFirst(3)
            #expect(body.filter { !$0.hasPrefix("+") }.map { String($0.dropFirst()) } == (old == new ? [] : old))
            #expect(body.filter { !$0.hasPrefix("-") }.map { String($0.dropFirst()) } == (old == new ? [] : new))
            let edits = body.filter { $0.hasPrefix("+") || $0.hasPrefix("-") }.count
            #expect(edits == old.count + new.count - 2 * longestCommonSubsequence(old, new), "\(old) → \(new)")
        }
    }

    @Test func aLongPassingTranscriptIsComparedWithoutATable() {
        // 200,000 equal lines: the old LCS table would need 40 billion cells.
        let lines = (0..<200_000).map { "line \($0)" }
        #expect(UnifiedDiff.lines(from: lines, to: lines, oldName: "a", newName: "b").isEmpty)
        var changed = lines
        changed[100_000] = "different"
        #expect(
            UnifiedDiff.lines(from: lines, to: changed, oldName: "a", newName: "b").filter {
                $0.hasPrefix("-l") || $0.hasPrefix("+d")
            } == ["-line 100000", "+different"])
    }
}

@MainActor
@Suite("Transcripts: running them")
struct TranscriptRunTests {
    static let examples = Fixtures.repository.appendingPathComponent("examples")

    @Test func theAuthExampleIsByteForByteTheSameOnEveryRun() async throws {
        let file = Self.examples.appendingPathComponent("auth.transcript").path
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for run in 0..<100 {
            let result = await TranscriptRunner.run(text, file: file, searchPath: [buildDirectory])
            #expect(result.passed, "run \(run): \(result.diff.joined(separator: "\n"))")
            #expect(result.updated == text)
            if !result.passed { break }
        }
    }

    @Test func aFailureIsAUnifiedDiffAndUpdateRecordsTheActualOutput() async {
        let text = "> increment\nincrement: state changed\n  ~ count: 0 → 2\n> :state count\n"
        let result = await TranscriptRunner.run(text, file: "t.transcript", searchPath: [buildDirectory])
        #expect(!result.passed)
        #expect(
            result.diff == [
                "--- t.transcript (expected)", "+++ t.transcript (actual)", "@@ -1,4 +1,5 @@",
                " > increment", " increment: state changed", "-  ~ count: 0 → 2", "+  ~ count: 0 → 1",
                " > :state count", "+1",
            ])
        #expect(result.updated == "> increment\nincrement: state changed\n  ~ count: 0 → 1\n> :state count\n1\n")
        let again = await TranscriptRunner.run(result.updated, file: "t.transcript", searchPath: [buildDirectory])
        #expect(again.passed)
    }

    /// `(output not compared)`: what `storesh explore` writes under its failing step. The
    /// input may print anything, or be refused; the marker survives `--update`.
    @Test func anInputWhoseOutputIsNotComparedMayPrintAnythingOrBeRefused() async {
        let text = "> setCount 7\n(output not compared)\n> setCount \"x\"\n(output not compared)\n> :state count\n7\n"
        let result = await TranscriptRunner.run(text, file: "t.transcript", searchPath: [buildDirectory])
        #expect(result.passed, "\(result.problems) \(result.diff)")
        #expect(result.updated == text)
        let compared = await TranscriptRunner.run(
            "> setCount \"x\"\n> :state count\n0\n", file: "t.transcript", searchPath: [buildDirectory])
        #expect(!compared.passed, "without the marker, an error fails the transcript")
    }

    /// A timeout too long to count in nanoseconds (or not a number) means no deadline,
    /// never a trap: the library takes any Double, whatever its callers check.
    @Test func aTimeoutTooLongToCountIsNoLimit() async {
        let text = "> increment\nincrement: state changed\n  ~ count: 0 → 1\n"
        for timeout in [1e300, .infinity, .nan, 2e10, -1] {
            let result = await TranscriptRunner.run(
                text, file: "t.transcript", searchPath: [buildDirectory], timeout: timeout)
            #expect(result.passed == (timeout > 0 || timeout.isNaN), "timeout \(timeout): \(result.problems)")
        }
    }

    @Test func inputsOnlyBecomeARecordedTranscript() async {
        let result = await TranscriptRunner.run(
            "# record me\n> setCount 3\n\n> :state\n", file: "new.transcript", searchPath: [buildDirectory])
        #expect(
            result.updated
                == "# record me\n> setCount 3\nsetCount 3: state changed\n  ~ count: 0 → 3\n\n> :state\ncount: 3\n")
    }
}

private func longestCommonSubsequence(_ a: [String], _ b: [String]) -> Int {
    var row = [Int](repeating: 0, count: b.count + 1)
    for x in a {
        var previous = 0
        for (j, y) in b.enumerated() {
            let saved = row[j + 1]
            row[j + 1] = x == y ? previous + 1 : max(row[j + 1], row[j])
            previous = saved
        }
    }
    return row[b.count]
}
