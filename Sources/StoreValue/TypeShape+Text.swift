// The text form of a TypeShape, as `sp_param.shape` and the worker protocol carry it: the
// shape written as a literal (Literal.swift's grammar), so it needs no parser of its own.
//
//   "int" "double" "bool" "string" "uuid" "any"        {int: [LOW, HIGH]}
//   {optional: SHAPE}   {list: SHAPE}   {dictionary: [KEY, VALUE]}
//   {record: "Name" | null, fields: [[LABEL | null, SHAPE], …]}
//   {choice: "Name" | null, cases: [{case: "name", payload: [[LABEL | null, SHAPE], …], raw: VALUE}, …]}
//
// (`payload` and `raw` may be left out.) Reading (TypeShape.parse) and writing
// (TypeShape.text) sit side by side: a change to the form is made to both here.

extension TypeShape {
    /// The shape as a literal value (see the top of this file).
    public var literal: Value {
        switch self {
        case .int(nil): return .string("int")
        case .int(let range?): return .record(["int": .array([.int(range.lowerBound), .int(range.upperBound)])])
        case .double: return .string("double")
        case .bool: return .string("bool")
        case .string: return .string("string")
        case .uuid: return .string("uuid")
        case .any: return .string("any")
        case .optional(let wrapped): return .record(["optional": wrapped.literal])
        case .list(let element): return .record(["list": element.literal])
        case .dictionary(let key, let value): return .record(["dictionary": .array([key.literal, value.literal])])
        case .record(let name, let fields):
            return .record(["record": name.map(Value.string) ?? .null, "fields": Self.literal(fields)])
        case .choice(let name, let cases):
            let written: [Value] = cases.map { item in
                var fields: [Value.Field] = [.init("case", .string(item.name))]
                if !item.payload.isEmpty { fields.append(.init("payload", Self.literal(item.payload))) }
                if let raw = item.rawValue { fields.append(.init("raw", raw)) }
                return .record(type: nil, fields: fields)
            }
            return .record(["choice": name.map(Value.string) ?? .null, "cases": .array(written)])
        }
    }

    private static func literal(_ fields: [Field]) -> Value {
        .array(fields.map { .array([$0.label.map(Value.string) ?? .null, $0.shape.literal]) })
    }

    /// The shape's text form, one line: what `parse` reads back.
    public var text: String { literal.compact }

    /// Reads a shape's text form. A mistake in the literal is a `TextError` at its byte
    /// offset; a literal that is not a shape says where in it (`cases[1].raw: …`), at
    /// offset 0.
    public static func parse(_ text: String) throws(TextError) -> TypeShape {
        try shape(of: Literal.parse(Array(text.utf8)), at: "")
    }

    /// Reads a shape from its literal value (see `parse`).
    public static func shape(of value: Value, at path: String) throws(TextError) -> TypeShape {
        switch value {
        case .string(let word):
            switch word {
            case "int": return .anyInt
            case "double": return .double
            case "bool": return .bool
            case "string": return .string
            case "uuid": return .uuid
            case "any": return .any
            default:
                throw problem(
                    path,
                    "\(Value.quoted(word)) is not a shape; expected \"int\", \"double\", \"bool\", \"string\", \"uuid\" or \"any\""
                )
            }
        case .record(_, let fields) where fields.first?.label != nil:
            return try compound(fields, at: path)
        default:
            throw problem(
                path, "expected a shape (\"int\", {list: …}, {record: …}, …), not \(value.kindName) \(value.compact)")
        }
    }

