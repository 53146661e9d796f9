import HostTestSupport
import StoreShell
import StoreValue
import Testing

@Suite("JSON output spells strings as storesh's literals do")
struct JSONTextTests {
    @Test func escapesMatchTheLiteralSyntax() {
        let pieces = [
            "plain", "todos[\"t1\"]", "back\\slash", "line\nbreak", "\r\t", "\u{0}\u{1}\u{1f}", "é", "日本", "🙂",
            "\u{7f}", "",
        ]
        var generator = SplitMix(seed: 3)
        for round in 0..<500 {
            let text = (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined()
            #expect(JSON.string(text) == Value.quoted(text), "round \(round): \(Array(text.utf8))")
        }
        #expect(JSON.string("a\"b\u{1}") == #""a\"b\u0001""#)
    }

    @Test func integersAreWrittenWhole() {
        for number in [0, 7, -7, 10, -10, 1_000_000, Int64.max, Int64.min, Int64.min + 1] {
            #expect(JSON.value(.int(number)) == String(number))
        }
    }

    @Test func aBufferGrowsWithoutLosingWhatWasWritten() {
        let out = OutputBuffer(capacity: 1)
        var expected: [UInt8] = []
        var generator = SplitMix(seed: 9)
        for round in 0..<2_000 {
            switch generator.next() % 4 {
            case 0:
                out.append(UInt8(round % 256))
                expected.append(UInt8(round % 256))
            case 1:
                let number = Int(truncatingIfNeeded: generator.next())
                out.appendDecimal(number)
                expected += String(number).utf8
            case 2:
                let text = String(repeating: "é", count: round % 37)
                out.append(text)
                expected += text.utf8
            default:
                out.append("{\"$case\":" as StaticString)
                expected += #"{"$case":"#.utf8
            }
        }
        #expect(out.withBytes { Array($0) } == expected)
        out.removeAll()
        #expect(out.isEmpty && out.text.isEmpty)
    }
}
