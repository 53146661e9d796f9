import ObservableStore
import StorePlugin

/// The Die Hard jugs: a 5-gallon and a 3-gallon jug, a tap and a drain. The "bug" is that
/// 4 gallons can be measured (`--invariant 'big != 4'`, six steps at the least); the fixed
/// build has a 6-gallon big jug, with which every amount is a multiple of 3.
struct Jugs: ModelProtocol, Codable {
    var big = 0
    var small = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Fills the big jug from the tap.
        case fillBig
        /// Fills the small jug from the tap.
        case fillSmall
        /// Empties the big jug.
        case emptyBig
        /// Empties the small jug.
        case emptySmall
        /// Pours the big jug into the small one until one is empty or the other full.
        case bigToSmall
        /// Pours the small jug into the big one until one is empty or the other full.
        case smallToBig
    }

    static func update(state: Jugs, action: Action, environment: Build) -> Update<Jugs> {
        let bigSize = environment == .fixed ? 6 : 5
        let smallSize = 3
        var next = state
        switch action {
        case .fillBig: next.big = bigSize
        case .fillSmall: next.small = smallSize
        case .emptyBig: next.big = 0
        case .emptySmall: next.small = 0
        case .bigToSmall:
            let poured = min(next.big, smallSize - next.small)
            next.big -= poured
            next.small += poured
        case .smallToBig:
            let poured = min(next.small, bigSize - next.big)
            next.small -= poured
            next.big += poured
        }
        return Update(state: next)
    }
}
