import StoreValue
import Testing

@testable import StoreShell

/// explore's strings reach what breaks text handling, and every one of them can be
/// written in an action and read back (a transcript replays exactly what was sent).
@Suite("The strings explore tries")
struct ExploreStringsTests {
    func drawn(_ count: Int, seed: UInt64) -> [String] {
        var random = ExploreRandom(seed: seed)
        return (0..<count).map { _ in
            random.chance(0.5) ? random.pick(ExploreStrings.classics) : ExploreStrings.made(&random)
        }
    }

    @Test func theyReachQuotesEscapesControlsCombiningMarksAstralScalarsAndLength() {
        let strings = drawn(3000, seed: 7)
        let scalars = strings.flatMap(\.unicodeScalars)
        #expect(strings.contains(""))
        #expect(scalars.contains("\"") && scalars.contains("\\"), "quotes and backslashes")
        #expect(
            scalars.contains(where: { $0.value < 0x20 && $0 != "\n" }), "a control character other than a line break")
        #expect(scalars.contains(where: { $0.properties.generalCategory == .nonspacingMark }), "a combining mark")
        #expect(scalars.contains(where: { $0.value > 0xFFFF }), "a scalar past the first plane")
        #expect(
            scalars.contains(where: { (0x0590...0x08FF).contains($0.value) || $0 == "\u{202E}" }), "right-to-left text")
        #expect(strings.contains(where: { $0.count >= 100 }), "a long one")
        #expect(strings.contains(where: { $0.unicodeScalars.count > $0.count }), "a character of several scalars")
        #expect(Set(strings).count > 1000, "more than a fixed list: \(Set(strings).count) distinct")
    }

    @Test func eachIsWrittenInAnActionAndReadBackAsItself() throws {
        var random = ExploreRandom(seed: 12)
        for drawn in drawn(2000, seed: 11) {
            // And the small changes made of strings seen in the state.
            for text in [drawn, ExploreStrings.varied(drawn, &random)] {
                let written = Value.quoted(text)
                #expect(try Literal.parse(Array(written.utf8)) == .string(text), "\(written)")
            }
        }
    }

    /// Grown and doubled over a long search, a seen string filled memory and transcripts.
    @Test func aLongSeenStringIsNeverGrown() {
        var random = ExploreRandom(seed: 5)
        let long = String(repeating: "ab", count: ExploreStrings.growthLimit)
        for _ in 0..<200 {
            #expect(ExploreStrings.varied(long, &random).utf8.count <= long.utf8.count)
        }
    }

    @Test func theSameSeedGivesTheSameStrings() {
        #expect(drawn(500, seed: 3) == drawn(500, seed: 3))
        #expect(drawn(500, seed: 3) != drawn(500, seed: 4))
    }
}
