import StoreValue

/// The functions of the property language. Each takes what `[*]` gave as a list.
extension PropertyEvaluator {
    func call(_ function: PropertyFunction, _ values: [PropertyOperand], nodes: [PropertyNode])
        throws(PropertyProblem) -> PropertyOperand
    {
        let value = values[0]
        // Worded only for an error: a property is checked after every explored step.
        var text: String { PropertyEvaluator.subject(nodes[0]) }
        func wrong(_ takes: String) -> PropertyProblem {
            .invalid("\(function.rawValue) takes \(takes); \(text) is \(value.compact) (\(value.kindName))")
        }
        func list() throws(PropertyProblem) -> [PropertyOperand] {
            guard let items = value.elements else { throw wrong("a list") }
            return items
        }
        switch function {
        case .count:
            if case .value(.array(let items)) = value { return .value(.int(Int64(items.count))) }
            if let items = value.elements { return .value(.int(Int64(items.count))) }
            if let string = value.text { return .value(.int(Int64(string.count))) }
            if case .value(.record(_, let fields)) = value { return .value(.int(Int64(fields.count))) }
            throw wrong("a list, a dictionary or a string")
        case .length:
            guard let string = value.text else { throw wrong("a string") }
            return .value(.int(Int64(string.count)))
        case .sum:
            var total: PropertyOperand = .value(.int(0))
            for item in try list() {
                guard item.isNumber else {
                    throw .invalid("sum takes a list of numbers; \(text) holds \(item.compact) (\(item.kindName))")
                }
                total = try PropertyOperand.arithmetic(.plus, total, item, texts: ("the sum so far", item.compact))
            }
            return total
        case .min, .max:
            let items = try list()
            guard var best = items.first else { throw .missing("\(function.rawValue) of an empty list (\(text))") }
            for item in items.dropFirst() {
                guard let order = PropertyOperand.order(item, best) else {
                    throw .invalid(
                        "\(function.rawValue) takes numbers or strings; \(text) holds \(best.compact) (\(best.kindName)) and \(item.compact) (\(item.kindName))"
                    )
                }
                if function == .min ? order < 0 : order > 0 { best = item }
            }
            if items.count == 1, PropertyOperand.order(best, best) == nil {
                throw .invalid(
                    "\(function.rawValue) takes numbers or strings; \(text) holds \(best.compact) (\(best.kindName))")
            }
            return best
        case .unique:
            var kept: [PropertyOperand] = []
            for item in try list() where !kept.contains(where: { PropertyOperand.same($0, item) }) { kept.append(item) }
            return .list(kept)
        case .sorted:
            let items = try list()
            // Every pair must be ordered: all numbers or all text.
            for item in items where PropertyOperand.order(item, items[0]) == nil {
                throw .invalid(
                    "sorted takes numbers or strings; \(text) holds \(items[0].compact) (\(items[0].kindName)) and \(item.compact) (\(item.kindName))"
                )
            }
            return .list(items.sorted { PropertyOperand.order($0, $1) ?? 0 < 0 })
        case .contains:
            let needle = values[1]
            if case .value(.record(_, let fields)) = value {
                return .value(.bool(fields.contains { PropertyOperand.same(.key($0.label ?? ""), needle) }))
            }
            if let items = value.elements {
                return .value(.bool(items.contains { PropertyOperand.same($0, needle) }))
            }
            if let string = value.text {
                guard let part = needle.text else {
                    throw .invalid(
                        "contains(string, …) looks for text; \(PropertyEvaluator.subject(nodes[1])) is \(needle.compact) (\(needle.kindName))"
                    )
                }
                return .value(.bool(part.isEmpty || string.firstRange(of: part) != nil))
            }
            throw wrong("a list, a dictionary or a string")
        case .keys:
            guard case .value(.record(_, let fields)) = value else { throw wrong("a dictionary") }
            return .list(fields.map { .key($0.label ?? "") })
        case .all, .any:
            var result = function == .all
            for item in try list() {
                guard case .value(.bool(let truth)) = item else {
                    throw .invalid(
                        "\(function.rawValue) takes a list of true and false; \(text) holds \(item.compact) (\(item.kindName))"
                    )
                }
                if function == .all { result = result && truth } else { result = result || truth }
            }
            return .value(.bool(result))
        }
    }
}
