import StoreShell
import StoreValue
import Testing

@Suite("JSON output spells strings as storesh's literals do")
struct JSONTextTests {
    @Test func escapesMatchTheLiteralSyntax() {
        let pieces = ["plain", "todos[\"t1\"]", "back\\slash", "line\nbreak", "\r\t", "\u{0}\u{1}\u{1f}", "é", "日本", "🙂", "\u{7f}", ""]
        var generator = SplitMix(seed: 3)
        for round in 0..<500 {
            let text = (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(JSON.string(text) == Value.quoted(text), "round \(round): \(Array(text.utf8))")
        }
        #expect(JSON.string("a\"b\u{1}") == #""a\"b\u0001""#)
    }

    @Test func integersAreWrittenWhole() {
        for number in [0, 7, -7, 10, -10, 1_000_000, Int64.max, Int64.min, Int64.min + 1] {
            #expect(JSON.value(.int(number)) == String(number))
        }
    }
}
