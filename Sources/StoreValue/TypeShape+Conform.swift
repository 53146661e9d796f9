/// An argument that does not fit its parameter's shape: where inside it (`.address.zip`,
/// `[2]`, empty for the whole argument) and what was wrong, with the valid choices.
public struct ShapeMismatch: Error, Equatable, Sendable {
    /// The place inside the argument, written as a path suffix: `.zip`, `[0].name`, "".
    public let path: String
    /// The same place as steps, to find it in the argument's text (`LiteralScanner.offset`).
    public let steps: [ShapePath.Step]
    /// What was wrong: `"bogus" is not one of "ground", "air"`.
    public let message: String

    /// A mismatch at `path` (a path suffix, "" for the whole argument) saying `message`.
    public init(path: String, message: String) {
        self.path = path
        self.steps = []
        self.message = message
    }

    init(at place: ShapePath, message: String) {
        self.path = place.text
        self.steps = place.steps
        self.message = message
    }
}

/// A place inside an argument: the steps to it, and the path suffix they write
/// (`.address.zip`, `[2]`, `["key"]`).
public struct ShapePath: Equatable, Sendable {
    /// One step into a value: an element of a list, or a field of a record (a dictionary's
    /// key and an enum case's payload are written as fields).
    public enum Step: Equatable, Sendable {
        case index(Int)
        case field(String)
    }

    /// The steps from the argument to the place.
    public private(set) var steps: [Step] = []
    /// The suffix the steps write.
    public private(set) var text = ""

    /// The argument itself.
    public init() {}

    func index(_ index: Int) -> ShapePath { adding(.index(index), "[\(index)]") }
    func key(_ key: String) -> ShapePath { adding(.field(key), "[\(Value.quoted(key))]") }
    func field(_ label: String) -> ShapePath { adding(.field(label), "." + label) }

    private func adding(_ step: Step, _ written: String) -> ShapePath {
        var next = self
        next.steps.append(step)
        next.text += written
        return next
    }
}

extension TypeShape {
    /// `value` as an argument of this shape takes it, in the form the plugin's Codable
    /// decoder reads: a whole number where a number is expected becomes a double, a case
    /// of an enum typed by its name (`"ground"`) becomes its raw value or Codable's record
    /// (`{ground: {}}`). Throws what does not fit, and where.
    public func conform(_ value: Value) throws(ShapeMismatch) -> Value {
        try conform(value, at: ShapePath(), depth: 0)
    }

