public import StoreValue

extension Value {
    /// One line, JSON-like: `{count: 3, tags: ["a"]}`, `.loggedIn(user: "bo")`.
    public var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let v): return v ? "true" : "false"
        case .int(let v): return String(v)
        case .double(let v): return v == v.rounded() && abs(v) < 1e15 ? String(format1: v) : "\(v)"
        case .string(let v): return Self.quoted(v)
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ", ") + "]"
        case .record(_, let fields):
            return "{" + fields.map { "\(Self.label($0.label ?? "")): \($0.value.compact)" }.joined(separator: ", ") + "}"
        case .enumCase(let name, let payload):
            guard !payload.isEmpty else { return "." + name }
            return "." + name + "(" + payload.map { ($0.label.map { Self.label($0) + ": " } ?? "") + $0.value.compact }.joined(separator: ", ") + ")"
        }
    }

    /// An indented tree, one leaf per line, cut off below `depth` levels (nil: no limit).
    public func tree(depth: Int? = nil) -> String {
        var lines: [String] = []
        renderTree(into: &lines, indent: "", depth: depth)
        return lines.joined(separator: "\n")
    }

    private var isLeaf: Bool {
        switch self {
        case .array(let items): items.isEmpty
        case .record(_, let fields): fields.isEmpty
        case .enumCase(_, let payload): payload.isEmpty || payload.allSatisfy { $0.value.isLeaf }
        default: true
        }
    }

    private func renderTree(into lines: inout [String], indent: String, depth: Int?) {
        guard !isLeaf else {
            lines.append(indent + compact)
            return
        }
        for (label, child) in labelledChildren {
            if child.isLeaf {
                lines.append("\(indent)\(label): \(child.compact)")
            } else if let depth, depth <= 1 {
                lines.append("\(indent)\(label): \(child.summary)")
            } else {
                lines.append("\(indent)\(label):\(child.header)")
                child.renderTree(into: &lines, indent: indent + "  ", depth: depth.map { $0 - 1 })
            }
        }
    }

    private var labelledChildren: [(String, Value)] {
        switch self {
        case .array(let items): return items.enumerated().map { ("[\($0.offset)]", $0.element) }
        case .record(_, let fields): return fields.map { (Self.label($0.label ?? ""), $0.value) }
        case .enumCase(_, let payload): return payload.enumerated().map { ($0.element.label.map(Self.label) ?? "[\($0.offset)]", $0.element.value) }
        default: return []
        }
    }

    /// What follows a label before the children of a compound value.
    private var header: String {
        if case .enumCase(let name, _) = self { return " ." + name }
        return ""
    }

    /// A compound value cut off by `--depth`.
    private var summary: String {
        switch self {
        case .array(let items): "[…] (\(items.count) items)"
        case .record(_, let fields): "{…} (\(fields.count) fields)"
        case .enumCase(let name, let payload): ".\(name)(…) (\(payload.count) values)"
        default: compact
        }
    }

    static func label(_ name: String) -> String {
        Registration.isIdentifier(name) && !name.utf8.contains(UInt8(ascii: "-")) ? name : quoted(name)
    }

    /// JSON string syntax.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format4: scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

private extension String {
    /// A whole double with its decimal point kept: 3.0 → "3.0".
    init(format1 value: Double) { self = "\(Int64(value)).0" }
    /// A \uXXXX escape.
    init(format4 code: UInt32) {
        let hex = String(code, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
