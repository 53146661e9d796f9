public import StoreValue

/// An action as typed: `setUser name: "bo", age: 3`, `child.increment`,
/// `todos["a"].toggle`, `setCount(5)`.
public struct ActionCall: Equatable, Sendable {
    /// The action's schema name: keys replaced by `[]` (`todos[].toggle`).
    public let name: String
    /// Keys written in the name, in order; they become the first arguments.
    public let keys: [Value]
    /// Byte offset of each key in the text.
    public let keyOffsets: [Int]
    public let arguments: [Argument]
    /// Byte range of the name in the text.
    public let nameRange: Range<Int>

    public struct Argument: Equatable, Sendable {
        public let label: String?
        public let value: Value
        /// Byte offset of the argument (its label, if any) in the text.
        public let offset: Int
    }

    /// Parses one action. Arguments follow the name after a space, or in parentheses;
    /// they are separated by commas and may be labelled (`label: value`).
    public static func parse(_ text: String) throws(TextError) -> ActionCall {
        var scanner = LiteralScanner(bytes: Array(text.utf8), index: 0)
        scanner.skipSpaces()
        let nameStart = scanner.index
        var name = ""
        var keys: [Value] = []
        var keyOffsets: [Int] = []
        while true {
            guard let part = scanner.identifier() else {
                throw TextError(scanner.atEnd && name.isEmpty ? "expected an action name" : "expected a name after '.'", at: scanner.index)
            }
            name += part
            while scanner.current == UInt8(ascii: "[") {
                let open = scanner.index
                scanner.index += 1
                scanner.skipSpaces()
                keyOffsets.append(scanner.index)
                keys.append(try scanner.literal())
                scanner.skipSpaces()
                guard scanner.current == UInt8(ascii: "]") else { throw TextError("the '[' at \(scanner.column(open)) is not closed", at: scanner.index) }
                scanner.index += 1
                name += "[]"
            }
            guard scanner.current == UInt8(ascii: ".") else { break }
            scanner.index += 1
            name += "."
        }
        let nameRange = nameStart..<scanner.index
        var closing: UInt8?
        if scanner.current == UInt8(ascii: "(") {
            scanner.index += 1
            closing = UInt8(ascii: ")")
        } else if let next = scanner.current, next != 0x20, next != 0x09, next != 0x0A, next != 0x0D {
            throw TextError("unexpected '\(Character(Unicode.Scalar(next)))' after the action name; put a space before arguments", at: scanner.index)
        }
        var arguments: [Argument] = []
        var isClosed = closing == nil
        scanner.skipSpaces()
        if let closing, scanner.current == closing {
            scanner.index += 1
            isClosed = true
        } else if !scanner.atEnd {
            while true {
                scanner.skipSpaces()
                let offset = scanner.index
                var label: String?
                let mark = scanner.index
                if let word = scanner.identifier() {
                    scanner.skipSpaces()
                    if scanner.current == UInt8(ascii: ":") {
                        scanner.index += 1
                        label = word
                    } else {
                        scanner.index = mark
                    }
                }
                if let label, arguments.contains(where: { $0.label == label }) {
                    throw TextError("argument '\(label)' is given twice", at: offset)
                }
                arguments.append(Argument(label: label, value: try scanner.literal(), offset: offset))
                scanner.skipSpaces()
                if scanner.current == UInt8(ascii: ",") {
                    scanner.index += 1
                    continue
                }
                if let closing {
                    guard scanner.current == closing else { throw TextError("expected ',' or ')'", at: scanner.index) }
                    scanner.index += 1
                    isClosed = true
                }
                break
            }
        }
        scanner.skipSpaces()
        guard isClosed else { throw TextError("the '(' is not closed", at: scanner.index) }
        if let extra = scanner.current {
            throw TextError(arguments.isEmpty
                ? "unexpected '\(Character(Unicode.Scalar(extra)))' after the action"
                : "unexpected '\(Character(Unicode.Scalar(extra)))'; separate arguments with ','", at: scanner.index)
        }
        return ActionCall(name: name, keys: keys, keyOffsets: keyOffsets, arguments: arguments, nameRange: nameRange)
    }
}

