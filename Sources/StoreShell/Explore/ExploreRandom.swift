/// The explorer's source of choices: SplitMix64, so a seed gives the same runs on every
/// machine and every build (the standard library's generator is not seedable).
package struct ExploreRandom: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `chance`.
    package mutating func chance(_ chance: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < chance
    }

    /// An index below `count` (which is more than 0).
    package mutating func index(_ count: Int) -> Int {
        Int(next() % UInt64(count))
    }

    /// One of `items` (not empty).
    package mutating func pick<T>(_ items: [T]) -> T {
        items[index(items.count)]
    }
}
