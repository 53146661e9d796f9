/// A portable description of how a state change should be animated.
///
/// There is no SwiftUI on Linux, so this value only carries the intent; glue code on
/// Apple platforms maps it onto `SwiftUI.Animation`.
public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// The timing curve of an animation.
    public enum Curve: Hashable, Sendable {
        /// Constant speed; slow start; slow end; slow start and end; a spring.
        case linear, easeIn, easeOut, easeInOut, spring
    }

    /// How the animation's speed changes over time.
    public var curve: Curve
    /// Duration in seconds.
    public var duration: Double

    /// An animation along `curve` lasting `duration` seconds.
    public init(curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration
    }

    /// SwiftUI's default: ease in and out over 0.35 s.
    public static let `default` = Animation(curve: .easeInOut, duration: 0.35)
    /// Constant speed.
    public static func linear(duration: Double = 0.35) -> Animation { .init(curve: .linear, duration: duration) }
    /// Starts slow.
    public static func easeIn(duration: Double = 0.35) -> Animation { .init(curve: .easeIn, duration: duration) }
    /// Ends slow.
    public static func easeOut(duration: Double = 0.35) -> Animation { .init(curve: .easeOut, duration: duration) }
    /// Starts and ends slow.
    public static func easeInOut(duration: Double = 0.35) -> Animation { .init(curve: .easeInOut, duration: duration) }
    /// A spring that settles in about `duration` seconds.
    public static func spring(duration: Double = 0.5) -> Animation { .init(curve: .spring, duration: duration) }

    /// `easeInOut(0.35s)`.
    public var description: String { "\(curve)(\(duration)s)" }
}

/// The context of one state change, carried from an update to whoever renders it.
///
/// Mirrors the shape of `SwiftUI.Transaction` so that Apple-platform glue can map it 1:1.
public struct Transaction: Hashable, Sendable {
    /// The animation for the change (nil: none).
    public var animation: Animation?
    /// True when the change should not be animated even if an animation is set.
    public var disablesAnimations: Bool

    /// A transaction animating with `animation`.
    public init(animation: Animation? = nil, disablesAnimations: Bool = false) {
        self.animation = animation
        self.disablesAnimations = disablesAnimations
    }
}
