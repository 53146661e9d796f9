package import StoreValue

/// Matches a parsed action against a model's schema: finds the action, puts arguments in
/// parameter order and checks their types, before anything reaches the plugin.
package enum ActionBinding {
    package static func bind(_ call: ActionCall, to model: ModelDescriptor) throws(TextError) -> (
        ActionDescriptor, [Value]
    ) {
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
            if param.declaredShape != nil {
                slots[position] = try coerce(key, to: param, valueAt: offset, in: call)
                position += 1
                continue
            }
            guard let coerced = coerced(key, to: param.type) else {
                throw TextError(
                    "\(call.name): the key is \(article(param.type.rawValue)) \(param.type.rawValue), not \(key.kindName) \(key.compact)",
                    at: offset)
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
                    throw TextError(
                        "\(call.name) has no parameter '\(label)'"
                            + (labels.isEmpty ? "" : "; its labels: \(labels.joined(separator: ", "))"),
                        at: argument.offset)
                }
                guard slots[found] == nil else {
                    throw TextError("parameter '\(label)' is already given", at: argument.offset)
                }
                index = found
            } else {
                guard !sawLabel else {
                    throw TextError("a positional argument cannot follow a labelled one", at: argument.offset)
                }
                guard position < params.count else {
                    throw TextError(
                        "\(call.name) takes \(params.count) argument\(params.count == 1 ? "" : "s") (\(signature(of: action))), got more",
                        at: argument.offset)
                }
                index = position
                position += 1
            }
            slots[index] = try coerce(argument.value, to: params[index], valueAt: argument.valueOffset, in: call)
        }
        var values: [Value] = []
        for (index, slot) in slots.enumerated() {
            let param = params[index]
            guard let slot = slot ?? param.defaultValue else {
                throw TextError(
                    "\(call.name) needs \(param.label.map { "'\($0)'" } ?? "argument \(index + 1)") (\(param.declaredShape?.summary ?? param.type.rawValue)): \(signature(of: action))",
                    at: call.nameRange.upperBound)
            }
            values.append(slot)
        }
        return (action, values)
    }

    /// `setUser(name: string, age: int)`.
    package static func signature(of action: ActionDescriptor) -> String {
        action.name + "("
            + action.params.map { ($0.label.map { "\($0): " } ?? "") + $0.written }.joined(separator: ", ") + ")"
    }

    /// What the named records and enums of an action's parameters are made of, a line
    /// each: `Shipping: "ground" | "air"`, `Address: {street: string, zip: string?}`.
    package static func shapeLines(of action: ActionDescriptor) -> [String] {
        var seen: Set<String> = []
        var lines: [String] = []
        for param in action.params {
            for part in param.declaredShape?.namedParts ?? [] where seen.insert(part.summary).inserted {
                lines.append("\(part.summary): \(part.body)")
            }
        }
        return lines
    }

    /// `value` as `param` takes it. A value that does not fit is an error at the wrong part
    /// of it in `call`'s text, where the value starts at `valueOffset`: the `300` in
    /// `items: [{sku: "a", count: 300}]`.
    static func coerce(_ value: Value, to param: ParamDescriptor, valueAt valueOffset: Int, in call: ActionCall)
        throws(TextError) -> Value
    {
        do throws(Misfit) {
            return try fitted(value, to: param, action: call.name)
        } catch {
            throw TextError(error.message, at: call.offset(of: error.steps, inValueAt: valueOffset))
        }
    }

    /// Why an argument does not fit its parameter, and where inside it (no steps: the
    /// whole value).
    struct Misfit: Error {
        let message: String
        let steps: [ShapePath.Step]
    }

    /// `value` as `param` takes it, checked against its shape when it has one.
    static func fitted(_ value: Value, to param: ParamDescriptor, action: String) throws(Misfit) -> Value {
        if let shape = param.declaredShape {
            do throws(ShapeMismatch) {
                return try shape.conform(value)
            } catch {
                // `via`, `items[0].count`, `spot.lon` (inside a positional argument).
                var place = (param.label ?? "") + error.path
                if place.hasPrefix(".") { place.removeFirst() }
                throw Misfit(
                    message: "\(action): \(place.isEmpty ? "this argument" : place): \(error.message)",
                    steps: error.steps)
            }
        }
        guard let coerced = coerced(value, to: param.type) else {
            throw Misfit(
                message:
                    "\(action): \(param.label.map { "'\($0)'" } ?? "this argument") should be \(param.type.rawValue), not \(value.kindName) \(value.compact)",
                steps: [])
        }
        return coerced
    }

    /// `value` as a parameter of `type` takes it (an int is a double too), or nil.
    static func coerced(_ value: Value, to type: ParamType) -> Value? {
        switch (type, value) {
        case (.value, _), (.int, .int), (.double, .double), (.bool, .bool), (.string, .string): value
        case (.double, .int(let v)): .double(Double(v))
        default: nil
        }
    }

    static func article(_ word: String) -> String {
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
        let a = Array(a)
        let b = Array(b)
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
