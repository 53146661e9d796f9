import CStorePlugin
import HostTestSupport
import StoreHost
import StoreValue
import Testing

@Suite("Values survive being built as C value trees and read back")
struct ValueTreeTests {
    private func randomValue(_ generator: inout SplitMix, depth: Int) -> Value {
        let labels: [String?] = ["id", "title", "", "日本", nil]
        func label() -> String? { labels[Int(generator.next() % UInt64(labels.count))] }
        switch generator.next() % (depth > 3 ? 5 : 8) {
        case 0: return .null
        case 1: return .bool(generator.next() % 2 == 0)
        case 2: return .int(Int64(bitPattern: generator.next()))
        case 3: return .double(Double(generator.next() % 1000) / 7)
        case 4: return .string(["", "a", "todo \"1\"", "é🙂", "line\nbreak"][Int(generator.next() % 5)])
        case 5: return .array((0..<Int(generator.next() % 4)).map { _ in randomValue(&generator, depth: depth + 1) })
        case 6:
            let type: String? = generator.next() % 2 == 0 ? "Todo" : nil
            // A record's fields always have names: an unnamed one reads back as "".
            return .record(
                type: type,
                fields: (0..<Int(generator.next() % 4)).map { _ in
                    .init(label() ?? "", randomValue(&generator, depth: depth + 1))
                })
        default:
            return .enumCase(
                name: "case\(generator.next() % 3)",
                payload: (0..<Int(generator.next() % 3)).map { _ in
                    .init(label(), randomValue(&generator, depth: depth + 1))
                })
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var generator = SplitMix(seed: 5)
        let table = ValueFunctions.table
        for round in 0..<1000 {
            let value = randomValue(&generator, depth: 0)
            let tree = try #require(value.build(with: table))
            defer { table.value_free(tree) }
            #expect(try Value(reading: tree) == value, "round \(round): \(value)")
        }
    }

    /// A search's replay hashes each state straight from the plugin's tree: the hash is
    /// the value's, including texts that are not UTF-8, which Swift reads repaired.
    @Test func aTreesHashIsItsValuesHash() throws {
        var generator = SplitMix(seed: 11)
        let table = ValueFunctions.table
        for round in 0..<2000 {
            let value = randomValue(&generator, depth: 0)
            let tree = try #require(value.build(with: table))
            defer { table.value_free(tree) }
            #expect(Value.stableHash(reading: tree) == value.stableHash, "round \(round): \(value)")
        }
        let bytes: [CChar] = [CChar(bitPattern: 0xFF), 0x41, CChar(bitPattern: 0xC3), 0]
        let invalid = try #require(bytes.withUnsafeBufferPointer { table.value_string($0.baseAddress) })
        defer { table.value_free(invalid) }
        let read = try Value(reading: invalid)
        #expect(read == .string("\u{FFFD}A\u{FFFD}"))
        #expect(Value.stableHash(reading: invalid) == read.stableHash)
    }

    /// A tree nested past `Value.maxDepth` has no hash worked out from it (nil: the caller
    /// reads it, which says why), as it has no value; one level less has the value's.
    @Test func aTreeTooDeepHasNoHashAndOneLevelLessHasItsValues() throws {
        let table = ValueFunctions.table
        for (depth, readable) in [(Value.maxDepth, true), (Value.maxDepth + 1, false)] {
            var tree = try #require(table.value_int(7))
            for _ in 0..<depth {
                let parent = try #require(table.value_array())
                #expect(table.value_append(parent, nil, tree) == Int32(SP_OK))
                tree = parent
            }
            defer { table.value_free(tree) }
            let value = try? Value(reading: tree)
            #expect((value != nil) == readable, "\(depth) levels")
            #expect(Value.stableHash(reading: tree) == value?.stableHash, "\(depth) levels")
        }
    }

    /// Containers grow by doubling from eight children: every length across the first
    /// few doublings reads back whole (run under --sanitize=address for the reallocations).
    @Test func containersOfEveryLengthAcrossTheirGrowthRoundTrip() throws {
        let table = ValueFunctions.table
        for count in 0...70 {
            let values: [Value] = [
                .array((0..<count).map { .int(Int64($0)) }),
                .record(type: "R", fields: (0..<count).map { .init("f\($0)", .string("v\($0)")) }),
                .enumCase(
                    name: "c", payload: (0..<count).map { .init($0 % 2 == 0 ? nil : "p\($0)", .bool($0 % 3 == 0)) }),
            ]
            for value in values {
                let tree = try #require(value.build(with: table))
                defer { table.value_free(tree) }
                #expect(try Value(reading: tree) == value, "\(count) children")
            }
        }
    }
}
