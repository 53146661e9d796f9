import HostTestSupport
import StoreValue
import Testing

private struct Inventory: Codable, Equatable {
    var stock: [String: Int] = [:]
    var bins: [Int: String] = [:]
    var weights: [Double: String] = [:]
    var tags: Set<String> = []
}

@Suite("Dictionaries and sets in a state list their entries in order, whatever order they store them in")
struct KeyOrderTests {
    /// The same entries stored two ways: inserted in opposite orders into dictionaries of
    /// different capacities, which the standard library iterates in different orders.
    private func twoWays(_ count: Int) -> (Inventory, Inventory) {
        var first = Inventory()
        var second = Inventory()
        second.stock.reserveCapacity(4096)
        second.bins.reserveCapacity(4096)
        second.tags.reserveCapacity(4096)
        for index in 0..<count {
            first.stock["item\(index)"] = index
            first.bins[index * 7 % 101] = "b\(index)"
            first.weights[Double(index) / 4] = "w\(index)"
            first.tags.insert("tag\(index)")
        }
        for index in (0..<count).reversed() {
            second.stock["item\(index)"] = index
            second.bins[index * 7 % 101] = "b\(index)"
            second.weights[Double(index) / 4] = "w\(index)"
            second.tags.insert("tag\(index)")
        }
        return (first, second)
    }

    @Test func equalDictionariesEncodeAlikeInKeyOrder() throws {
        let (first, second) = twoWays(40)
        #expect(first == second)
        let encoded = try ValueEncoder().encode(first)
        #expect(try ValueEncoder().encode(second) == encoded)
        #expect(try ChangeTracker(smallState: 0).snapshot(of: second) == encoded, "the tracked encoding too")
        let stockKeys = encoded["stock"]?.children.compactMap(\.label) ?? []
        #expect(stockKeys == stockKeys.sorted() && stockKeys.count == 40)
        let binKeys = encoded["bins"]?.children.compactMap { $0.label.flatMap { Int($0) } } ?? []
        #expect(binKeys == binKeys.sorted() && binKeys.count == 40, "Int keys in numeric order: \(binKeys)")
        // Keys that are neither strings nor integers alternate with their values, as the
        // standard library writes them: here in key order.
        guard case .array(let pairs)? = encoded["weights"] else {
            Issue.record("weights is not an array: \(String(describing: encoded["weights"]))")
            return
        }
        let weightKeys = stride(from: 0, to: pairs.count, by: 2).map { pairs[$0] }
        #expect(weightKeys == (0..<40).map { Value.double(Double($0) / 4) })
        #expect(
            encoded["tags"] == .array((0..<40).map { "tag\($0)" }.sorted().map(Value.string)),
            "a set's elements in order")
        #expect(try ValueDecoder().decode(Inventory.self, from: encoded) == first, "a snapshot restores")
    }

    @Test func aDictionaryThatGrowsIsTrackedInKeyOrder() throws {
        let tracker = ChangeTracker(smallState: 0)
        var inventory = twoWays(30).0
        var shown = try tracker.snapshot(of: inventory)
        for index in 30..<300 {
            inventory.stock["item\(index)"] = index  // grows past several capacities
            if index % 3 == 0 { inventory.stock["item\(index / 2)"] = -index }
            try expectChangesRoundTrip(tracker, inventory, shown: &shown, round: "after \(index)")
        }
    }
}
