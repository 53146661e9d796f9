import StoreValue

/// Writes an action the way users type it at the storesh prompt, from its Codable shape:
/// `.setCount(5)` → `setCount 5`, `.child(.increment)` → `child.increment`,
/// `.todos("t1", .toggle)` → `todos["t1"].toggle`, `.succeed(user: "bo")` →
/// `succeed user: "bo"`. Falls back to `String(describing:)` for non-Codable actions.
enum ActionText {
    static func render(_ action: Any) -> String {
        guard let encodable = action as? any Encodable,
              let value = try? ValueEncoder().encode(encodable),
              let text = render(value)
        else { return "\(action)" }
        return text
    }

    /// nil when `value` is not the shape Swift synthesizes for an enum case.
    private static func render(_ value: Value) -> String? {
        guard case .record(_, let outer) = value, outer.count == 1, let name = outer[0].label,
              case .record(_, let payload) = outer[0].value
        else { return nil }
        if payload.isEmpty { return name }
        // A tagged child: `.child(.increment)`.
        if payload.count == 1, payload[0].label == "_0", let inner = render(payload[0].value) {
            return "\(name).\(inner)"
        }
        // A keyed child: `.todos("t1", .toggle)`.
        if payload.count == 2, payload[0].label == "_0", payload[1].label == "_1", isScalar(payload[0].value),
           let inner = render(payload[1].value) {
            return "\(name)[\(literal(payload[0].value))].\(inner)"
        }
        let arguments = payload.map { field in
            let label = field.label ?? ""
            let positional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
            return (positional ? "" : "\(label): ") + literal(field.value)
        }
        return name + " " + arguments.joined(separator: ", ")
    }

    private static func isScalar(_ value: Value) -> Bool {
        switch value {
        case .int, .double, .string, .bool: true
        default: false
        }
    }

    private static func literal(_ value: Value) -> String {
        value.compact
    }
}