    private func conform(_ value: Value, at path: ShapePath, depth: Int) throws(ShapeMismatch) -> Value {
        guard depth < Value.maxDepth else {
            throw ShapeMismatch(at: path, message: "the value nests more than \(Value.maxDepth) levels deep")
        }
        switch (self, value) {
        case (.any, _): return value
        case (.int(let range), .int(let number)):
            if let range, !range.contains(number) {
                throw ShapeMismatch(
                    at: path,
                    message: "\(number) is out of range: it must be in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        case (.double, .double), (.bool, .bool), (.string, .string): return value
        case (.uuid, .string(let text)):
            guard Self.isUUID(text) else {
                throw ShapeMismatch(
                    at: path,
                    message:
                        "\(value.compact) is not a UUID (32 hex digits, 8-4-4-4-12, as E621E1F8-C36C-495A-93FC-0C247A3E6E5F)"
                )
            }
            return value
        case (.double, .int(let number)): return .double(Double(number))
        case (.optional, .null): return .null
        case (.optional(let wrapped), _): return try wrapped.conform(value, at: path, depth: depth + 1)
        case (.list(let element), .array(let items)):
            var conformed: [Value] = []
            conformed.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                conformed.append(try element.conform(item, at: path.index(index), depth: depth + 1))
            }
            return .array(conformed)
        case (.dictionary(.string, let element), .record(let type, let fields)):
            var conformed: [Value.Field] = []
            for field in fields {
                let key = field.label ?? ""
                conformed.append(
                    .init(key, try element.conform(field.value, at: path.key(key), depth: depth + 1)))
            }
            return .record(type: type, fields: conformed)
        case (.dictionary, _) where !isStringKeyed: return value
        case (.record(let name, let fields), .record(_, let given)):
            return .record(
                type: nil,
                fields: try Self.conform(
                    given, to: fields, of: name.map { "\($0)" } ?? "the record", at: path, depth: depth))
        case (.choice(_, let cases), _): return try conformCase(value, cases: cases, at: path, depth: depth)
        default:
            throw ShapeMismatch(at: path, message: "expected \(expectation), not \(value.kindName) \(value.compact)")
        }
    }

    private var isStringKeyed: Bool {
        if case .dictionary(.string, _) = self { return true }
        return false
    }

    /// What a mismatch says was expected: "string", "a list of int", "Address, a record".
    private var expectation: String {
        switch self {
        case .list: "a list (\(summary))"
        case .dictionary, .record(nil, _): "a record (\(summary))"
        case .record(let name?, _): "\(name), a record \(body)"
        default: summary
        }
    }

    /// The fields of a record (or of a case's payload) checked against theirs: each one
    /// known, each one not optional given, in the shape's order.
    private static func conform(
        _ given: [Value.Field], to fields: [Field], of owner: String, at path: ShapePath, depth: Int
    ) throws(ShapeMismatch) -> [Value.Field] {
        let labels = fields.enumerated().map { $0.element.label ?? "_\($0.offset)" }
        for field in given where !labels.contains(field.label ?? "") {
            throw ShapeMismatch(
                at: path,
                message: "\(owner) has no field '\(field.label ?? "")'; its fields: \(labels.joined(separator: ", "))")
        }
        var conformed: [Value.Field] = []
        for (label, field) in zip(labels, fields) {
            guard let value = given.first(where: { $0.label == label })?.value else {
                guard case .optional = field.shape else {
                    throw ShapeMismatch(at: path, message: "\(owner) needs '\(label)' (\(field.shape.summary))")
                }
                continue
            }
            conformed.append(.init(label, try field.shape.conform(value, at: path.field(label), depth: depth + 1)))
        }
        return conformed
    }

    private func conformCase(_ value: Value, cases: [Case], at path: ShapePath, depth: Int) throws(ShapeMismatch)
        -> Value
    {
        let choices = cases.map(\.written).joined(separator: ", ")
        let refusal = ShapeMismatch(at: path, message: "\(value.compact) is not one of \(choices)")
        if cases.first?.rawValue != nil {
            for item in cases {
                guard let raw = item.rawValue else { continue }
                switch (raw, value) {
                case (.double(let a), .int(let b)) where a == Double(b): return raw
                case _ where raw == value: return raw
                case (_, .string(let name)) where name == item.name: return raw
                default: continue
                }
            }
            throw refusal
        }
        switch value {
        case .string(let name):
            guard let item = cases.first(where: { $0.name == name }) else { throw refusal }
            guard item.payload.isEmpty else {
                throw ShapeMismatch(at: path, message: "case '\(name)' needs its payload: \(item.written)")
            }
            return .record(type: nil, fields: [.init(name, .record(type: nil, fields: []))])
        case .record(_, let fields) where fields.count == 1:
            guard let item = cases.first(where: { $0.name == fields[0].label }) else { throw refusal }
            guard case .record(_, let payload) = fields[0].value else {
                throw ShapeMismatch(
                    at: path.field(item.name), message: "expected the payload as a record: \(item.written)")
            }
            let conformed = try Self.conform(
                payload, to: item.payload, of: "case '\(item.name)'", at: path.field(item.name), depth: depth + 1)
            return .record(type: nil, fields: [.init(item.name, .record(type: nil, fields: conformed))])
        default: throw refusal
        }
    }
}
