import HostTestSupport
import StoreValue
import Testing

/// A small state read whole after every action is compared with the last one byte by byte
/// (`WireLeafChanges`) instead of being decoded and diffed: the sets it gives must make the
/// old state into the new one exactly, and anything it cannot say that way must be nil.
@Suite("Changes of a state of the same shape, from its bytes")
struct WireLeafChangesTests {
    private func bytes(_ value: Value) -> [UInt8] {
        var writer = WireWriter()
        writer.value(value)
        return writer.bytes
    }

    private func changes(_ old: Value, _ new: Value) -> WireLeafChanges? {
        WireLeafChanges.between(bytes(old), bytes(new))
    }

    static func counter(_ count: Int64, label: String = "count") -> Value {
        .record(type: "Counter", fields: [.init(label, .int(count)), .init("title", .string("clicks"))])
    }

    @Test func aChangedScalarIsOneSetAtItsPath() throws {
        let found = try #require(changes(Self.counter(1), Self.counter(2)))
        #expect(found.patches == [.set(path: [.field("count")], value: .int(2))])
        #expect(found.values == 3)
    }

    @Test func theSameStateHasNoChanges() throws {
        let found = try #require(changes(Self.counter(7), Self.counter(7)))
        #expect(found.patches.isEmpty)
    }