/// Matches a parsed action against a model's schema: finds the action, puts arguments in
/// parameter order and checks their types, before anything reaches the plugin.
public enum ActionBinding {
    public static func bind(_ call: ActionCall, to model: ModelDescriptor) throws(TextError) -> (ActionDescriptor, [Value]) {
        guard let action = model.action(named: call.name) else {
            var message = "unknown action '\(call.name)'"
            if let suggestion = Suggestion.nearest(to: call.name, in: model.actions.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            throw TextError(message, at: call.nameRange.lowerBound)
        }
        let params = action.params
        var slots = [Value?](repeating: nil, count: params.count)
        var position = 0
        for (key, offset) in zip(call.keys, call.keyOffsets) {
            guard position < params.count else { throw TextError("\(call.name) takes no key", at: offset) }
            let param = params[position]
            guard let coerced = coerced(key, to: param.type) else {
                throw TextError("\(call.name): the key is \(article(param.type.rawValue)) \(param.type.rawValue), not \(key.kindName) \(key.compact)", at: offset)
            }
            slots[position] = coerced
            position += 1
        }
        var sawLabel = false
        for argument in call.arguments {
            let index: Int
            if let label = argument.label {
                sawLabel = true
                guard let found = params.firstIndex(where: { $0.label == label }) else {
                    let labels = params.compactMap(\.label)
                    throw TextError("\(call.name) has no parameter '\(label)'" + (labels.isEmpty ? "" : "; its labels: \(labels.joined(separator: ", "))"), at: argument.offset)
                }
                guard slots[found] == nil else { throw TextError("parameter '\(label)' is already given", at: argument.offset) }
                index = found
            } else {
                guard !sawLabel else { throw TextError("a positional argument cannot follow a labelled one", at: argument.offset) }
                guard position < params.count else {
                    throw TextError("\(call.name) takes \(params.count) argument\(params.count == 1 ? "" : "s") (\(signature(of: action))), got more", at: argument.offset)
                }
                index = position
                position += 1
            }
            slots[index] = try coerce(argument.value, to: params[index], at: argument.offset, action: call.name)
        }
        var values: [Value] = []
        for (index, slot) in slots.enumerated() {
            guard let slot else {
                let param = params[index]
                throw TextError("\(call.name) needs \(param.label.map { "'\($0)'" } ?? "argument \(index + 1)") (\(param.type.rawValue)): \(signature(of: action))", at: call.nameRange.upperBound)
            }
            values.append(slot)
        }
        return (action, values)
    }

    /// `setUser(name: string, age: int)`.
    public static func signature(of action: ActionDescriptor) -> String {
        action.name + "(" + action.params.map { ($0.label.map { "\($0): " } ?? "") + $0.type.rawValue }.joined(separator: ", ") + ")"
    }

    private static func coerce(_ value: Value, to param: ParamDescriptor, at offset: Int, action: String) throws(TextError) -> Value {
        guard let coerced = coerced(value, to: param.type) else {
            throw TextError("\(action): \(param.label.map { "'\($0)'" } ?? "this argument") should be \(param.type.rawValue), not \(value.kindName) \(value.compact)", at: offset)
        }
        return coerced
    }

    /// `value` as a parameter of `type` takes it (an int is a double too), or nil.
    private static func coerced(_ value: Value, to type: ParamType) -> Value? {
        switch (type, value) {
        case (.value, _), (.int, .int), (.double, .double), (.bool, .bool), (.string, .string): value
        case (.double, .int(let v)): .double(Double(v))
        default: nil
        }
    }

    private static func article(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }
}

/// "Did you mean …?": the closest name by edit distance, if it is close enough.
package enum Suggestion {
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
