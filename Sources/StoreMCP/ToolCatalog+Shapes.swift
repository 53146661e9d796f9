import MCP
import StoreValue

extension ToolCatalog {
    /// The JSON Schema of an action argument's shape: `integer` with its range, `enum` for
    /// an enum's raw values or plain cases, `properties` and `required` for a struct,
    /// `items` for a list, `additionalProperties` for a dictionary, and a `null` alternative
    /// for an optional.
    static func jsonSchema(_ shape: TypeShape) -> [String: MCP.Value] {
        jsonSchema(shape, depth: 0)
    }

    private static func jsonSchema(_ shape: TypeShape, depth: Int) -> [String: MCP.Value] {
        guard depth < 32 else { return [:] }
        switch shape {
        case .int(let range):
            var schema: [String: MCP.Value] = ["type": "integer"]
            if let range {
                schema["minimum"] = .int(Int(range.lowerBound))
                schema["maximum"] = .int(Int(range.upperBound))
            }
            return schema
        case .double: return ["type": "number"]
        case .bool: return ["type": "boolean"]
        case .string: return ["type": "string"]
        case .uuid: return ["type": "string", "format": "uuid"]
        case .any: return ["type": ["object", "array", "string", "number", "integer", "boolean", "null"]]
        case .optional(let wrapped):
            var inner = jsonSchema(wrapped, depth: depth + 1)
            if case .string(let type)? = inner["type"], inner["enum"] == nil {
                inner["type"] = .array([.string(type), "null"])
                return inner
            }
            return ["anyOf": .array([.object(inner), .object(["type": "null"])])]
        case .list(let element): return ["type": "array", "items": .object(jsonSchema(element, depth: depth + 1))]
        case .dictionary(.string, let element):
            return ["type": "object", "additionalProperties": .object(jsonSchema(element, depth: depth + 1))]
        case .dictionary: return ["type": "array"]
        case .record(let name, let fields):
            var schema = object(fields, depth: depth)
            if let name { schema["title"] = .string(name) }
            return schema
        case .choice(let name, let cases):
            var schema: [String: MCP.Value]
            if cases.allSatisfy({ $0.rawValue != nil }) {
                schema = ["enum": .array(cases.compactMap { $0.rawValue.map(scalar) })]
            } else {
                var options: [MCP.Value] = []
                let plain = cases.filter(\.payload.isEmpty).map { MCP.Value.string($0.name) }
                if !plain.isEmpty { options.append(.object(["type": "string", "enum": .array(plain)])) }
                for item in cases {
                    options.append(
                        .object([
                            "type": "object",
                            "properties": .object([item.name: .object(object(item.payload, depth: depth))]),
                            "required": [.string(item.name)], "additionalProperties": false,
                        ]))
                }
                schema = ["oneOf": .array(options)]
            }
            if let name { schema["title"] = .string(name) }
            return schema
        }
    }

    /// A raw value as JSON: text or a number.
    private static func scalar(_ value: StoreValue.Value) -> MCP.Value {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .int(Int(number))
        case .double(let number): .double(number)
        default: .null
        }
    }

    /// A record's fields (or a case's payload) as an object schema.
    private static func object(_ fields: [TypeShape.Field], depth: Int) -> [String: MCP.Value] {
        var properties: [String: MCP.Value] = [:]
        var required: [MCP.Value] = []
        for (index, field) in fields.enumerated() {
            let label = field.label ?? "_\(index)"
            properties[label] = .object(jsonSchema(field.shape, depth: depth + 1))
            if case .optional = field.shape { continue }
            required.append(.string(label))
        }
        var schema: [String: MCP.Value] = [
            "type": "object", "properties": .object(properties), "additionalProperties": false,
        ]
        if !required.isEmpty { schema["required"] = .array(required) }
        return schema
    }
}