    @Test func nestedScalarsAreNamedByLabelsAndIndices() throws {
        let old = Value.record(type: "Shop", fields: [
            .init("cart", .array([.record(type: nil, fields: [.init("sku", .string("a")), .init("qty", .int(1))]), .null])),
            .init("open", .bool(true)),
        ])
        let new = Value.record(type: "Shop", fields: [
            .init("cart", .array([.record(type: nil, fields: [.init("sku", .string("a long one")), .init("qty", .int(1))]), .double(2)])),
            .init("open", .bool(false)),
        ])
        let found = try #require(changes(old, new))
        #expect(found.patches == [
            .set(path: [.field("cart"), .index(0), .field("sku")], value: .string("a long one")),
            .set(path: [.field("cart"), .index(1)], value: .double(2)),
            .set(path: [.field("open")], value: .bool(false)),
        ])
        #expect(try StatePatch.apply(found.patches, to: old) == new)
    }

    /// Each of these changes the state's shape, or cannot be named by a path: the bytes
    /// are then decoded whole.
    @Test(arguments: [
        ("a list grew", Value.record(type: "L", fields: [.init("items", .array([.int(1)]))]), Value.record(type: "L", fields: [.init("items", .array([.int(1), .int(2)]))])),
        ("a field came", .record(type: "C", fields: [.init("a", .int(1))]), .record(type: "C", fields: [.init("a", .int(1)), .init("b", .int(2))])),
        ("a label changed", WireLeafChangesTests.counter(1), WireLeafChangesTests.counter(1, label: "total")),
        ("the type changed", .record(type: "A", fields: []), .record(type: "B", fields: [])),
        ("an enum case changed", .record(type: "S", fields: [.init("phase", .enumCase(name: "idle", payload: []))]), .record(type: "S", fields: [.init("phase", .enumCase(name: "busy", payload: []))])),
        ("a scalar became a list", .record(type: "S", fields: [.init("x", .null)]), .record(type: "S", fields: [.init("x", .array([]))])),
        ("a changed field shares its label", .record(type: "D", fields: [.init("x", .int(1)), .init("x", .int(2))]), .record(type: "D", fields: [.init("x", .int(1)), .init("x", .int(3))])),
        ("the root is a scalar", .int(1), .int(2)),
    ])
    func aChangeOfShapeIsNil(why: String, old: Value, new: Value) {
        #expect(changes(old, new) == nil, "\(why)")
    }

    @Test func anUnchangedEnumAndUnchangedTwinLabelsAreFine() throws {
        let old = Value.record(type: "D", fields: [.init("x", .int(1)), .init("x", .int(2)), .init("e", .enumCase(name: "on", payload: [.init(nil, .int(1))])), .init("n", .int(0))])
        let new = Value.record(type: "D", fields: [.init("x", .int(1)), .init("x", .int(2)), .init("e", .enumCase(name: "on", payload: [.init(nil, .int(1))])), .init("n", .int(5))])
        let found = try #require(changes(old, new))
        #expect(found.patches == [.set(path: [.field("n")], value: .int(5))])
    }

    @Test func newBytesThatAreNotOneValueAreNil() {
        let old = bytes(Self.counter(1)), new = bytes(Self.counter(2))
        #expect(WireLeafChanges.between(old, new + [0]) == nil, "a byte after the value")
        for cut in 0..<new.count {
            #expect(WireLeafChanges.between(old, Array(new.prefix(cut))) == nil, "cut at \(cut)")
        }
        var badKind = new
        // The count's kind byte: after the record's header and the field's label.
        badKind[bytes(.record(type: "Counter", fields: [])).count + 1 + 4 + "count".utf8.count] = 99
        #expect(WireLeafChanges.between(old, badKind) == nil)
    }

    /// Random states, each against a copy with some scalars changed and, now and then, its
    /// shape: where the walk answers, its sets give the new state; where only scalars of
    /// uniquely named fields changed, it must answer.
    @Test func randomChangesGiveTheNewStateExactly() throws {
        var generator = SplitMix(seed: 37)
        var answered = 0
        for round in 0..<3000 {
            let old = Self.randomContainer(&generator)
            var reshaped = false
            let new = Self.mutate(old, &generator, reshaped: &reshaped)
            let found = WireLeafChanges.between(bytes(old), bytes(new))
            if let found {
                answered += 1
                #expect(try StatePatch.apply(found.patches, to: old) == new, "round \(round)")
                var reader = WireReader(bytes(new))
                #expect(found.values == (try reader.skipValue()), "round \(round)")
            } else if !reshaped {
                Issue.record("round \(round): only scalars changed, and no changes were found: \(old) → \(new)")
            }
        }
        #expect(answered > 1000)
    }

    private static func randomContainer(_ generator: inout SplitMix) -> Value {
        generator.next() % 3 == 0
            ? .array((0..<Int(generator.next() % 4)).map { _ in random(&generator, depth: 1) })
            : .record(type: generator.next() % 2 == 0 ? "State" : nil, fields: fields(&generator, depth: 1))
    }

    /// Fields with distinct labels.
    private static func fields(_ generator: inout SplitMix, depth: Int) -> [Value.Field] {
        let labels = ["id", "title", "", "日本", "done"]
        let start = Int(generator.next() % 5)
        return (0..<Int(generator.next() % 4)).map { .init(labels[(start + $0) % 5], random(&generator, depth: depth + 1)) }
    }

    private static func random(_ generator: inout SplitMix, depth: Int) -> Value {
        switch generator.next() % (depth > 3 ? 5 : 8) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .int(Int64(bitPattern: generator.next()) % 100)
        case 3: return .double(Double(generator.next() % 1000) / 7)
        case 4: return .string(["", "a", "todo \"1\"", "é🙂"][Int(generator.next() % 4)])
        case 5: return .array((0..<Int(generator.next() % 4)).map { _ in random(&generator, depth: depth + 1) })
        case 6: return .record(type: generator.next() % 2 == 0 ? "Todo" : nil, fields: fields(&generator, depth: depth))
        default: return .enumCase(name: "case\(generator.next() % 3)", payload: (0..<Int(generator.next() % 3)).map { _ in .init(nil, random(&generator, depth: depth + 1)) })
        }
    }

    /// `value` with some scalars replaced (by any scalar) and, rarely, a list grown, a
    /// field dropped or an enum case changed (`reshaped` then says so).
    private static func mutate(_ value: Value, _ generator: inout SplitMix, reshaped: inout Bool) -> Value {
        switch value {
        case .array(var items):
            for index in items.indices { items[index] = mutate(items[index], &generator, reshaped: &reshaped) }
            if generator.next() % 20 == 0 {
                reshaped = true
                items.append(.null)
            }
            return .array(items)
        case .record(let type, var fields):
            for index in fields.indices { fields[index].value = mutate(fields[index].value, &generator, reshaped: &reshaped) }
            if !fields.isEmpty, generator.next() % 20 == 0 {
                reshaped = true
                fields.removeLast()
            }
            return .record(type: type, fields: fields)
        case .enumCase(let name, let payload):
            guard generator.next() % 10 == 0 else { return value }
            reshaped = true
            return .enumCase(name: name + "'", payload: payload)
        default:
            return generator.next() % 3 == 0 ? random(&generator, depth: 9) : value
        }
    }
}
