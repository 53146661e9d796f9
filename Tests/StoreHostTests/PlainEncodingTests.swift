@testable import StoreValue
import Testing

private struct Nested: Codable, Equatable {
    var name = "n"
    var tags: [String] = ["a", "b"]
    var inner: [[Int]] = [[1], [], [2, 3]]
    var maybe: Int?
    var lookup: [String: Int] = Dictionary(uniqueKeysWithValues: (0..<80).map { ("k\($0)", $0) })
    var mark: Choice = .pair(1, "x")
}

private enum Choice: Codable, Equatable {
    case empty
    case pair(Int, String)
    case named(label: String)
}

/// Encodes through one single-value container, as wrappers do.
private struct Wrapper: Codable {
    var wrapped: Nested
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrapped)
    }
}

/// Writes nested containers, then more fields, then into the nested ones again, and a
/// key twice: what a hand-written `encode(to:)` may do.
private struct HandWritten: Encodable {
    enum Keys: String, CodingKey { case first, list, record, again, `super` }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        var record = container.nestedContainer(keyedBy: Keys.self, forKey: .record)
        try container.encode(1, forKey: .first)
        try list.encode("one")
        try record.encodeNil(forKey: .again)
        var deeper = list.nestedContainer(keyedBy: Keys.self)
        try deeper.encode(true, forKey: .first)
        try list.encodeNil()
        try container.encode(2, forKey: .first)
        let parent = container.superEncoder()
        var parentFields = parent.container(keyedBy: Keys.self)
        try parentFields.encode("base", forKey: .first)
        _ = container.superEncoder(forKey: .again)
    }
}

/// Asks for a keyed container and then an unkeyed one in the same place: a misuse whose
/// meaning the tracker's encoding defines.
private struct Mixed: Encodable {
    enum Keys: String, CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Keys.self)
        try keyed.encode(1, forKey: .a)
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
    }
}

private struct Empty: Codable {}

/// Keeps a container past the end of the `encode(to:)` that made it.
private final class KeptContainer {
    var container: KeyedEncodingContainer<HandWritten.Keys>?
}

private struct Leaky: Encodable {
    let kept: KeptContainer
    func encode(to encoder: any Encoder) throws {
        kept.container = encoder.container(keyedBy: HandWritten.Keys.self)
        try kept.container?.encode(1, forKey: .first)
    }
}

/// Writes into its field's container after that field was encoded: the field's value
/// then has both writes, in the tracker's encoding.
private struct LateWriter: Encodable {
    func encode(to encoder: any Encoder) throws {
        let kept = KeptContainer()
        var container = encoder.container(keyedBy: HandWritten.Keys.self)
        try container.encode(Leaky(kept: kept), forKey: .record)
        try kept.container?.encode(2, forKey: .again)
    }
}

@Suite("A plain encoding gives what the change tracker's encoding gives")
struct PlainEncodingTests {
    private func tracked<T: Encodable>(_ value: T) throws -> Value {
        try TrackedNode.encode(value, against: nil, codingPath: []).value
    }

    @Test func everyShapeEncodesAlike() throws {
        let nested = Nested(), wrapper = Wrapper(wrapped: Nested())
        #expect(try ValueEncoder().encode(nested) == tracked(nested))
        #expect(try ValueEncoder().encode(wrapper) == tracked(wrapper))
        #expect(try ValueEncoder().encode(HandWritten()) == tracked(HandWritten()))
        #expect(try ValueEncoder().encode(Mixed()) == tracked(Mixed()))
        #expect(try ValueEncoder().encode(LateWriter()) == tracked(LateWriter()))
        #expect(try ValueEncoder().encode(LateWriter())["record"] == .record(["first": .int(1), "again": .int(2)]))
        #expect(try ValueEncoder().encode(Empty()) == .record(type: nil, fields: []))
        #expect(try ValueEncoder().encode([Choice.empty, .named(label: "l"), .pair(2, "y")]) == tracked([Choice.empty, .named(label: "l"), .pair(2, "y")]))
        #expect(try ValueEncoder().encode(Optional<Int>.none) == tracked(Optional<Int>.none))
        #expect(try ValueEncoder().encode("text") == .string("text"))
    }

    @Test func handWrittenContainersKeepEveryWriteInPlace() throws {
        let value = try ValueEncoder().encode(HandWritten())
        #expect(value["first"] == .int(2), "a key written twice keeps its place and the last value")
        #expect(value.children.map(\.label) == ["list", "record", "first", "super", "again"])
        #expect(value["list"] == .array([.string("one"), .record(["first": .bool(true)]), .null]))
    }

    /// A plain encoding with a limit stops at the limit-th value: exactly the states
    /// `isSmaller(than:)` calls small come back, whatever their shape.
    @Test func aLimitedEncodingKnowsSmallStatesAsTheCountDoes() throws {
        for limit in [0, 1, 2, 5, 10, 30, 64] {
            for size in 0..<12 {
                let samples: [Value?] = [
                    try PlainEncoding.value(of: Nested(tags: (0..<size).map { "t\($0)" }, inner: [], lookup: [:]), within: limit),
                    try PlainEncoding.value(of: HandWritten(), within: limit),
                    try PlainEncoding.value(of: Array(repeating: [size], count: size), within: limit),
                    try PlainEncoding.value(of: Wrapper(wrapped: Nested(inner: [[size]], lookup: [:])), within: limit),
                    try PlainEncoding.value(of: size, within: limit),
                ]
                let whole = [
                    try ValueEncoder().encode(Nested(tags: (0..<size).map { "t\($0)" }, inner: [], lookup: [:])),
                    try ValueEncoder().encode(HandWritten()),
                    try ValueEncoder().encode(Array(repeating: [size], count: size)),
                    try ValueEncoder().encode(Wrapper(wrapped: Nested(inner: [[size]], lookup: [:]))),
                    try ValueEncoder().encode(size),
                ]
                for (sample, value) in zip(samples, whole) {
                    #expect((sample != nil) == value.isSmaller(than: limit), "limit \(limit), size \(size): \(value)")
                    if let sample { #expect(sample == value) }
                }
            }
        }
    }

    @Test func aSmallStateSnapshotIsThePlainEncoding() throws {
        let tracker = ChangeTracker(rootType: "Nested")
        let snapshot = try tracker.snapshot(of: Nested(lookup: [:]))
        #expect(snapshot == .record(type: "Nested", fields: try ValueEncoder().encode(Nested(lookup: [:])).children))
        #expect(try tracker.changes(of: Nested(lookup: [:])) == nil, "small: nothing tracked, a snapshot is asked for")
        let grown = Nested()
        #expect(try tracker.snapshot(of: grown).children.count == 6)
        #expect(try tracker.changes(of: grown) == [], "grown past small: tracked from this snapshot on")
    }
}
