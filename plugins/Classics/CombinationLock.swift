import ObservableStore
import StorePlugin

/// A combination lock with buttons 1 to 4 and a reset: it opens when the presses since the
/// last reset are its code; a wrong press locks it until the next reset. The bug: a reset
/// forgets the presses but not how far along the code they got, so the code's end after a
/// reset opens it (`--invariant '!(open && digits != code)'`: a reset in the middle of
/// the code, six steps; random search rarely finds it).
struct CombinationLock: ModelProtocol, Codable {
    var code = [3, 1, 4, 1, 2]
    /// The presses since the last reset.
    var digits: [Int] = []
    /// How many of the code's digits have been pressed in order.
    var matched = 0
    /// A wrong digit was pressed since the last reset.
    var wrong = false
    var open = false

    @PluginActions
    enum Action: Codable, Sendable {
        /// Presses a button.
        /// - Parameter digit: the button, in 1...4
        case press(digit: Int)
        /// Starts over.
        case reset
    }

    static func update(state: CombinationLock, action: Action, environment: Build) -> Update<CombinationLock> {
        var next = state
        switch action {
        case .press(let digit):
            guard (1...4).contains(digit), !next.open else { break }
            next.digits.append(digit)
            if !next.wrong, next.matched < next.code.count, digit == next.code[next.matched] {
                next.matched += 1
            } else {
                next.wrong = true
            }
            next.open = !next.wrong && next.matched == next.code.count
        case .reset:
            next.digits = []
            next.wrong = false
            next.open = false
            if environment == .fixed { next.matched = 0 }
        }
        return Update(state: next)
    }
}
