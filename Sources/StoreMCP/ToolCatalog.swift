import MCP
import StoreService

/// The session's operations as MCP tools, and their outcomes as tool results.
enum ToolCatalog {
    /// `operation` as a tool: its parameters as a JSON Schema object, and hints a client
    /// shows (read-only, and whether repeating it changes nothing more).
    static func tool(_ operation: Operation) -> Tool {
        var properties: [String: MCP.Value] = [:]
        for parameter in operation.parameters {
            var schema = parameter.shape.map(jsonSchema) ?? schemaType(parameter.kind)
            schema["description"] = .string(parameter.doc)
            properties[parameter.name] = .object(schema)
        }
        let required = operation.parameters.filter(\.required).map { MCP.Value.string($0.name) }
        var input: [String: MCP.Value] = [
            "type": "object", "properties": .object(properties), "additionalProperties": false,
        ]
        if !required.isEmpty { input["required"] = .array(required) }
        return Tool(
            name: operation.name, description: operation.summary, inputSchema: .object(input),
            annotations: .init(readOnlyHint: operation.readsOnly, destructiveHint: false, openWorldHint: false)
        )
    }

    private static func schemaType(_ kind: OperationParameter.Kind) -> [String: MCP.Value] {
        switch kind {
        case .string: ["type": "string"]
        case .int: ["type": "integer"]
        case .number: ["type": "number"]
        case .bool: ["type": "boolean"]
        case .value: ["type": ["object", "array", "string", "number", "integer", "boolean", "null"]]
        case .choice(let words): ["type": "string", "enum": .array(words.map(MCP.Value.string))]
        }
    }

    /// `outcome` as a tool result: the shell's text, and its records as structured content
    /// (put in by `carry`); an error (`isError`) when the shell reported one.
    static func result(_ outcome: Outcome, carry: (String) -> MCP.Value = ValueBridge.json) -> CallTool.Result {
        let rendered = outcome.rendered()
        return CallTool.Result(
            content: [.text(text: rendered.text, annotations: nil, _meta: nil)],
            structuredContent: carry(rendered.record) as MCP.Value?,
            isError: outcome.succeeded ? nil : true
        )
    }
}
