import StoreValue
import Testing

/// `Value.stableHash`: what `storesh explore` counts states by, hashed in a worker or in
/// storesh. It must agree with `==`, tell apart the states a search meets, and never change
/// (a seed's figures depend on it).
@Suite("A state's stable hash")
struct StableHashTests {
    private func ring(size: Int64, _ contents: [Int64]) -> Value {
        .record(["size": .int(size), "contents": .array(contents.map(Value.int))])
    }

    @Test func equalValuesHashAlike() {
        #expect(Value.double(0).stableHash == Value.double(-0.0).stableHash, "zero's two signs are one number")
        #expect(Value.double(.nan).stableHash == Value.double(.nan).stableHash)
        #expect(ring(size: 2, [1, 2]).stableHash == ring(size: 2, [1, 2]).stableHash)
    }

    @Test func kindsLabelsAndTypeNamesAreTold() {
        let ones: [Value] = [.int(1), .double(1), .string("1"), .bool(true), .array([.int(1)]), .null]
        #expect(Set(ones.map(\.stableHash)).count == ones.count)
        #expect(
            Value.record(["a": .int(1)]).stableHash != Value.record(["b": .int(1)]).stableHash)
        #expect(
            Value.record(["a": .int(1)], type: "A").stableHash != Value.record(["a": .int(1)], type: "B").stableHash)
        #expect(
            Value.enumCase(name: "some", payload: [.init(nil, .int(1))]).stableHash
                != Value.enumCase(name: "none", payload: [.init(nil, .int(1))]).stableHash)
        #expect(Value.array([.int(1), .int(2)]).stableHash != Value.array([.int(2), .int(1)]).stableHash)
        #expect(Value.string("ab").stableHash != Value.array([.string("a"), .string("b")]).stableHash)
    }

    /// Small states that differ in small numbers: a first version (FNV-1a over whole
    /// words) merged a third of these.
    @Test func aGridOfSmallStatesHasNoCollision() {
        var hashes = Set<Int>()
        var count = 0
        for size in Int64(0)..<3 {
            for first in Int64(-60)...60 {
                for second in Int64(-20)...20 {
                    hashes.insert(ring(size: size, [first, second]).stableHash)
                    count += 1
                }
            }
        }
        for text in 0..<2000 { hashes.insert(Value.string("item \(text)").stableHash) }
        #expect(hashes.count == count + 2000)
    }

    @Test func itIsTheSameInEveryProcessAndRun() {
        // Pinned: `hashValue` is seeded afresh per process; this must not be.
        #expect(ring(size: 2, [3, 4]).stableHash == Self.pinned)
    }

    private static let pinned = -6_576_526_529_477_562_347
}
