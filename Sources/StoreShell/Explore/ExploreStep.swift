package import StoreHost
package import StoreValue

/// One step of an explored run: an action with its arguments, or time moving on the
/// virtual clock (the `:advance` of the prompt, which fires the effects due).
package enum ExploreStep: Hashable, Sendable {
    case action(name: String, arguments: [Value])
    case advance(milliseconds: Int64)

    /// The step as a line of the shell: `add 5`, `todos["t1"].toggle`, `:advance 100ms`.
    package func line(in model: ModelDescriptor) -> String {
        switch self {
        case .action(let name, let arguments):
            guard let action = model.action(named: name) else { return name }
            return action.text(with: arguments)
        case .advance(let milliseconds):
            return ":advance \(milliseconds)ms"
        }
    }

    /// The action's name, nil for a clock step.
    package var actionName: String? {
        if case .action(let name, _) = self { return name }
        return nil
    }
}
