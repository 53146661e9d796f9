package import StoreValue

extension ActionDescriptor {
    /// The action with `arguments` as it is typed: `setCount 5`, `todos["t1"].toggle`,
    /// `setUser name: "bo", age: 3`. ActionCall.parse reads it back.
    package func text(with arguments: [Value]) -> String {
        var writer = ActionTextWriter()
        let keyCount = writer.appendName(name, keys: arguments)
        for (param, value) in zip(params.dropFirst(keyCount), arguments.dropFirst(keyCount)) {
            writer.appendArgument(value, label: param.label)
        }
        return writer.text
    }
}
