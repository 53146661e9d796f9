/// How a state change should be animated: SwiftUI's `Animation`, as a value.
///
/// Linux has no renderer, so an animation here only carries the intent: its curve, its
/// timing and how it repeats, compared and printed (a test can assert that an update
/// animates with `.easeOut(duration: 0.2)`). The names and defaults are SwiftUI's, so a
/// model file that builds an animation compiles unchanged.
public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// The shape of the change over time.
    public enum Curve: Hashable, Sendable {
        /// Constant speed.
        case linear
        /// Starts slow.
        case easeIn
        /// Ends slow.
        case easeOut
        /// Starts and ends slow.
        case easeInOut
        /// A cubic Bézier curve through (0, 0), the two control points and (1, 1).
        case timingCurve(Double, Double, Double, Double)
        /// A spring: `response` seconds per oscillation, `dampingFraction` of critical
        /// damping, `blendDuration` to blend with the spring it interrupts.
        case spring(response: Double, dampingFraction: Double, blendDuration: Double)
    }

    /// How often the animation plays.
    public enum Repetition: Hashable, Sendable {
        /// Once.
        case once
        /// `count` times, back and forth when `autoreverses`.
        case count(Int, autoreverses: Bool)
        /// Until something else happens, back and forth when `autoreverses`.
        case forever(autoreverses: Bool)
    }

    /// The curve the animation follows.
    public var curve: Curve
    /// Seconds one play of a timed curve lasts (a spring's is its response).
    public var duration: Double
    /// Seconds before it starts.
    public var delay: Double
    /// How much faster than written it plays (2: twice as fast).
    public var speed: Double
    /// How often it plays.
    public var repetition: Repetition

    /// An animation along `curve` lasting `duration` seconds, at once, at normal speed, once.
    public init(
        curve: Curve, duration: Double, delay: Double = 0, speed: Double = 1, repetition: Repetition = .once
    ) {
        self.curve = curve
        self.duration = duration
        self.delay = delay
        self.speed = speed
        self.repetition = repetition
    }

    /// What `withAnimation` and `Update.animation()` use when given none: ease in and out
    /// over 0.35 s.
    public static let `default` = Animation(curve: .easeInOut, duration: 0.35)

    /// Constant speed for `duration` seconds (SwiftUI's default: 0.35).
    public static func linear(duration: Double = 0.35) -> Animation { .init(curve: .linear, duration: duration) }
    /// Starts slow (`duration` seconds).
    public static func easeIn(duration: Double = 0.35) -> Animation { .init(curve: .easeIn, duration: duration) }
    /// Ends slow (`duration` seconds).
    public static func easeOut(duration: Double = 0.35) -> Animation { .init(curve: .easeOut, duration: duration) }
    /// Starts and ends slow (`duration` seconds).
    public static func easeInOut(duration: Double = 0.35) -> Animation {
        .init(curve: .easeInOut, duration: duration)
    }
    /// Constant speed over 0.35 s.
    public static var linear: Animation { .linear() }
    /// Starts slow, over 0.35 s.
    public static var easeIn: Animation { .easeIn() }
    /// Ends slow, over 0.35 s.
    public static var easeOut: Animation { .easeOut() }
    /// Starts and ends slow, over 0.35 s.
    public static var easeInOut: Animation { .easeInOut() }

    /// A cubic Bézier timing curve with control points (c0x, c0y) and (c1x, c1y).
    public static func timingCurve(
        _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = 0.35
    ) -> Animation {
        .init(curve: .timingCurve(c0x, c0y, c1x, c1y), duration: duration)
    }

    /// A spring, in SwiftUI's physical terms.
    public static func spring(
        response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    ) -> Animation {
        .init(
            curve: .spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration),
            duration: response)
    }

    /// A spring in perceptual terms: it settles in about `duration` seconds; `bounce` 0 is
    /// smooth, towards 1 bouncier, below 0 slower to settle.
    @_disfavoredOverload
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        spring(response: duration, dampingFraction: 1 - bounce, blendDuration: blendDuration)
    }

    /// The default spring.
    public static var spring: Animation { .spring() }

    /// A quick, stiff spring for changes that follow a finger.
    public static func interactiveSpring(
        response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> Animation {
        spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration)
    }

    /// The default interactive spring.
    public static var interactiveSpring: Animation { .interactiveSpring() }

    /// A spring with no bounce (`duration` seconds, plus `extraBounce`).
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        .spring(duration: duration, bounce: extraBounce)
    }
    /// A spring with a little bounce.
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        .spring(duration: duration, bounce: 0.15 + extraBounce)
    }
    /// A spring with more bounce.
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation {
        .spring(duration: duration, bounce: 0.3 + extraBounce)
    }
    /// `smooth()`.
    public static var smooth: Animation { .smooth() }
    /// `snappy()`.
    public static var snappy: Animation { .snappy() }
    /// `bouncy()`.
    public static var bouncy: Animation { .bouncy() }

    /// This animation, starting `delay` seconds later.
    public func delay(_ delay: Double) -> Animation {
        var copy = self
        copy.delay += delay
        return copy
    }

    /// This animation, played `speed` times as fast.
    public func speed(_ speed: Double) -> Animation {
        var copy = self
        copy.speed *= speed
        return copy
    }

    /// This animation, played `count` times.
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        var copy = self
        copy.repetition = .count(count, autoreverses: autoreverses)
        return copy
    }

    /// This animation, repeated until replaced.
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var copy = self
        copy.repetition = .forever(autoreverses: autoreverses)
        return copy
    }

    /// `easeOut(0.2s)`, `spring(response 0.5s, damping 0.825) delay 0.1s`.
    public var description: String {
        var text: String
        switch curve {
        case .linear, .easeIn, .easeOut, .easeInOut: text = "\(curve)(\(duration)s)"
        case .timingCurve(let c0x, let c0y, let c1x, let c1y):
            text = "timingCurve(\(c0x), \(c0y), \(c1x), \(c1y), \(duration)s)"
        case .spring(let response, let damping, let blend):
            text = "spring(response \(response)s, damping \(damping)" + (blend == 0 ? ")" : ", blend \(blend)s)")
        }
        if delay != 0 { text += " delay \(delay)s" }
        if speed != 1 { text += " speed \(speed)" }
        switch repetition {
        case .once: break
        case .count(let count, let reverses): text += " ×\(count)" + (reverses ? " autoreversed" : "")
        case .forever(let reverses): text += " forever" + (reverses ? " autoreversed" : "")
        }
        return text
    }
}
