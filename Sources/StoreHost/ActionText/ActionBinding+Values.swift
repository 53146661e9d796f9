package import StoreValue

/// An action given as values, one per parameter, rather than as text: what a client with
/// typed arguments (an MCP tool call, an inspector form) sends. `ActionBinding.bind(_:to:)`
/// checks it as it checks a typed line, with the same messages.
package struct ActionValues: Sendable, Equatable {
    /// The action's name as the schema spells it (`todos[].toggle`).
    package let name: String
    /// One per parameter, in the schema's order (keys first); nil where the argument was
    /// left out, so the parameter's default is taken.
    package let arguments: [Value?]

    /// `name` with `arguments`, one per parameter (nil: left out).
    package init(name: String, arguments: [Value?]) {
        self.name = name
        self.arguments = arguments
    }

    /// Values that do not bind: the message a typed line would get, and the text of the
    /// action (as far as it can be written) with the offset the message points at.
    package struct Refusal: Error, Equatable, Sendable {
        package let message: String
        /// The action's text: its name, then its arguments as given (defaults filled in).
        package let text: String
        /// The byte offset in `text` the message is about.
        package let offset: Int
    }
}

extension ActionBinding {
    /// Binds an action given as values to `model`'s schema: each argument is checked
    /// against its parameter's type or shape as a parsed argument is, and an error says the
    /// same; one left out is its parameter's default, taken as it is. Also answers the action's text
    /// (`ActionDescriptor.text(with:)` of the arguments as given), which is what is shown
    /// and recorded for it; an error's offset points into that text at the argument.
    package static func bind(_ call: ActionValues, to model: ModelDescriptor) throws(ActionValues.Refusal) -> (
        action: ActionDescriptor, arguments: [Value], text: String
    ) {
        guard let action = model.action(named: call.name) else {
            var message = "unknown action '\(call.name)'"
            if let suggestion = Suggestion.nearest(to: call.name, in: model.actions.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw ActionValues.Refusal(message: message, text: call.name, offset: 0)
        }
        let params = action.params
        guard call.arguments.count <= params.count else {
            throw ActionValues.Refusal(
                message:
                    "\(call.name) takes \(params.count) argument\(params.count == 1 ? "" : "s") (\(signature(of: action))), got more",
                text: call.name, offset: 0)
        }
        // As given, with defaults for what was left out: what the text shows.
        var given: [Value] = []
        given.reserveCapacity(params.count)
        for (index, param) in params.enumerated() {
            let argument = index < call.arguments.count ? call.arguments[index] : nil
            guard let value = argument ?? param.defaultValue else {
                throw ActionValues.Refusal(
                    message:
                        "\(call.name) needs \(param.label.map { "'\($0)'" } ?? "argument \(index + 1)") (\(param.declaredShape?.summary ?? param.type.rawValue)): \(signature(of: action))",
                    text: call.name, offset: call.name.utf8.count)
            }
            if param.declaredShape == nil, param.type == .double, case .int(let number) = value {
                given.append(.double(Double(number)))
            } else {
                given.append(value)
            }
        }
        let keyCount = action.name.split(separator: ".", omittingEmptySubsequences: false).filter {
            $0.hasSuffix("[]")
        }.count
        var bound: [Value] = []
        bound.reserveCapacity(params.count)
        for (index, param) in params.enumerated() {
            let value = given[index]
            // A default is taken as it is, as at the prompt: it is in the shape's form.
            guard index < call.arguments.count, call.arguments[index] != nil else {
                bound.append(value)
                continue
            }
            if index < keyCount, param.declaredShape == nil {
                guard let coerced = coerced(value, to: param.type) else {
                    throw ActionValues.Refusal(
                        message:
                            "\(call.name): the key is \(article(param.type.rawValue)) \(param.type.rawValue), not \(value.kindName) \(value.compact)",
                        text: action.text(with: given), offset: action.argumentOffsets(with: given)[index])
                }
                bound.append(coerced)
                continue
            }
            do throws(Misfit) {
                bound.append(try fitted(value, to: param, action: call.name))
            } catch {
                let text = action.text(with: given)
                let argument = action.argumentOffsets(with: given)[index]
                let bytes = Array(text.utf8)
                let value = LiteralScanner.valueStart(at: argument, of: bytes)
                let offset = LiteralScanner.offset(of: error.steps, inLiteralAt: value, of: bytes) ?? value
                throw ActionValues.Refusal(message: error.message, text: text, offset: offset)
            }
        }
        return (action, bound, action.text(with: given))
    }
}

extension ActionDescriptor {
    /// Where each of `arguments` starts in `text(with: arguments)`, as the parser finds
    /// them: a key at its value inside `[…]`, an argument at its label (or its value).
    func argumentOffsets(with arguments: [Value]) -> [Int] {
        var writer = ActionTextWriter()
        var offsets: [Int] = []
        var keys = arguments[...]
        for part in name.split(separator: ".", omittingEmptySubsequences: false) {
            if part.hasSuffix("[]"), let key = keys.first {
                writer.appendName(part.dropLast(2))
                offsets.append(writer.text.utf8.count + 1)
                writer.appendKey(key)
                keys = keys.dropFirst()
            } else {
                writer.appendName(part)
            }
        }
        let keyCount = offsets.count
        for (param, value) in zip(params.dropFirst(keyCount), arguments.dropFirst(keyCount)) {
            // After " " before the first argument, ", " before the others.
            offsets.append(writer.text.utf8.count + (offsets.count > keyCount ? 2 : 1))
            writer.appendArgument(value, label: param.label)
        }
        return offsets
    }
}
