import PluginActionsExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import Testing
import XCTest

@testable import StorePlugin
@testable import StoreValue

typealias MaybeCount = Int?

/// Every kind of stored property synthesized `Encodable` encodes (and some it leaves out).
@PluginState
struct EveryField: Encodable, Equatable {
    var count = 0
    var title = ""
    var done = false
    var ratio = 0.5
    var big: Int64 = 0
    var small: Int32 = 0
    var note: String?
    var aliased: MaybeCount = nil
    var forced: Int!
    let fixed = 7
    var observed = 1 {
        didSet { observed = max(observed, 0) }
    }
    lazy var cached: Int = 3
    var doubled: Int { count * 2 }
    static let shared = 0
    var `default` = "d"
    var inner = Inner()
    var maybeInner: Inner?
    var plain = Plain()
    var tags: [String] = []
    var lookup: [String: Int] = [:]
    var choice = Choice.empty
    var grid: [[Int]] = []

    @PluginState
    struct Inner: Codable, Equatable {
        var level = 0
        var label: String?
    }

    /// Not `@PluginState`: written through its `Encodable`.
    struct Plain: Codable, Equatable {
        var x = 1
        var y: [Bool] = []
    }

    enum Choice: Codable, Equatable {
        case empty
        case one(Int)
        case named(label: String, rank: Double)
    }

    static func random(using generator: inout some RandomNumberGenerator) -> EveryField {
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &generator) ? make() : nil }
        var value = EveryField()
        value.count = Int.random(in: Int.min...Int.max, using: &generator)
        value.title = String(
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in "aé✓\"\\\n z".randomElement(using: &generator)! }
        )
        value.done = Bool.random(using: &generator)
        value.ratio = [Double.random(in: -1e9...1e9, using: &generator), .infinity, -0.0, .nan].randomElement(
            using: &generator)!
        value.big = Int64.random(in: .min ... .max, using: &generator)
        value.small = Int32.random(in: .min ... .max, using: &generator)
        value.note = maybe { "n\(Int.random(in: 0...9, using: &generator))" }
        value.aliased = maybe { Int.random(in: -5...5, using: &generator) }
        value.forced = maybe { 42 }
        value.observed = Int.random(in: 0...100, using: &generator)
        value.default = maybe { "e" } ?? ""
        value.inner = Inner(level: Int.random(in: 0...3, using: &generator), label: maybe { "l" })
        value.maybeInner = maybe { Inner(level: 9, label: nil) }
        value.plain = Plain(
            x: Int.random(in: 0...3, using: &generator),
            y: (0..<Int.random(in: 0...3, using: &generator)).map { _ in Bool.random(using: &generator) })
        value.tags = (0..<Int.random(in: 0...4, using: &generator)).map { "t\($0)" }
        value.lookup = Dictionary(
            uniqueKeysWithValues: (0..<Int.random(in: 0...4, using: &generator)).map { ("k\(4 - $0)", $0) })
        let choices: [Choice] = [.empty, .one(Int.random(in: 0...9, using: &generator)), .named(label: "x", rank: 1.5)]
        value.choice = choices.randomElement(using: &generator)!
        value.grid = (0..<Int.random(in: 0...3, using: &generator)).map { row in Array(0..<row) }
        return value
    }
}

/// `@PluginState` on a struct whose `CodingKeys`, in an extension, the macro cannot see.
@PluginState
struct RenamedElsewhere: Codable {
    var count = 1
}

extension RenamedElsewhere {
    enum CodingKeys: String, CodingKey {
        case count = "total"
    }
}

/// A hand-written conformance that leaves a field out.
struct Forgetful: WireStateWritable {
    var kept = 1
    var forgotten = 2

    func writeWireState(to writer: WireStateWriter) throws {
        var record = try writer.beginRecord()
        try writer.field("kept", kept, in: &record)
        writer.end(record)
    }
}

@Suite("@PluginState writes the bytes synthesized Encodable gives")
struct PluginStateTests {
    /// The bytes through `Encodable` and through `writeWireState`, or nil where each gave up.
    func bothWays<T: WireStateWritable>(_ value: T, rootType: String?, within limit: Int) throws -> (
        encodable: [UInt8]?, direct: [UInt8]?
    ) {
        let encoder = WireStateEncoder()
        let encodable = try encoder.encode(value, rootType: rootType, within: limit) ? Array(encoder.bytes) : nil
        let direct =
            try encoder.encode(rootType: rootType, within: limit) { writer in try value.writeWireState(to: writer) }
            ? Array(encoder.bytes) : nil
        return (encodable, direct)
    }