    private static func compound(_ fields: [Value.Field], at path: String) throws(TextError) -> TypeShape {
        let tag = fields[0].label ?? ""
        let inner = fields[0].value
        let allowed: [String: Set<String>] = [
            "int": [], "optional": [], "list": [], "dictionary": [], "record": ["fields"], "choice": ["cases"],
        ]
        guard let extra = allowed[tag] else {
            throw problem(
                path,
                "'\(tag)' is not a shape; expected int, optional, list, dictionary, record or choice (the kind comes first)"
            )
        }
        for field in fields.dropFirst() where !extra.contains(field.label ?? "") {
            throw problem(path, "a \(tag) shape has no '\(field.label ?? "")'")
        }
        let here = path.isEmpty ? tag : path + "." + tag
        switch tag {
        case "int":
            guard case .array(let bounds) = inner, bounds.count == 2, case .int(let low) = bounds[0],
                case .int(let high) = bounds[1]
            else { throw problem(here, "expected [LOW, HIGH], two whole numbers, not \(inner.compact)") }
            guard low <= high else { throw problem(here, "the range \(low)...\(high) is empty") }
            return .int(range: low...high)
        case "optional": return .optional(try shape(of: inner, at: here))
        case "list": return .list(try shape(of: inner, at: here))
        case "dictionary":
            guard case .array(let pair) = inner, pair.count == 2 else {
                throw problem(here, "expected [KEY, VALUE], two shapes, not \(inner.compact)")
            }
            return .dictionary(
                key: try shape(of: pair[0], at: here + "[0]"), value: try shape(of: pair[1], at: here + "[1]"))
        case "record":
            let name = try typeName(inner, at: here)
            guard let list = fields.first(where: { $0.label == "fields" })?.value else {
                throw problem(path, "a record shape needs fields: [[LABEL, SHAPE], …]")
            }
            let members = try self.fields(list, at: path.isEmpty ? "fields" : path + ".fields")
            var seen: Set<String> = []
            for member in members {
                guard let label = member.label else {
                    throw problem(path, "a record's fields need labels (null is for an enum case's payload)")
                }
                guard seen.insert(label).inserted else { throw problem(path, "field '\(label)' appears twice") }
            }
            return .record(name: name, fields: members)
        default:
            let name = try typeName(inner, at: here)
            let casesPath = path.isEmpty ? "cases" : path + ".cases"
            guard case .array(let list)? = fields.first(where: { $0.label == "cases" })?.value else {
                throw problem(path, "a choice shape needs cases: [{case: NAME, …}, …]")
            }
            var cases: [Case] = []
            for (index, entry) in list.enumerated() {
                let item = try choiceCase(entry, at: "\(casesPath)[\(index)]")
                guard !cases.contains(where: { $0.name == item.name }) else {
                    throw problem("\(casesPath)[\(index)]", "case '\(item.name)' appears twice")
                }
                if let raw = item.rawValue, cases.contains(where: { $0.rawValue == raw }) {
                    throw problem("\(casesPath)[\(index)]", "raw value \(raw.compact) appears twice")
                }
                cases.append(item)
            }
            guard cases.allSatisfy({ $0.rawValue == nil }) || cases.allSatisfy({ $0.rawValue != nil }) else {
                throw problem(casesPath, "either every case has a raw value or none has")
            }
            return .choice(name: name, cases: cases)
        }
    }

    private static func typeName(_ value: Value, at path: String) throws(TextError) -> String? {
        switch value {
        case .null: return nil
        case .string(let name) where !name.isEmpty: return name
        default: throw problem(path, "expected the type's name in quotes, or null, not \(value.compact)")
        }
    }

    private static func fields(_ value: Value, at path: String) throws(TextError) -> [Field] {
        guard case .array(let items) = value else {
            throw problem(path, "expected [[LABEL, SHAPE], …], not \(value.compact)")
        }
        var fields: [Field] = []
        for (index, item) in items.enumerated() {
            let here = "\(path)[\(index)]"
            guard case .array(let pair) = item, pair.count == 2 else {
                throw problem(here, "expected [LABEL, SHAPE], not \(item.compact)")
            }
            let label: String?
            switch pair[0] {
            case .null: label = nil
            case .string(let text) where !text.isEmpty: label = text
            default: throw problem(here, "expected a label in quotes, or null, not \(pair[0].compact)")
            }
            fields.append(Field(label, try shape(of: pair[1], at: here)))
        }
        return fields
    }

    private static func choiceCase(_ value: Value, at path: String) throws(TextError) -> Case {
        guard case .record(_, let entries) = value, case .string(let name)? = value["case"], !name.isEmpty else {
            throw problem(path, "expected {case: \"NAME\", …}, not \(value.compact)")
        }
        for entry in entries where !["case", "payload", "raw"].contains(entry.label ?? "") {
            throw problem(path, "a case has no '\(entry.label ?? "")'")
        }
        let payload =
            try value["payload"].map { (list) throws(TextError) in try fields(list, at: path + ".payload") } ?? []
        let raw = value["raw"]
        switch raw {
        case nil, .string?, .int?, .double?: break
        case let other?: throw problem(path + ".raw", "a raw value is text or a number, not \(other.compact)")
        }
        if raw != nil, !payload.isEmpty {
            throw problem(path, "a case with a raw value has no payload")
        }
        return Case(name, payload: payload, rawValue: raw)
    }

    private static func problem(_ path: String, _ message: String) -> TextError {
        TextError(path.isEmpty ? message : "\(path): \(message)", at: 0)
    }
}
