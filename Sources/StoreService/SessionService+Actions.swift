package import StoreHost
package import StoreValue

extension SessionService {
    /// One operation per action of `model`, made from its schema: `action_setCount` with
    /// a parameter `count` (an int), `action_todos_toggle` with the `key` of the todo.
    /// Each sends the action with its arguments as values (`ShellCore.execute(_:origin:)`
    /// with `ActionValues`), checked as `send` checks a typed one.
    package static func actionOperations(of model: ModelDescriptor?) -> [Operation] {
        guard let model else { return [] }
        var taken = Set(Self.fixedOperations.map(\.name))
        return model.actions.map { action in
            let operation = Self.operation(for: action, in: model, avoiding: taken)
            taken.insert(operation.name)
            return operation
        }
    }

    /// What `perform` sends for an action's operation called with `arguments` (by
    /// parameter name): the action with its values, once they are checked against the
    /// operation's parameters. Nil for an operation that is not an action's.
    package static func actionValues(of operation: Operation, arguments: [String: Value]) throws(OperationError)
        -> ActionValues?
    {
        guard case .action(let action, let names) = operation.work else { return nil }
        return call(action, names, try OperationArguments(arguments, for: operation))
    }

    /// Action `action` with its arguments, one per parameter named in `names`, from
    /// `checked` (nil where one was left out).
    static func call(_ action: String, _ names: [String], _ checked: OperationArguments) -> ActionValues {
        ActionValues(name: action, arguments: names.map { checked.values[$0] })
    }

    /// The prefix of every action's operation, so an action called `reset` or `state` is
    /// not taken for the session's own operation.
    package static let actionPrefix = "action_"

    private static func operation(for action: ActionDescriptor, in model: ModelDescriptor, avoiding taken: Set<String>)
        -> Operation
    {
        let parts = action.name.split(separator: ".", omittingEmptySubsequences: false)
        let keyCount = parts.filter { $0.hasSuffix("[]") }.count
        let labels = Set(action.params.dropFirst(keyCount).compactMap(\.label))
        var names: [String] = []
        var parameters: [OperationParameter] = []
        var positional = 0
        for (index, param) in action.params.enumerated() {
            var name: String
            let doc: String
            if index < keyCount {
                var key = param.label ?? (keyCount == 1 ? "key" : "key\(index + 1)")
                while labels.contains(key) { key += "_" }
                name = key
                doc =
                    "The key of the element the action is for (\(parts.filter { $0.hasSuffix("[]") }[index].dropLast(2))[KEY])."
            } else if let label = param.label {
                name = label
                doc = param.doc ?? "\(label) (\(param.declaredShape?.summary ?? param.type.rawValue))"
            } else {
                positional += 1
                var argument = "arg\(positional)"
                while labels.contains(argument) { argument += "_" }
                name = argument
                doc = param.doc ?? "Argument \(positional) (\(param.declaredShape?.summary ?? param.type.rawValue))."
            }
            while names.contains(name) { name += "_" }
            names.append(name)
            let parameterKind = param.declaredShape == nil ? kind(of: param.type) : .value
            parameters.append(
                OperationParameter(
                    name, parameterKind, required: param.defaultValue == nil,
                    doc: doc + (param.defaultValue.map { " Default: \($0.compact)." } ?? ""), shape: param.declaredShape
                ))
        }
        let signature = ActionBinding.signature(of: action)
        let summary = "Send \(model.name)'s action \(signature)" + (action.doc.map { ": \($0)" } ?? ".")
        return Operation(
            name: toolName(for: action.name, avoiding: taken), summary: summary, parameters: parameters,
            narrowing: "the diff is long: read parts of the state with the state tool and a path instead",
            action: action.name, argumentNames: names)
    }

    private static func kind(of type: ParamType) -> OperationParameter.Kind {
        switch type {
        case .int: .int
        case .double: .number
        case .bool: .bool
        case .string: .string
        case .value: .value
        }
    }

    /// `todos[].toggle` → `action_todos_toggle`: letters, digits and `_` only, at most 64
    /// characters (what MCP clients accept as a tool's name), unique among `taken`.
    static func toolName(for action: String, avoiding taken: Set<String>) -> String {
        let words = action.split(separator: ".").map { $0.hasSuffix("[]") ? $0.dropLast(2) : $0 }
        let cleaned = String(
            words.joined(separator: "_").unicodeScalars.map { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                        || scalar == "-")
                    ? Character(scalar) : "_"
            })
        let base = String((actionPrefix + cleaned).prefix(60))
        var name = base
        var number = 2
        while taken.contains(name) {
            name = base + "_\(number)"
            number += 1
        }
        return name
    }
}
