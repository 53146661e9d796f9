/// What an action argument must look like, as deeply as the plugin knows it: the schema
/// behind checking, completing, showing and generating arguments of any Codable type.
///
/// A plugin describes each parameter with one (`sp_param.shape`, in the text form of
/// `TypeShape+Text.swift`); a parameter without one has just its kind (`int`, …, `any`).
/// Values of a shape are the value trees the SDK's Codable coders read: a struct is a
/// record of its fields, an optional is its value or `null`, a dictionary with string
/// keys is a record, a raw-value enum is its raw value, any other enum is a record with
/// one field, the case's name, holding a record of its payload (`{express: {days: 2}}`).
public indirect enum TypeShape: Hashable, Sendable {
    /// A whole number, within `range` when the type is narrower than 64 bits.
    case int(range: ClosedRange<Int64>?)
    /// A number (a whole number is accepted too).
    case double
    /// `true` or `false`.
    case bool
    /// Text.
    case string
    /// A UUID as Foundation's Codable writes it: text of 32 hex digits in groups of
    /// 8-4-4-4-12 (`"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`).
    case uuid
    /// Nothing more is known: any value tree.
    case any
    /// The wrapped shape, or `null`.
    case optional(TypeShape)
    /// A list of the element shape.
    case list(TypeShape)
    /// Keys to values; with string keys, a record whose labels are the keys.
    case dictionary(key: TypeShape, value: TypeShape)
    /// A struct: its fields in order, `name` its type's name when known.
    case record(name: String?, fields: [Field])
    /// An enum: its cases in order, `name` its type's name when known.
    case choice(name: String?, cases: [Case])

    /// A whole number of any size.
    public static let anyInt = TypeShape.int(range: nil)

    /// A field of a record, or a payload value of an enum case.
    public struct Field: Hashable, Sendable {
        /// The field's name; nil for an unlabelled payload value (Codable's `_0`, `_1`, …).
        public var label: String?
        /// What the field holds.
        public var shape: TypeShape

        /// A field named `label` of `shape`.
        public init(_ label: String?, _ shape: TypeShape) {
            self.label = label
            self.shape = shape
        }
    }

    /// One case of an enum.
    public struct Case: Hashable, Sendable {
        /// The case's name, as Swift spells it.
        public var name: String
        /// Its payload values, in order (none for a plain case).
        public var payload: [Field]
        /// For a raw-value enum, the raw value users type for this case (a string or a
        /// number); nil otherwise.
        public var rawValue: Value?

        /// A case named `name` with `payload`, and its raw value if the enum has them.
        public init(_ name: String, payload: [Field] = [], rawValue: Value? = nil) {
            self.name = name
            self.payload = payload
            self.rawValue = rawValue
        }
    }

    /// The shape a parameter kind alone tells: `int`, `double`, `bool`, `string`; `any`
    /// for `value` and anything unknown.
    public static func plain(kind: String) -> TypeShape {
        switch kind {
        case "int": .anyInt
        case "double": .double
        case "bool": .bool
        case "string": .string
        default: .any
        }
    }

    /// The name a signature shows: `int`, `string?`, `[Item]`, `[string: int]`,
    /// `Shipping`, `{street: string, zip: string?}` for a record without a name.
    public var summary: String {
        switch self {
        case .int(let range): range.map { "int \($0.lowerBound)...\($0.upperBound)" } ?? "int"
        case .double: "double"
        case .bool: "bool"
        case .string: "string"
        case .uuid: "uuid"
        case .any: "value"
        case .optional(let wrapped):
            if case .int(let range?) = wrapped {
                "(int \(range.lowerBound)...\(range.upperBound))?"
            } else {
                wrapped.summary + "?"
            }
        case .list(let element): "[" + element.summary + "]"
        case .dictionary(let key, let value): "[" + key.summary + ": " + value.summary + "]"
        case .record(let name?, _), .choice(let name?, _): name
        case .record(nil, let fields):
            "{" + fields.map { ($0.label.map { $0 + ": " } ?? "") + $0.shape.summary }.joined(separator: ", ") + "}"
        case .choice(nil, let cases): cases.map(\.written).joined(separator: " | ")
        }
    }

    /// The wrapped shape of an optional (itself otherwise).
    public var unwrapped: TypeShape {
        if case .optional(let wrapped) = self { return wrapped.unwrapped }
        return self
    }

    /// The named records and enums inside this shape (itself included), each once, in the
    /// order first met: what `:actions` and `:help` explain below a signature.
    public var namedParts: [TypeShape] {
        var found: [TypeShape] = []
        var names: Set<String> = []
        collectNamed(into: &found, names: &names, depth: 0)
        return found
    }

    private func collectNamed(into found: inout [TypeShape], names: inout Set<String>, depth: Int) {
        guard depth < 32 else { return }
        switch self {
        case .optional(let inner), .list(let inner): inner.collectNamed(into: &found, names: &names, depth: depth + 1)
        case .dictionary(let key, let value):
            key.collectNamed(into: &found, names: &names, depth: depth + 1)
            value.collectNamed(into: &found, names: &names, depth: depth + 1)
        case .record(let name, let fields):
            if let name {
                guard names.insert(name).inserted else { return }
                found.append(self)
            }
            for field in fields { field.shape.collectNamed(into: &found, names: &names, depth: depth + 1) }
        case .choice(let name, let cases):
            if let name {
                guard names.insert(name).inserted else { return }
                found.append(self)
            }
            for item in cases {
                for field in item.payload { field.shape.collectNamed(into: &found, names: &names, depth: depth + 1) }
            }
        default: break
        }
    }

    /// What a named record or enum is made of, for a line under a signature:
    /// `"ground" | "express" | "air"`, `{street: string, zip: string?}`.
    public var body: String {
        switch self {
        case .record(_, let fields):
            "{" + fields.map { ($0.label.map { $0 + ": " } ?? "") + $0.shape.summary }.joined(separator: ", ") + "}"
        case .choice(_, let cases): cases.map(\.written).joined(separator: " | ")
        default: summary
        }
    }
}

