import HostTestSupport
import Testing

@testable import StoreValue

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
        let nested = Nested()
        let wrapper = Wrapper(wrapped: Nested())
        #expect(try ValueEncoder().encode(nested) == tracked(nested))
        #expect(try ValueEncoder().encode(wrapper) == tracked(wrapper))
        #expect(try ValueEncoder().encode(HandWritten()) == tracked(HandWritten()))
        #expect(try ValueEncoder().encode(Mixed()) == tracked(Mixed()))
        #expect(try ValueEncoder().encode(LateWriter()) == tracked(LateWriter()))
        #expect(try ValueEncoder().encode(LateWriter())["record"] == .record(["first": .int(1), "again": .int(2)]))
        #expect(try ValueEncoder().encode(Empty()) == .record(type: nil, fields: []))
        #expect(
            try ValueEncoder().encode([Choice.empty, .named(label: "l"), .pair(2, "y")])
                == tracked([Choice.empty, .named(label: "l"), .pair(2, "y")]))
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
                    try PlainEncoding.value(
                        of: Nested(tags: (0..<size).map { "t\($0)" }, inner: [], lookup: [:]), within: limit),
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

/// A class whose subclass asks its encoder for a keyed container twice (its own, then its
/// superclass's `encode(to:)`): the same record, which a streaming encoding gives up on.
private class Base: Encodable {
    var base = 1
    enum Keys: String, CodingKey { case base, extra }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(base, forKey: .base)
    }
}

private final class Derived: Base {
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(2, forKey: .extra)
        try super.encode(to: encoder)
    }
}

@Suite("A small state's snapshot written straight to bytes is the plain encoding's")
struct WireStateEncoderTests {
    /// What the host has read so far: the plain encoding, named as the tracker names it,
    /// as `WireWriter` writes it.
    fileprivate func expected<T: Encodable>(_ value: T, rootType: String?, within limit: Int) throws -> [UInt8]? {
        guard var plain = try PlainEncoding.value(of: value, within: limit) else { return nil }
        if let rootType, case .record(_, let fields) = plain { plain = .record(type: rootType, fields: fields) }
        var writer = WireWriter()
        writer.value(plain)
        return writer.bytes
    }

    /// The encoder's bytes, or nil when it gave up.
    fileprivate func written<T: Encodable>(
        _ value: T, by encoder: WireStateEncoder, rootType: String?, within limit: Int
    ) throws -> [UInt8]? {
        guard try encoder.encode(value, rootType: rootType, within: limit) else { return nil }
        return Array(encoder.bytes)
    }

