package import StoreValue

/// Why a property expression has no value in a state.
package enum PropertyProblem: Error, Equatable, Sendable {
    /// A path names nothing here (`todos[3]` of a list of one), or `min`/`max` of an
    /// empty list: invariants and postconditions skip the state, `:expect` fails.
    case missing(String)
    /// The expression cannot be worked out: kinds an operator does not take, an integer
    /// overflow, a division by zero. A check that meets one fails.
    case invalid(String)

    package var message: String {
        switch self {
        case .missing(let message), .invalid(let message): message
        }
    }
}

/// What a property expression evaluates to: a value of the state or a literal, a
/// dictionary's key (which equals an integer whose decimal text it is), a list a function
/// made, or the elements `[*]` gave, which operators map over.
package enum PropertyOperand: Sendable, Equatable {
    case value(Value)
    case key(String)
    case list([PropertyOperand])
    case each([PropertyOperand])

    /// As a value: a key is its text, a list an array.
    package var value: Value {
        switch self {
        case .value(let value): value
        case .key(let key): .string(key)
        case .list(let items), .each(let items): .array(items.map(\.value))
        }
    }

    /// The elements of a list (of any of the three kinds); nil for anything else.
    var elements: [PropertyOperand]? {
        switch self {
        case .list(let items), .each(let items): items
        case .value(.array(let items)): items.map(PropertyOperand.value)
        default: nil
        }
    }

    var compact: String { value.compact }

    var kindName: String {
        switch self {
        case .value(let value): value.kindName
        case .key: "key"
        case .list, .each: "list"
        }
    }

    var isNumber: Bool {
        switch self {
        case .value(.int), .value(.double): true
        default: false
        }
    }

    /// The text of a string or a key.
    var text: String? {
        switch self {
        case .value(.string(let text)), .key(let text): text
        default: nil
        }
    }

    // MARK: Equality and order.

    /// Structural equality: numbers by value (a whole double equals the integer), lists in
    /// order, records and dictionaries by keys and values (in any order, type names
    /// ignored), a key equal to its text or to an integer whose decimal text it is.
    package static func same(_ a: PropertyOperand, _ b: PropertyOperand) -> Bool {
        switch (a, b) {
        case (.key(let x), .key(let y)): return x == y
        case (.key(let key), .value(let value)), (.value(let value), .key(let key)):
            switch value {
            case .string(let text): return text == key
            case .int(let number): return String(number) == key
            default: return false
            }
        case (.value(let x), .value(let y)): return same(x, y)
        default:
            guard let xs = a.elements, let ys = b.elements, xs.count == ys.count else { return false }
            return zip(xs, ys).allSatisfy { same($0, $1) }
        }
    }

    /// Structural equality of values, as `same(_:_:)` describes.
    package static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.record(_, let x), .record(_, let y)):
            guard x.count == y.count else { return false }
            if zip(x, y).allSatisfy({ $0.label == $1.label }) {
                return zip(x, y).allSatisfy { same($0.value, $1.value) }
            }
            var byLabel: [String: Value] = [:]
            for field in y { byLabel[field.label ?? ""] = field.value }
            guard byLabel.count == y.count else { return false }
            return x.allSatisfy { field in byLabel[field.label ?? ""].map { same(field.value, $0) } ?? false }
        case (.enumCase(let xName, let x), .enumCase(let yName, let y)):
            return xName == yName && x.count == y.count
                && zip(x, y).allSatisfy { $0.label == $1.label && same($0.value, $1.value) }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)):
            return Double(x) == y
        default:
            return a == b
        }
    }

    /// -1, 0 or 1 for numbers against numbers and text (strings, keys) against text; nil
    /// otherwise (and for NaN).
    package static func order(_ a: PropertyOperand, _ b: PropertyOperand) -> Int? {
        func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
        switch (a, b) {
        case (.value(.int(let x)), .value(.int(let y))): return sign(x, y)
        case (.value(.int(let x)), .value(.double(let y))): return y.isNaN ? nil : sign(Double(x), y)
        case (.value(.double(let x)), .value(.int(let y))): return x.isNaN ? nil : sign(x, Double(y))
        case (.value(.double(let x)), .value(.double(let y))): return x.isNaN || y.isNaN ? nil : sign(x, y)
        default:
            guard let x = a.text, let y = b.text else { return nil }
            return sign(x, y)
        }
    }

    // MARK: Arithmetic.

    /// `a op b` for `+ - * / %`: integers checked (an overflow is a problem, not a wrap),
    /// a double on either side makes a double.
    static func arithmetic(_ op: PropertyOperator, _ a: PropertyOperand, _ b: PropertyOperand, texts: (String, String))
        throws(PropertyProblem) -> PropertyOperand
    {
        switch (a, b) {
        case (.value(.int(let x)), .value(.int(let y))):
            let result: (partialValue: Int64, overflow: Bool)
            switch op {
            case .plus: result = x.addingReportingOverflow(y)
            case .minus: result = x.subtractingReportingOverflow(y)
            case .times: result = x.multipliedReportingOverflow(by: y)
            case .divide, .remainder:
                guard y != 0 else { throw .invalid("division by zero: \(texts.1) is 0") }
                result = op == .divide ? x.dividedReportingOverflow(by: y) : x.remainderReportingOverflow(dividingBy: y)
            default: throw .invalid("'\(op.rawValue)' is not arithmetic")
            }
            guard !result.overflow else {
                throw .invalid("overflow: \(x) \(op.rawValue) \(y) does not fit in a 64-bit integer")
            }
            return .value(.int(result.partialValue))
        default:
            guard let x = a.double, let y = b.double else {
                let (bad, text) = a.isNumber ? (b, texts.1) : (a, texts.0)
                throw .invalid("'\(op.rawValue)' takes numbers; \(text) is \(bad.compact) (\(bad.kindName))")
            }
            if (op == .divide || op == .remainder) && y == 0 {
                throw .invalid("division by zero: \(texts.1) is 0")
            }
            let result =
                switch op {
                case .plus: x + y
                case .minus: x - y
                case .times: x * y
                case .divide: x / y
                default: x.truncatingRemainder(dividingBy: y)
                }
            guard result.isFinite else {
                throw .invalid("\(x) \(op.rawValue) \(y) is not a finite number")
            }
            return .value(.double(result))
        }
    }

    /// `-a`, checked.
    static func negated(_ a: PropertyOperand, text: String) throws(PropertyProblem) -> PropertyOperand {
        switch a {
        case .value(.int(let x)):
            guard x != .min else { throw .invalid("overflow: -(\(x)) does not fit in a 64-bit integer") }
            return .value(.int(-x))
        case .value(.double(let x)): return .value(.double(-x))
        default: throw .invalid("'-' takes a number; \(text) is \(a.compact) (\(a.kindName))")
        }
    }

    private var double: Double? {
        switch self {
        case .value(.int(let x)): Double(x)
        case .value(.double(let x)): x
        default: nil
        }
    }
}
