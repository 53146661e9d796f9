public import StoreValue

extension ActionDescriptor {
    /// The action with `arguments` as it is typed: `setCount 5`, `todos["t1"].toggle`,
    /// `setUser name: "bo", age: 3`. ActionCall.parse reads it back.
    public func text(with arguments: [Value]) -> String {
        var keys = arguments[...]
        var name = ""
        for (index, part) in self.name.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { name += "." }
            if part.hasSuffix("[]"), let key = keys.popFirst() {
                name += part.dropLast(2) + "[" + key.compact + "]"
            } else {
                name += part
            }
        }
        let keyCount = arguments.count - keys.count
        let rest = zip(params.dropFirst(keyCount), keys).map { param, value in
            (param.label.map { "\($0): " } ?? "") + value.compact
        }
        return rest.isEmpty ? name : name + " " + rest.joined(separator: ", ")
    }
}
