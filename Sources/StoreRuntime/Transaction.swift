/// A portable description of how a state change should be animated.
///
/// There is no SwiftUI on Linux, so this value only carries the intent; glue code on
/// Apple platforms maps it onto `SwiftUI.Animation`.
public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// The timing curve of an animation.
    public enum Curve: Hashable, Sendable {
        case linear, easeIn, easeOut, easeInOut, spring
    }

    public var curve: Curve
    /// Duration in seconds.
    public var duration: Double

    public init(curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration
    }

    /// SwiftUI's default: ease in and out over 0.35 s.
    public static let `default` = Animation(curve: .easeInOut, duration: 0.35)
    public static func linear(duration: Double = 0.35) -> Animation { .init(curve: .linear, duration: duration) }
    public static func easeIn(duration: Double = 0.35) -> Animation { .init(curve: .easeIn, duration: duration) }
    public static func easeOut(duration: Double = 0.35) -> Animation { .init(curve: .easeOut, duration: duration) }
    public static func easeInOut(duration: Double = 0.35) -> Animation { .init(curve: .easeInOut, duration: duration) }
    public static func spring(duration: Double = 0.5) -> Animation { .init(curve: .spring, duration: duration) }

    public var description: String { "\(curve)(\(duration)s)" }
}

/// The context of one state change, carried from an update to whoever renders it.
///
/// Mirrors the shape of `SwiftUI.Transaction` so that Apple-platform glue can map it 1:1.
public struct Transaction: Hashable, Sendable {
    public var animation: Animation?
    /// True when the change should not be animated even if an animation is set.
    public var disablesAnimations: Bool

    public init(animation: Animation? = nil, disablesAnimations: Bool = false) {
        self.animation = animation
        self.disablesAnimations = disablesAnimations
    }
}