    @Test func everyOrderlyShapeIsWrittenAsThePlainEncodingWritesIt() throws {
        let encoder = WireStateEncoder()  // one for all: what one encoding leaves must not reach the next
        let samples: [any Encodable] = [
            Nested(lookup: [:]), Nested(lookup: ["b": 2, "a": 1]), Wrapper(wrapped: Nested(lookup: [:])),
            Empty(), [Choice.empty, .named(label: "l"), .pair(2, "y")], Optional<Int>.none, "text", 7,
            [[1, 2], [], [3]], ["x": [true, false]], [3: "three", 1: "one"], UInt64(12), 2.5, Float(1.5),
        ]
        for sample in samples {
            for rootType in [nil, "Root"] as [String?] {
                let want = try expected(sample, rootType: rootType, within: 64)
                #expect(want != nil, "\(sample) is small")
                #expect(
                    try written(sample, by: encoder, rootType: rootType, within: 64) == want,
                    "\(sample), named \(rootType ?? "nil")")
            }
        }
    }

    /// The limit is the plain encoding's: a state is written when it holds fewer values.
    @Test func aStateOfTheLimitOrMoreIsNotWritten() throws {
        let encoder = WireStateEncoder()
        for limit in [0, 1, 2, 5, 10, 30, 64] {
            for size in 0..<12 {
                let samples: [any Encodable] = [
                    Nested(tags: (0..<size).map { "t\($0)" }, inner: [], lookup: [:]),
                    Array(repeating: [size], count: size),
                    Wrapper(wrapped: Nested(inner: [[size]], lookup: [:])),
                    size,
                ]
                for sample in samples {
                    #expect(
                        try written(sample, by: encoder, rootType: "R", within: limit)
                            == expected(sample, rootType: "R", within: limit), "limit \(limit), size \(size): \(sample)"
                    )
                }
            }
        }
    }

    /// Writes out of order, a key twice, a container asked for twice, `superEncoder`: the
    /// encoder gives up (the tree encodings say what those mean) or writes the same bytes.
    @Test func writesOutOfOrderGiveUpOrAgree() throws {
        let encoder = WireStateEncoder()
        #expect(try written(HandWritten(), by: encoder, rootType: "R", within: 64) == nil)
        #expect(try written(Mixed(), by: encoder, rootType: "R", within: 64) == nil)
        #expect(try written(Derived(), by: encoder, rootType: "R", within: 64) == nil)
        // A write into a field's container after the field, before any other write, lands
        // where the tree encodings put it.
        #expect(
            try written(LateWriter(), by: encoder, rootType: "R", within: 64)
                == expected(LateWriter(), rootType: "R", within: 64))
        // A container kept past its encoding cannot write into a later one.
        let kept = KeptContainer()
        let leaky = try expected(Leaky(kept: kept), rootType: nil, within: 64)
        // keeps the encoder's container
        #expect(try written(Leaky(kept: kept), by: encoder, rootType: nil, within: 64) == leaky)
        #expect(
            try written(Nested(lookup: [:]), by: encoder, rootType: nil, within: 64)
                == expected(Nested(lookup: [:]), rootType: nil, within: 64))
        #expect(throws: (any Error).self) { try kept.container?.encode(5, forKey: .again) }
        #expect(
            try written(Nested(lookup: [:]), by: encoder, rootType: nil, within: 64)
                == expected(Nested(lookup: [:]), rootType: nil, within: 64))
    }

    @Test func anEncodingErrorIsThrownAsItIs() {
        #expect(throws: EncodingError.self) {
            try WireStateEncoder().encode(["n": UInt64.max], rootType: nil, within: 64)
        }
    }

    /// Through the tracker: a small state's bytes are its snapshot's, and it is not tracked.
    @Test func theTrackerWritesSmallStatesAndNotOthers() throws {
        let tracker = ChangeTracker(rootType: "Nested")
        #expect(tracker.encodeSnapshot(of: Nested(lookup: [:])))
        var writer = WireWriter()
        writer.value(try ChangeTracker(rootType: "Nested").snapshot(of: Nested(lookup: [:])))
        #expect(Array(tracker.encodedSnapshot) == writer.bytes)
        #expect(try tracker.changes(of: Nested(lookup: [:])) == nil, "small: a snapshot is asked for")
        #expect(!tracker.encodeSnapshot(of: Nested()), "80 entries: not small")
        _ = try tracker.snapshot(of: Nested())
        #expect(!tracker.encodeSnapshot(of: Nested(lookup: [:])), "tracked: the tree must see the next state")
        #expect(try tracker.changes(of: Nested()) != nil)
    }
}