extension TypeShape.Case {
    /// The case as users write it: its raw value (`"air"`), its name in quotes for a
    /// plain case (`"ground"`), or the Codable record of a case with a payload
    /// (`{express: {days: int}}`).
    public var written: String {
        if let rawValue { return rawValue.compact }
        guard !payload.isEmpty else { return Value.quoted(name) }
        let fields = payload.enumerated().map { index, field in
            Value.label(field.label ?? "_\(index)") + ": " + field.shape.summary
        }
        return "{" + Value.label(name) + ": {" + fields.joined(separator: ", ") + "}}"
    }
}

extension TypeShape {
    /// A simple value of this shape: 0, "", false, the first case, each field's example,
    /// an empty list; `null` for an optional or `any`. What `:help` shows and what the SDK
    /// decodes a stand-in from.
    public var example: Value {
        switch self {
        case .int(let range): .int(range.map { $0.contains(0) ? 0 : $0.lowerBound } ?? 0)
        case .double: .double(0)
        case .bool: .bool(false)
        case .string: .string("")
        case .uuid: .string("00000000-0000-0000-0000-000000000000")
        case .any, .optional: .null
        case .list: .array([])
        case .dictionary(.string, _): .record(type: nil, fields: [])
        case .dictionary: .array([])
        case .record(_, let fields):
            .record(
                type: nil,
                fields: fields.enumerated().map { .init($0.element.label ?? "_\($0.offset)", $0.element.shape.example) }
            )
        case .choice(_, let cases):
            if let first = cases.first {
                first.rawValue
                    ?? .record(
                        type: nil,
                        fields: [
                            .init(
                                first.name,
                                .record(
                                    type: nil,
                                    fields: first.payload.enumerated().map {
                                        .init($0.element.label ?? "_\($0.offset)", $0.element.shape.example)
                                    }))
                        ])
            } else {
                .null
            }
        }
    }
}

extension TypeShape {
    /// Whether an argument of this shape can travel as a parameter of `kind` ("int",
    /// "double", "bool", "string", "value"): any shape as a value; a scalar as its own kind;
    /// a choice whose raw values are all of a scalar kind as that kind.
    public func fits(kind: String) -> Bool {
        switch (kind, self) {
        case ("value", _), ("int", .int), ("double", .double), ("bool", .bool), ("string", .string), ("string", .uuid):
            return true
        case (_, .choice(_, let cases)) where !cases.isEmpty:
            return cases.allSatisfy { item in
                switch (kind, item.rawValue) {
                case ("int", .int?), ("double", .double?), ("double", .int?), ("string", .string?): true
                default: false
                }
            }
        default: return false
        }
    }
}

extension TypeShape {
    /// Whether `text` is a UUID as Foundation reads one: 8-4-4-4-12 hex digits, in either case.
    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex = (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                guard hex else { return false }
            }
        }
        return true
    }
}
