import StoreHost
import StoreValue

/// `:help ACTION` for one of the current model's actions: its signature, its doc comment,
/// a line per parameter (type, default, doc), what each named record and enum is made of
/// (an enum's cases), and an example line that the shell takes as written.
enum ActionHelp {
    /// The lines of the help. `key` gives an example key for a keyed child action's
    /// `[]` (the first such key in the state), or nil to use the key's shape.
    static func lines(of action: ActionDescriptor, key: (String) -> Value? = { _ in nil }) -> [String] {
        var lines = [ActionBinding.signature(of: action)]
        if let doc = action.doc, !doc.isEmpty { lines.append("  " + doc) }
        let keyCount = action.name.split(separator: ".").filter { $0.hasSuffix("[]") }.count
        let rows = action.params.enumerated().map { index, param in
            let name =
                index < keyCount
                ? "key" + (keyCount > 1 ? " \(index + 1)" : "") : param.label ?? "argument \(index + 1 - keyCount)"
            return (name + ": " + param.written, param.doc ?? "")
        }
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { row, doc in
            let padded = doc.isEmpty ? row : row.padding(toLength: width + 2, withPad: " ", startingAt: 0) + doc
            return "  " + padded
        }
        lines += ActionBinding.shapeLines(of: action).map { "  " + $0 }
        lines.append("  e.g. " + example(of: action, key: key))
        return lines
    }

    /// A line that calls the action: its keys in place of `[]`, then every argument
    /// (labelled ones by label), each its default or a simple value of its shape; text
    /// the parameter's own label, so the line reads as what it means.
    static func example(of action: ActionDescriptor, key: (String) -> Value? = { _ in nil }) -> String {
        var name = ""
        var rest = Substring(action.name)
        var params = action.params[...]
        while let slot = rest.range(of: "[]"), let param = params.popFirst() {
            let collection = name + rest[..<slot.lowerBound]
            name += rest[..<slot.lowerBound] + "[" + (key(collection) ?? value(for: param)).compact + "]"
            rest = rest[slot.upperBound...]
        }
        name += rest
        let arguments = params.map { param in
            (param.label.map { Value.label($0) + ": " } ?? "") + value(for: param).compact
        }
        return arguments.isEmpty ? name : name + " " + arguments.joined(separator: ", ")
    }

    private static func value(for param: ParamDescriptor) -> Value {
        if let given = param.defaultValue { return given }
        switch param.shape {
        case .string: if let label = param.label { return .string(label) }
        // A plain case as users write it, `"pickup"`, rather than its record `{pickup: {}}`.
        case .choice(_, let cases):
            if let first = cases.first, first.rawValue == nil, first.payload.isEmpty { return .string(first.name) }
        default: break
        }
        return param.shape.example
    }
}