/// A random shape of encoding: scalars of every kind the encoders know, optionals,
/// dictionaries, lists, records through synthesized-style keyed containers, nested
/// containers written in order, and single-value wrappers.
private indirect enum Shape: Encodable {
    case int(Int), text(String), flag(Bool), real(Double), small(Int8), unsigned(UInt32), none(Int?)
    case list([Shape]), table([String: Shape]), numbered([Int: Shape])
    case record([(String, Shape)]), nestedRecord(String, [(String, Shape)]), nestedList(String, [Shape])
    case wrapped(Shape)

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .int(let value): try value.encode(to: encoder)
        case .text(let value): try value.encode(to: encoder)
        case .flag(let value): try value.encode(to: encoder)
        case .real(let value): try value.encode(to: encoder)
        case .small(let value): try value.encode(to: encoder)
        case .unsigned(let value): try value.encode(to: encoder)
        case .none(let value):
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(value, forKey: Key(stringValue: "maybe"))
        case .list(let items): try items.encode(to: encoder)
        case .table(let entries): try encodeInStableOrder(entries, to: encoder)
        case .numbered(let entries): try encodeInStableOrder(entries, to: encoder)
        case .record(let fields):
            var container = encoder.container(keyedBy: Key.self)
            for (label, value) in fields { try container.encode(value, forKey: Key(stringValue: label)) }
        case .nestedRecord(let label, let fields):
            var outer = encoder.container(keyedBy: Key.self)
            var inner = outer.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: label))
            for (name, value) in fields { try inner.encode(value, forKey: Key(stringValue: name)) }
            try outer.encode(true, forKey: Key(stringValue: label + "!"))
        case .nestedList(let label, let items):
            var outer = encoder.container(keyedBy: Key.self)
            var inner = outer.nestedUnkeyedContainer(forKey: Key(stringValue: label))
            for item in items { try inner.encode(item) }
            try inner.encodeNil()
        case .wrapped(let inner):
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    static func random(_ generator: inout SplitMix, depth: Int) -> Shape {
        let pick = Int(generator.next() % (depth > 3 ? 7 : 14))
        let width = Int(generator.next() % 4)
        func label(_ index: Int) -> String {
            ["a", "b", "é", "key \(index)", "x\(generator.next() % 3)"][index % 5] + "\(index)"
        }
        func children() -> [Shape] { (0..<width).map { _ in random(&generator, depth: depth + 1) } }
        switch pick {
        case 0: return .int(Int(bitPattern: UInt(generator.next())) >> Int(generator.next() % 64))
        case 1:
            return .text(["", "t", "naïve", "a\"b\\c\n", String(repeating: "z", count: 40)][Int(generator.next() % 5)])
        case 2: return .flag(generator.next() % 2 == 0)
        case 3: return .real([0, -0.0, 1.5, -2.25e10, .infinity][Int(generator.next() % 5)])
        case 4: return .small(Int8(truncatingIfNeeded: generator.next()))
        case 5: return .unsigned(UInt32(truncatingIfNeeded: generator.next()))
        case 6: return .none(generator.next() % 2 == 0 ? nil : 3)
        case 7: return .list(children())
        case 8:
            return .table(
                Dictionary(uniqueKeysWithValues: children().enumerated().map { (label($0.offset), $0.element) }))
        case 9:
            return .numbered(
                Dictionary(uniqueKeysWithValues: children().enumerated().map { ($0.offset * 7 - 3, $0.element) }))
        case 10: return .record(children().enumerated().map { (label($0.offset), $0.element) })
        case 11: return .nestedRecord(label(width), children().enumerated().map { (label($0.offset), $0.element) })
        case 12: return .nestedList(label(width), children())
        default: return .wrapped(random(&generator, depth: depth + 1))
        }
    }
}

extension WireStateEncoderTests {
    /// Random shapes, each written by one reused encoder and compared byte for byte with
    /// the plain encoding (or, past the limit, both giving up).
    @Test func randomShapesAreWrittenAsThePlainEncodingWritesThem() throws {
        var generator = SplitMix(seed: 11)
        let encoder = WireStateEncoder()
        var written = 0
        for round in 0..<3000 {
            let shape = Shape.random(&generator, depth: 0)
            let limit = [64, 8, 200][round % 3]
            let want = try expected(shape, rootType: round % 2 == 0 ? "Shape" : nil, within: limit)
            let got = try self.written(shape, by: encoder, rootType: round % 2 == 0 ? "Shape" : nil, within: limit)
            #expect(got == want, "round \(round), limit \(limit): \(shape)")
            if got != nil { written += 1 }
        }
        #expect(written > 1000, "most random shapes are small enough to be written")
    }
}