    @Test func randomStatesAreWrittenByteForByteAsEncodableWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let value = EveryField.random(using: &generator)
            let (encodable, direct) = try bothWays(value, rootType: "EveryField", within: 1000)
            #expect(encodable != nil)
            #expect(direct == encodable, "\(value)")
        }
    }

    /// A state of the limit's size or more is given up both ways, at the same sizes.
    @Test func bothWaysGiveUpAtTheSameSize() throws {
        var value = EveryField()
        for tags in [0, 3, 20] {
            value.tags = (0..<tags).map { "t\($0)" }
            for limit in 0..<60 {
                let (encodable, direct) = try bothWays(value, rootType: nil, within: limit)
                #expect(direct == encodable, "\(tags) tags within \(limit)")
            }
        }
    }

    @Test func anEncodingErrorIsThrownThroughTheDirectWayToo() {
        struct Huge: WireStateWritable {
            var n = UInt64.max
            func writeWireState(to writer: WireStateWriter) throws {
                var record = try writer.beginRecord()
                try writer.field("n", n, in: &record)
                writer.end(record)
            }
        }
        #expect(throws: EncodingError.self) {
            try WireStateEncoder().encode(rootType: nil, within: 64) { try Huge().writeWireState(to: $0) }
        }
    }

    /// The tracker writes small snapshots the state's way only when its first gave the same
    /// bytes as `Encodable`; a conformance that differs costs speed, not the right bytes.
    @Test func theTrackerKeepsToEncodableWhenTheStatesOwnWritingDiffers() throws {
        func snapshots<T: Encodable>(_ values: [T]) throws -> (bytes: [[UInt8]], direct: Bool) {
            let tracker = ChangeTracker(rootType: "T")
            var bytes: [[UInt8]] = []
            for value in values {
                #expect(tracker.encodeSnapshot(of: value))
                bytes.append(Array(tracker.encodedSnapshot))
            }
            if case .direct = tracker.directWriting { return (bytes, true) }
            return (bytes, false)
        }
        func encodable<T: Encodable>(_ value: T) throws -> [UInt8] {
            let encoder = WireStateEncoder()
            #expect(try encoder.encode(value, rootType: "T", within: 64))
            return Array(encoder.bytes)
        }
        let counters = (0..<3).map { EveryField.Inner(level: $0, label: $0 == 1 ? "one" : nil) }
        let same = try snapshots(counters)
        #expect(same.direct)
        #expect(same.bytes == (try counters.map(encodable)))
        let renamed = try snapshots([RenamedElsewhere(), RenamedElsewhere(count: 5)])
        #expect(!renamed.direct)
        #expect(renamed.bytes == (try [RenamedElsewhere(), RenamedElsewhere(count: 5)].map(encodable)))
        let forgetful = try snapshots([Forgetful(), Forgetful(kept: 3)])
        #expect(!forgetful.direct)
        #expect(forgetful.bytes == (try [Forgetful(), Forgetful(kept: 3)].map(encodable)))
    }
}

final class PluginStateExpansionTests: XCTestCase {
    let macros: [String: any Macro.Type] = ["PluginState": PluginStateMacro.self]

    func testExpansionWritesEveryStoredPropertyInOrder() {
        assertMacroExpansion(
            """
            @PluginState
            public struct Shop: Codable {
                var items: [Item] = []
                let id = 1
                var `default`: String?
                var total: Int { 0 }
                lazy var cache = 0
                static let shared = Shop()
                var watched = 0 { didSet {} }
            }
            """,
            expandedSource: """
                public struct Shop: Codable {
                    var items: [Item] = []
                    let id = 1
                    var `default`: String?
                    var total: Int { 0 }
                    lazy var cache = 0
                    static let shared = Shop()
                    var watched = 0 { didSet {} }
                }

                extension Shop: WireStateWritable {
                    /// Writes the stored properties as `Encodable` encodes them, derived by `@PluginState`.
                    public func writeWireState(to writer: WireStateWriter) throws {
                        var record = try writer.beginRecord()
                        try writer.field("items", self.items, in: &record)
                        try writer.field("id", self.id, in: &record)
                        try writer.field("default", self.`default`, in: &record)
                        try writer.field("watched", self.watched, in: &record)
                        writer.end(record)
                    }
                }
                """,
            macros: macros
        )
    }

    func testWhatCannotBeMirroredIsACompileError() {
        assertMacroExpansion(
            """
            @PluginState
            struct State: Codable {
                @Clamped var level = 0
                var (a, b) = (1, 2)
                enum CodingKeys: CodingKey {
                    case level
                }
                func encode(to encoder: any Encoder) throws {}
            }
            """,
            expandedSource: """
                struct State: Codable {
                    @Clamped var level = 0
                    var (a, b) = (1, 2)
                    enum CodingKeys: CodingKey {
                        case level
                    }
                    func encode(to encoder: any Encoder) throws {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@PluginState cannot mirror a property wrapper's encoding (the wrapper is encoded, not the value): take @PluginState off",
                    line: 3, column: 5),
                DiagnosticSpec(
                    message: "@PluginState needs one name per stored property: declare these separately", line: 4,
                    column: 9),
                DiagnosticSpec(
                    message:
                        "@PluginState writes properties under their own names; this struct renames them (CodingKeys): take @PluginState off",
                    line: 5, column: 5),
                DiagnosticSpec(
                    message:
                        "@PluginState writes what synthesized Encodable encodes; this struct encodes itself (encode(to:)): take @PluginState off",
                    line: 8, column: 5),
            ],
            macros: macros
        )
        assertMacroExpansion(
            """
            @PluginState
            enum State {}
            """,
            expandedSource: """
                enum State {}
                """,
            diagnostics: [DiagnosticSpec(message: "@PluginState goes on the model's state struct", line: 1, column: 1)],
            macros: macros
        )
    }
}
