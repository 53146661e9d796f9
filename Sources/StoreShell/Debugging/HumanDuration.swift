/// Durations as `:timer` and `:timeit` write them for people.
enum HumanDuration {
    /// A duration for people: ns, µs, ms or s, three significant digits.
    static func text(_ nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        switch value {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return Self.threeDigits(value / 1_000) + " µs"
        case ..<1_000_000_000: return Self.threeDigits(value / 1_000_000) + " ms"
        default: return Self.threeDigits(value / 1_000_000_000) + " s"
        }
    }

    private static func threeDigits(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : (value < 100 ? 1 : 0)
        var text = String(Int((value * pow10(decimals)).rounded()))
        guard decimals > 0 else { return text }
        while text.count <= decimals { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
        return text
    }

    private static func pow10(_ exponent: Int) -> Double {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
