import ObservableStore
import StorePlugin

/// Hughes' circular buffer: three places, a write and a read index that wrap at four (one
/// place more than the capacity, so full and empty differ), and the size worked out from
/// them after each step. The bug: the size is taken modulo the capacity rather than the
/// indices' range, so a full buffer says it holds nothing
/// (`--invariant 'size == count(contents)'`, three pushes).
struct CircularBuffer: ModelProtocol, Codable {
    var capacity = 3
    /// What the buffer holds, oldest first.
    var contents: [Int] = []
    var writeIndex = 0
    var readIndex = 0
    var size = 0
    /// What the last pop took, if it took anything.
    var popped: Int?

    @PluginActions
    enum Action: Codable, Sendable {
        /// Puts a value in, unless the buffer is full.
        case push(value: Int)
        /// Takes the oldest value out, unless the buffer is empty.
        case pop
    }

    static func update(state: CircularBuffer, action: Action, environment: Build) -> Update<CircularBuffer> {
        var next = state
        let range = next.capacity + 1
        switch action {
        case .push(let value):
            guard next.size < next.capacity else { break }
            next.contents.append(value)
            next.writeIndex = (next.writeIndex + 1) % range
        case .pop:
            guard next.size > 0, !next.contents.isEmpty else {
                next.popped = nil
                break
            }
            next.popped = next.contents.removeFirst()
            next.readIndex = (next.readIndex + 1) % range
        }
        let modulus = environment == .fixed ? range : next.capacity
        next.size = (next.writeIndex - next.readIndex + modulus) % modulus
        return Update(state: next)
    }
}
