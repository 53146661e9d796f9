/// Nanosecond arithmetic for delays and deadlines that holds at the ends of `Int64`
/// instead of trapping: a model's delay too long to count (`.seconds(1e300)`, often an
/// action's argument) is the longest there is, "never", not a crash of the process the
/// model runs in.
extension Int64 {
    /// `self + other`, held at `.max` or `.min`.
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// `self - other`, held at `.max` or `.min`.
    func subtractingSaturated(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self * other`, held at `.max` or `.min`.
    func multipliedSaturated(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }

    /// `self * other / divisor` (a positive divisor), exact where it fits: the product is
    /// taken in 128 bits, so spans of seconds multiply without overflowing on the way.
    func multipliedSaturated(by other: Int64, dividingBy divisor: Int64) -> Int64 {
        let negative = (self < 0) != (other < 0)
        let (high, low) = magnitude.multipliedFullWidth(by: other.magnitude)
        guard high < UInt64(divisor) else { return negative ? .min : .max }
        let quotient = UInt64(divisor).dividingFullWidth((high, low)).quotient
        if negative { return quotient >= Int64.min.magnitude ? .min : -Int64(quotient) }
        return quotient > UInt64(Int64.max) ? .max : Int64(quotient)
    }

    /// `value` rounded toward zero, held at `.max` or `.min`; not a number is 0.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }

    /// `value` whole units of `unit` nanoseconds each, held at `.max` or `.min`.
    init<T: BinaryInteger>(saturating value: T, unit: Int64) {
        guard let exact = Int64(exactly: value) else {
            self = value < 0 ? .min : .max
            return
        }
        self = exact.multipliedSaturated(by: unit)
    }
}
