import HostTestSupport
import StoreValue
import Testing

/// A value is written in the protocol's bytes (pinned here, whatever way the writer goes
/// about it). A worker passes its plugin's state on after `WireReader.skipValue` checked it, and
/// decodes it with `value()` only when it needs the state: the two must accept the same
/// bytes, end at the same place and fail with the same error, or a state the shell cannot
/// read would pass the worker's check (or a good one fail it).
@Suite("Wire values: written as the protocol says, checked without decoding")
struct WireSkipTests {
    /// Every kind of value, nested: records, enum cases, arrays, long and non-ASCII text.
    static let values: [Value] = [
        .null, .bool(true), .int(-42), .double(.nan), .string(""), .string("café — ✓"),
        .record(type: "Counter", fields: [.init("count", .int(3))]),
        .record(type: nil, fields: []),
        .array([
            .int(1), .array([]), .record(type: "T", fields: [.init("id", .string("t1")), .init("done", .bool(false))]),
        ]),
        .enumCase(
            name: "loaded",
            payload: [.init(nil, .string(String(repeating: "x", count: 300))), .init("at", .double(1.5))]),
        .record(
            type: "List",
            fields: [
                .init("todos", .array((0..<50).map { .record(type: nil, fields: [.init("id", .string("t\($0)"))]) }))
            ]),
    ]

    /// How many values `value` holds, itself included: what `skipValue` returns.
    static func count(_ value: Value) -> Int {
        switch value {
        case .array(let items): 1 + items.map(count).reduce(0, +)
        case .record(_, let fields), .enumCase(_, let fields): 1 + fields.map { count($0.value) }.reduce(0, +)
        default: 1
        }
    }

    @Test(arguments: values)
    func aValueIsSkippedToWhereItEndsAndCounted(value: Value) throws {
        var writer = WireWriter()
        writer.value(value)
        writer.u8(0xAB)  // what follows must be left where it is
        var skipping = WireReader(writer.bytes)
        var reading = WireReader(writer.bytes)
        #expect(try skipping.skipValue() == Self.count(value))
        _ = try reading.value()
        #expect(skipping.offset == reading.offset)
        #expect(try skipping.u8() == 0xAB)
    }

    /// The bytes of each kind of value, as docs/worker-protocol.md and storeplugin.h give
    /// them: what the writer must produce however it goes about it.
    @Test func aValueIsWrittenAsTheProtocolSays() {
        var writer = WireWriter()
        writer.value(
            .record(
                type: "C",
                fields: [
                    .init("n", .int(-2)), .init("on", .bool(true)), .init("x", .double(1.5)),
                    .init("l", .array([.null, .string("é")])),
                    .init("e", .enumCase(name: "k", payload: [.init(nil, .null)])),
                ]))
        let expected: [UInt8] =
            [6, 1, 1, 0, 0, 0, 0x43, 5, 0, 0, 0]
            + [1, 1, 0, 0, 0, 0x6E, 2, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
            + [1, 2, 0, 0, 0, 0x6F, 0x6E, 1, 1]
            + [1, 1, 0, 0, 0, 0x78, 3, 0, 0, 0, 0, 0, 0, 0xF8, 0x3F]
            + [1, 1, 0, 0, 0, 0x6C, 5, 2, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0xC3, 0xA9]
            + [1, 1, 0, 0, 0, 0x65, 7, 1, 0, 0, 0, 0x6B, 1, 0, 0, 0, 0, 0]
        #expect(writer.bytes == expected)
        writer.value(.record(type: nil, fields: []))
        #expect(writer.bytes == expected + [6, 0, 0, 0, 0, 0], "a second value follows the first")
    }

    /// Every way a value can be malformed, with the error `value()` gives.
    static let malformed: [(String, [UInt8])] = [
        ("ends early", [2, 1, 2, 3]),
        ("unknown value kind 9", [9]),
        ("has no label", [6, 0, 1, 0, 0, 0, 0, 0]),
        ("nested more than", Array(repeating: 5, count: 300).flatMap { [$0, 1, 0, 0, 0] }),
        ("a count of 1000 items", [5, 0xE8, 0x03, 0, 0, 0]),
        ("ends early", [4, 10, 0, 0, 0, 65]),
    ]

    @Test func aMalformedValueFailsBothWaysWithTheSameError() {
        for (reason, bytes) in Self.malformed {
            var skipping = WireReader(bytes)
            var reading = WireReader(bytes)
            let skipError = #expect(throws: WireError.self, "\(reason)") { _ = try skipping.skipValue() }
            let readError = #expect(throws: WireError.self, "\(reason)") { _ = try reading.value() }
            #expect(skipError?.description == readError?.description, "\(reason)")
            #expect(
                skipError?.description.contains(reason) == true, "\(reason): \(skipError?.description ?? "no error")")
        }
    }

    /// Every prefix of a good encoding is malformed: both ways say so.
    @Test func everyTruncationFailsBothWays() throws {
        var writer = WireWriter()
        writer.value(Self.values[8])
        for end in 0..<writer.bytes.count {
            var skipping = WireReader(Array(writer.bytes[0..<end]))
            var reading = WireReader(Array(writer.bytes[0..<end]))
            #expect(throws: WireError.self) { _ = try skipping.skipValue() }
            #expect(throws: WireError.self) { _ = try reading.value() }
        }
    }
}
