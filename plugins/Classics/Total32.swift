import ObservableStore
import StorePlugin

/// A running total kept in 32 bits. The bug: the addition wraps (`--after add '!accepted ||
/// total == old(total) + args.amount'`, two steps: the largest Int32, then one more; an
/// amount outside Int32 is refused, hence `!accepted ||`). The fixed build keeps the total
/// in 64 bits.
struct Total32: ModelProtocol, Codable {
    var total = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds an amount to the total.
        case add(amount: Int32)
        /// Sets the total to zero.
        case reset
    }

    static func update(state: Total32, action: Action, environment: Build) -> Update<Total32> {
        var next = state
        switch action {
        case .add(let amount):
            if environment == .fixed {
                next.total += Int(amount)
            } else {
                next.total = Int(Int32(truncatingIfNeeded: next.total) &+ amount)
            }
        case .reset: next.total = 0
        }
        return Update(state: next)
    }
}
