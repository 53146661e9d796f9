import StoreValue

/// Writes an action the way users type it at the storesh prompt, from its Codable shape:
/// `.setCount(5)` → `setCount 5`, `.child(.increment)` → `child.increment`,
/// `.todos("t1", .toggle)` → `todos["t1"].toggle`, `.succeed(user: "bo")` →
/// `succeed user: "bo"`. Falls back to `String(describing:)` for non-Codable actions.
/// The text itself is StoreValue's ActionTextWriter's, as the host writes it: this only
/// reads which case, child, key and arguments the Codable shape holds.
enum ActionText {
    static func render(_ action: Any) -> String {
        guard let encodable = action as? any Encodable,
            let value = try? ValueEncoder().encode(encodable),
            let enumCase = EnumCase(value)
        else { return "\(action)" }
        var writer = ActionTextWriter()
        write(enumCase, into: &writer)
        return writer.text
    }

    /// The shape Swift synthesizes for an enum case: `{name: {payload fields}}`.
    private struct EnumCase {
        let name: String
        let payload: [Value.Field]

        /// nil when `value` is not that shape.
        init?(_ value: Value) {
            guard case .record(_, let outer) = value, outer.count == 1, let name = outer[0].label,
                case .record(_, let payload) = outer[0].value
            else { return nil }
            self.name = name
            self.payload = payload
        }
    }

    private static func write(_ enumCase: EnumCase, into writer: inout ActionTextWriter) {
        writer.appendName(enumCase.name)
        let payload = enumCase.payload
        // A tagged child: `.child(.increment)`.
        if payload.count == 1, payload[0].label == "_0", let inner = EnumCase(payload[0].value) {
            write(inner, into: &writer)
            return
        }
        // A keyed child: `.todos("t1", .toggle)`.
        if payload.count == 2, payload[0].label == "_0", payload[1].label == "_1", isScalar(payload[0].value),
            let inner = EnumCase(payload[1].value)
        {
            writer.appendKey(payload[0].value)
            write(inner, into: &writer)
            return
        }
        for field in payload {
            let label = field.label ?? ""
            let positional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
            writer.appendArgument(field.value, label: positional ? nil : label)
        }
    }

    private static func isScalar(_ value: Value) -> Bool {
        switch value {
        case .int, .double, .string, .bool: true
        default: false
        }
    }
}
