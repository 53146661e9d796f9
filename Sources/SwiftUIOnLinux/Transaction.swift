/// The context of one state change, carried from an update to whoever renders it:
/// SwiftUI's `Transaction`, as a value.
public struct Transaction: Hashable, Sendable {
    /// The animation for the change (nil: none).
    public var animation: Animation?
    /// True when the change should not be animated even if an animation is set.
    public var disablesAnimations: Bool
    /// True while the change is one of many in a continuous gesture.
    public var isContinuous: Bool

    /// A transaction with no animation.
    public init() {
        self.init(animation: nil)
    }

    /// A transaction animating with `animation`.
    public init(animation: Animation?, disablesAnimations: Bool = false, isContinuous: Bool = false) {
        self.animation = animation
        self.disablesAnimations = disablesAnimations
        self.isContinuous = isContinuous
    }
}

/// Runs `body` as one change animated by `transaction`. Nothing renders on Linux, so this
/// runs `body` and returns what it returns; it is here so that code written for SwiftUI
/// compiles.
public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

/// Runs `body` as one change animated with `animation`. Nothing renders on Linux, so this
/// runs `body` and returns what it returns; it is here so that code written for SwiftUI
/// compiles.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows
    -> Result
{
    try withTransaction(Transaction(animation: animation), body)
}
