package import StoreValue

/// A check on part of a state: `PATH OP LITERAL`, as `:expect`, `:bisect`, `:break` and
/// `storesh explore --invariant` take it (`balance >= 0`, `todos[0].title != ""`).
///
/// `==` and `!=` compare any values (record type names ignored, whole doubles equal to
/// integers); `<`, `<=`, `>` and `>=` compare numbers with numbers and strings with
/// strings. Every mistake in the text is a `TextError` at its byte offset.
package struct StateCondition: Sendable, Equatable, CustomStringConvertible {
    /// The comparison.
    package enum Comparison: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    }

    /// What a check found.
    package enum Outcome: Sendable, Equatable {
        /// The condition holds.
        case holds
        /// The value at the path does not satisfy the condition.
        case fails(actual: Value)
        /// The value at the path cannot be compared with the literal that way (a string
        /// against a number with `<`): the message says why.
        case incomparable(actual: Value, reason: String)
        /// The path names nothing in this state (`todos[0]` of an empty list).
        case missing(reason: String)
    }

    /// The path as written (`.` for the whole state).
    package let path: String
    /// The path, read.
    package let segments: [PathSyntax.Segment]
    /// The comparison.
    package let comparison: Comparison
    /// The value the state's part is compared with.
    package let literal: Value

    /// `path comparison literal`, the literal written compactly.
    package var description: String { "\(path) \(comparison.rawValue) \(literal.compact)" }

    /// Reads `PATH OP LITERAL`. The operator is the first `==`, `!=`, `<=`, `>=`, `<` or `>`
    /// outside the path's quoted keys.
    package static func parse(_ text: String) throws(TextError) -> StateCondition {
        let bytes = Array(text.utf8)
        guard let (comparison, start) = findComparison(bytes) else {
            throw TextError(
                "expected PATH OP VALUE, OP one of \(Comparison.allCases.map(\.rawValue).joined(separator: " "))",
                at: bytes.count)
        }
        let pathStart = bytes.prefix { $0 == 0x20 || $0 == 0x09 }.count
        var pathEnd = start
        while pathEnd > pathStart, bytes[pathEnd - 1] == 0x20 || bytes[pathEnd - 1] == 0x09 { pathEnd -= 1 }
        let pathText = String(decoding: bytes[pathStart..<pathEnd], as: UTF8.self)
        let segments: [PathSyntax.Segment]
        do {
            segments = try PathSyntax.parse(pathText.isEmpty ? "." : pathText)
        } catch {
            throw TextError(error.message, at: pathStart + error.offset)
        }
        var scanner = LiteralScanner(bytes: bytes, index: start + comparison.rawValue.utf8.count)
        scanner.skipSpaces()
        guard !scanner.atEnd else {
            throw TextError("expected a value after '\(comparison.rawValue)'", at: scanner.index)
        }
        let literal = try scanner.literal()
        scanner.skipSpaces()
        guard scanner.atEnd else { throw TextError("unexpected text after the value", at: scanner.index) }
        return StateCondition(
            path: pathText.isEmpty ? "." : pathText, segments: segments, comparison: comparison, literal: literal)
    }

    /// The first comparison operator outside quotes, and its byte offset.
    private static func findComparison(_ bytes: [UInt8]) -> (Comparison, Int)? {
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                index += 1
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch (byte, next) {
            case (UInt8(ascii: "="), UInt8(ascii: "=")): return (.equal, index)
            case (UInt8(ascii: "!"), UInt8(ascii: "=")): return (.notEqual, index)
            case (UInt8(ascii: "<"), UInt8(ascii: "=")): return (.lessOrEqual, index)
            case (UInt8(ascii: ">"), UInt8(ascii: "=")): return (.greaterOrEqual, index)
            case (UInt8(ascii: "<"), _): return (.less, index)
            case (UInt8(ascii: ">"), _): return (.greater, index)
            default: index += 1
            }
        }
        return nil
    }

    /// Checks the condition against `state`; list elements named by key are found through
    /// `identity`.
    package func check(_ state: Value, identity: StateDiff = StateDiff()) -> Outcome {
        let actual: Value
        do {
            actual = try PathSyntax.lookup(path, in: state, identity: identity)
        } catch {
            return .missing(reason: error.message)
        }
        switch comparison {
        case .equal: return Self.same(actual, literal) ? .holds : .fails(actual: actual)
        case .notEqual: return Self.same(actual, literal) ? .fails(actual: actual) : .holds
        default:
            guard let order = Self.order(actual, literal) else {
                return .incomparable(
                    actual: actual,
                    reason:
                        "\(subject) is \(actual.compact) (\(actual.kindName)), which '\(comparison.rawValue)' cannot compare with \(literal.compact) (\(literal.kindName))"
                )
            }
            let holds =
                switch comparison {
                case .less: order < 0
                case .lessOrEqual: order <= 0
                case .greater: order > 0
                default: order >= 0
                }
            return holds ? .holds : .fails(actual: actual)
        }
    }

    /// Whether the condition holds in `state` (a missing path or an incomparable value
    /// does not hold).
    package func holds(in state: Value, identity: StateDiff = StateDiff()) -> Bool {
        check(state, identity: identity) == .holds
    }

    /// The path for messages: "the state" for the whole of it.
    package var subject: String { path == "." ? "the state" : path }

    /// Why `outcome` is not `.holds`, as one line ("balance is -1, expected >= 0"); nil
    /// when it holds.
    package func explain(_ outcome: Outcome) -> String? {
        switch outcome {
        case .holds: return nil
        case .fails(let actual):
            return comparison == .notEqual
                ? "\(subject) is \(actual.compact), expected anything else"
                : "\(subject) is \(actual.compact), expected \(comparison == .equal ? "" : comparison.rawValue + " ")\(literal.compact)"
        case .incomparable(_, let reason): return reason
        case .missing(let reason): return reason
        }
    }

    /// Equality for checks: record type names are ignored (a literal has none) and whole
    /// doubles equal integers.
    package static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.record(_, let x), .record(_, let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.label == $1.label && same($0.value, $1.value) }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
            return Double(x) == y
        default:
            return a == b
        }
    }

    /// -1, 0 or 1 for numbers against numbers and strings against strings; nil otherwise.
    static func order(_ a: Value, _ b: Value) -> Int? {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.int(let x), .double(let y)): return y.isNaN ? nil : sign(Double(x), y)
        case (.double(let x), .int(let y)): return x.isNaN ? nil : sign(x, Double(y))
        case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : sign(x, y)
        case (.string(let x), .string(let y)): return sign(x, y)
        default: return nil
        }
    }
}
