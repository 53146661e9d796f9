import Foundation

/// A log message written as a string with interpolations: `"loaded \(count) notes for
/// \(user, privacy: .private)"`. As `os`, each interpolation may say how private it is
/// (`privacy:`) and how to format and align it (`format:`, `align:`).
///
/// Rendered at once, as text: `.public` and `.auto` values as they are, `.private` and
/// `.sensitive` ones as `<private>`, masked ones (`.private(mask: .hash)`) as
/// `<mask.hash: …>`, a stable digest that tells equal values apart without showing them.
public struct OSLogMessage: ExpressibleByStringInterpolation, Sendable {
    /// The message as it is written to the log.
    public let rendered: String

    /// A message of this text exactly.
    public init(rendered: String) { self.rendered = rendered }

    /// A message without interpolations.
    public init(stringLiteral value: String) { rendered = value }

    /// A message with interpolations.
    public init(stringInterpolation: OSLogInterpolation) { rendered = stringInterpolation.text }
}

/// The pieces of an `OSLogMessage`, rendered as they are appended.
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""

    /// Room for `literalCapacity` characters.
    public init(literalCapacity: Int, interpolationCount: Int) {
        text.reserveCapacity(literalCapacity + 8 * interpolationCount)
    }

    /// Text as written.
    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// A string.
    public mutating func appendInterpolation(
        _ value: @autoclosure () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(value(), align: align, privacy: privacy)
    }

    /// Any value that describes itself.
    public mutating func appendInterpolation<Value: CustomStringConvertible>(
        _ value: @autoclosure () -> Value, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(value().description, align: align, privacy: privacy)
    }

    /// An integer: decimal unless `format` says otherwise.
    public mutating func appendInterpolation<Value: FixedWidthInteger>(
        _ value: @autoclosure () -> Value, format: OSLogIntegerFormatting = .decimal,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.format(value()), align: align, privacy: privacy)
    }

    /// A floating-point number: fixed notation unless `format` says otherwise.
    public mutating func appendInterpolation(
        _ value: @autoclosure () -> Double, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.format(value()), align: align, privacy: privacy)
    }

    /// A floating-point number: fixed notation unless `format` says otherwise.
    public mutating func appendInterpolation(
        _ value: @autoclosure () -> Float, format: OSLogFloatFormatting = .fixed,
        align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) {
        append(format.format(Double(value())), align: align, privacy: privacy)
    }

    /// A truth value: `true`/`false`, or `YES`/`NO` with `format: .answer`.
    public mutating func appendInterpolation(
        _ value: @autoclosure () -> Bool, format: OSLogBoolFormat = .truth, privacy: OSLogPrivacy = .auto
    ) {
        let truth = value()
        append(format == .answer ? (truth ? "YES" : "NO") : (truth ? "true" : "false"), align: .none, privacy: privacy)
    }

    /// An error, or `(null)`.
    public mutating func appendInterpolation(_ error: @autoclosure () -> (any Error)?, privacy: OSLogPrivacy = .auto) {
        append(error().map { String(describing: $0) } ?? "(null)", align: .none, privacy: privacy)
    }

    /// A type's name.
    public mutating func appendInterpolation(_ type: @autoclosure () -> Any.Type, privacy: OSLogPrivacy = .auto) {
        append(String(describing: type()), align: .none, privacy: privacy)
    }

    private mutating func append(_ value: String, align: OSLogStringAlignment, privacy: OSLogPrivacy) {
        text += align.align(privacy.redact(value))
    }
}

/// How private an interpolated value is.
public struct OSLogPrivacy: Hashable, Sendable {
    /// How a private value is shown instead.
    public struct Mask: Hashable, Sendable {
        let hashes: Bool
        /// As `<mask.hash: …>`: a digest of the value.
        public static let hash = Mask(hashes: true)
        /// As `<private>`.
        public static let none = Mask(hashes: false)
    }

    enum Level: Hashable, Sendable { case visible, redacted }
    let level: Level
    let mask: Mask

    /// Shown.
    public static let `public` = OSLogPrivacy(level: .visible, mask: .none)
    /// Not shown.
    public static let `private` = OSLogPrivacy(level: .redacted, mask: .none)
    /// Not shown (personal data).
    public static let sensitive = OSLogPrivacy(level: .redacted, mask: .none)
    /// As the system decides: shown here, where the log is a developer's.
    public static let auto = OSLogPrivacy(level: .visible, mask: .none)
    /// Not shown; `mask` says what is shown instead.
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .redacted, mask: mask) }
    /// Not shown; `mask` says what is shown instead.
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .redacted, mask: mask) }
    /// As the system decides, masked by `mask` where it hides.
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(level: .visible, mask: mask) }

    func redact(_ value: String) -> String {
        guard level == .redacted else { return value }
        guard mask.hashes else { return "<private>" }
        // FNV-1a over the UTF-8 bytes: the same value, the same digest, in every run.
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "<mask.hash: \(String(digest, radix: 16))>"
    }
}

