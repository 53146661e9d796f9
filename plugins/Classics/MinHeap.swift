import ObservableStore
import StorePlugin

/// A binary min-heap in an array. The bug: sifting down after a pop compares the moved
/// element with the left child only, so the heap can lose its order and a later pop take
/// a value that is not the least (`--after pop 'popped == old(min(items))'`, four pushes
/// and two pops).
struct MinHeap: ModelProtocol, Codable {
    var items: [Int] = []
    /// What the last pop took (null when the heap was empty).
    var popped: Int?

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds a value.
        case push(value: Int)
        /// Takes the least value out.
        case pop
    }

    static func update(state: MinHeap, action: Action, environment: Build) -> Update<MinHeap> {
        var next = state
        switch action {
        case .push(let value):
            next.items.append(value)
            var child = next.items.count - 1
            while child > 0, next.items[(child - 1) / 2] > next.items[child] {
                next.items.swapAt(child, (child - 1) / 2)
                child = (child - 1) / 2
            }
        case .pop:
            guard !next.items.isEmpty else {
                next.popped = nil
                break
            }
            next.popped = next.items[0]
            let last = next.items.removeLast()
            if !next.items.isEmpty {
                next.items[0] = last
                siftDown(&next.items, bothChildren: environment == .fixed)
            }
        }
        return Update(state: next)
    }

    private static func siftDown(_ items: inout [Int], bothChildren: Bool) {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var least = parent
            if left < items.count, items[left] < items[least] { least = left }
            if bothChildren, right < items.count, items[right] < items[least] { least = right }
            guard least != parent else { return }
            items.swapAt(parent, least)
            parent = least
        }
    }
}