/// How an interpolated value is padded.
public struct OSLogStringAlignment: Hashable, Sendable {
    let columns: Int
    let left: Bool
    /// Not padded.
    public static let none = OSLogStringAlignment(columns: 0, left: false)
    /// Padded with spaces on the right to `columns` characters.
    public static func left(columns: Int) -> OSLogStringAlignment { .init(columns: columns, left: true) }
    /// Padded with spaces on the left to `columns` characters.
    public static func right(columns: Int) -> OSLogStringAlignment { .init(columns: columns, left: false) }

    func align(_ text: String) -> String {
        let padding = String(repeating: " ", count: max(0, columns - text.count))
        return left ? text + padding : padding + text
    }
}

/// How an interpolated integer is written.
public struct OSLogIntegerFormatting: Hashable, Sendable {
    let radix: Int
    let explicitPositiveSign: Bool
    let includePrefix: Bool
    let uppercase: Bool
    let minDigits: Int

    /// In base 10.
    public static let decimal = OSLogIntegerFormatting.decimal()
    /// In base 16, lowercase, no prefix.
    public static let hex = OSLogIntegerFormatting.hex()
    /// In base 8, no prefix.
    public static let octal = OSLogIntegerFormatting.octal()

    /// In base 10, with `+` before positive numbers if asked, zero-padded to `minDigits`.
    public static func decimal(explicitPositiveSign: Bool = false, minDigits: Int = 0) -> OSLogIntegerFormatting {
        .init(
            radix: 10, explicitPositiveSign: explicitPositiveSign, includePrefix: false, uppercase: false,
            minDigits: minDigits)
    }

    /// In base 16, with `0x` if `includePrefix`.
    public static func hex(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: Int = 0
    ) -> OSLogIntegerFormatting {
        .init(
            radix: 16, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits)
    }

    /// In base 8, with `0o` if `includePrefix`.
    public static func octal(
        explicitPositiveSign: Bool = false, includePrefix: Bool = false, uppercase: Bool = false, minDigits: Int = 0
    ) -> OSLogIntegerFormatting {
        .init(
            radix: 8, explicitPositiveSign: explicitPositiveSign, includePrefix: includePrefix, uppercase: uppercase,
            minDigits: minDigits)
    }

    func format<Value: FixedWidthInteger>(_ value: Value) -> String {
        var digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        if digits.count < minDigits { digits = String(repeating: "0", count: minDigits - digits.count) + digits }
        if includePrefix { digits = (radix == 16 ? "0x" : radix == 8 ? "0o" : "") + digits }
        let sign = value < 0 ? "-" : (explicitPositiveSign ? "+" : "")
        return sign + digits
    }
}

/// How an interpolated floating-point number is written.
public struct OSLogFloatFormatting: Hashable, Sendable {
    let style: Character
    let precision: Int?
    let explicitPositiveSign: Bool

    /// Fixed notation (`%f`).
    public static let fixed = OSLogFloatFormatting.fixed()
    /// Exponential notation (`%e`).
    public static let exponential = OSLogFloatFormatting.exponential()
    /// Whichever is shorter (`%g`).
    public static let hybrid = OSLogFloatFormatting.hybrid()

    /// Fixed notation, `precision` digits after the point.
    public static func fixed(precision: Int? = nil, explicitPositiveSign: Bool = false) -> OSLogFloatFormatting {
        .init(style: "f", precision: precision, explicitPositiveSign: explicitPositiveSign)
    }
    /// Exponential notation, `precision` digits after the point.
    public static func exponential(precision: Int? = nil, explicitPositiveSign: Bool = false) -> OSLogFloatFormatting {
        .init(style: "e", precision: precision, explicitPositiveSign: explicitPositiveSign)
    }
    /// Whichever is shorter, `precision` significant digits.
    public static func hybrid(precision: Int? = nil, explicitPositiveSign: Bool = false) -> OSLogFloatFormatting {
        .init(style: "g", precision: precision, explicitPositiveSign: explicitPositiveSign)
    }

    func format(_ value: Double) -> String {
        let specifier = "%" + (explicitPositiveSign ? "+" : "") + (precision.map { ".\($0)" } ?? "") + String(style)
        return String(format: specifier, value)
    }
}

/// How an interpolated truth value is written.
public enum OSLogBoolFormat: Hashable, Sendable {
    /// `true` or `false`.
    case truth
    /// `YES` or `NO`.
    case answer
}
