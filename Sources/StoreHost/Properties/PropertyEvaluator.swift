package import StoreValue

/// The action a postcondition looks at: its name, its arguments (labelled as the action's
/// parameters are), the state before it, and whether the model accepted it.
package struct PropertyStep: Sendable {
    package let action: String
    package let labels: [String?]
    package let arguments: [Value]
    package let old: Value
    package let accepted: Bool

    package init(action: String, labels: [String?], arguments: [Value], old: Value, accepted: Bool) {
        self.action = action
        self.labels = labels
        self.arguments = arguments
        self.old = old
        self.accepted = accepted
    }
}

/// Works out a `PropertyNode` in a state (and, for postconditions, the step that led to
/// it). Operators map element-wise over what `[*]` gives; functions take it as a list.
package struct PropertyEvaluator {
    package let state: Value
    /// List elements named by key (`todos["t1"]`) are found through its identity fields.
    package let identity: StateDiff
    package let step: PropertyStep?

    package init(state: Value, identity: StateDiff = StateDiff(), step: PropertyStep? = nil) {
        self.state = state
        self.identity = identity
        self.step = step
    }

    /// The expression's value.
    package func value(of node: PropertyNode) throws(PropertyProblem) -> Value {
        try evaluate(node).value
    }

    /// Whether the expression holds: it must give true or false.
    package func truth(of node: PropertyNode) throws(PropertyProblem) -> Bool {
        let result = try evaluate(node)
        switch result {
        case .value(.bool(let truth)): return truth
        case .each(let items):
            throw .invalid(
                "\(node.text) gives a list of \(items.count) value\(items.count == 1 ? "" : "s") ([*] maps over the elements); wrap it in all(…) or any(…)"
            )
        default:
            throw .invalid(
                "\(Self.subject(node)) is \(result.compact) (\(result.kindName)), not true or false; compare it with something (\(node.text) == …)"
            )
        }
    }

    package func evaluate(_ node: PropertyNode) throws(PropertyProblem) -> PropertyOperand {
        switch node.kind {
        case .literal(let value): return .value(value)
        case .state: return .value(state)
        case .field(let base, let name):
            if base.kind == .arguments { return try argument(named: name) }
            let of = try evaluate(base)
            return try Self.map(of) { item throws(PropertyProblem) in try member(name, of: item, base: base) }
        case .index(let base, let keyNode):
            let key = try evaluate(keyNode)
            if base.kind == .arguments { return try argument(at: key, node: keyNode) }
            guard key.elements == nil || key.isArrayValue else {
                throw .invalid("an index or key is one value; \(keyNode.text) is a list")
            }
            let of = try evaluate(base)
            return try Self.map(of) { item throws(PropertyProblem) in try element(key, of: item, base: base) }
        case .every(let base):
            let of = try evaluate(base)
            if case .each(let items) = of {
                var all: [PropertyOperand] = []
                for item in items { all += try Self.spread(item, base: base) }
                return .each(all)
            }
            return .each(try Self.spread(of, base: base))
        case .arguments:
            let step = try step(for: node)
            return .value(
                .record(
                    type: nil,
                    fields: step.arguments.enumerated().map { index, value in
                        Value.Field(index < step.labels.count ? step.labels[index] ?? "_\(index)" : "_\(index)", value)
                    }))
        case .accepted: return .value(.bool(try step(for: node).accepted))
        case .old(let inner):
            let step = try step(for: node)
            return try PropertyEvaluator(state: step.old, identity: identity, step: step).evaluate(inner)
        case .call(let function, let arguments):
            var values: [PropertyOperand] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            return try call(function, values, nodes: arguments)
        case .not(let inner):
            return try Self.map(try evaluate(inner)) { item throws(PropertyProblem) in
                guard case .value(.bool(let truth)) = item else {
                    throw .invalid(
                        "'!' takes true or false; \(Self.subject(inner)) is \(item.compact) (\(item.kindName))")
                }
                return .value(.bool(!truth))
            }
        case .negate(let inner):
            return try Self.map(try evaluate(inner)) { item throws(PropertyProblem) in
                try PropertyOperand.negated(item, text: Self.subject(inner))
            }
        case .binary(let op, let left, let right):
            let a = try evaluate(left)
            if op == .and || op == .or, case .value(.bool(let truth)) = a, truth == (op == .or) {
                return a  // false && …, true || …: the right side is not read
            }
            let b = try evaluate(right)
            return try Self.zip(a, b, left: left, right: right) { x, y throws(PropertyProblem) in
                try apply(op, x, y, left: left, right: right)
            }
        }
    }

    /// One operator on two single values.
    private func apply(
        _ op: PropertyOperator, _ a: PropertyOperand, _ b: PropertyOperand, left: PropertyNode, right: PropertyNode
    ) throws(PropertyProblem) -> PropertyOperand {
        switch op {
        case .and, .or:
            for (operand, node) in [(a, left), (b, right)] {
                guard case .value(.bool) = operand else {
                    throw .invalid(
                        "'\(op.rawValue)' takes true or false; \(Self.subject(node)) is \(operand.compact) (\(operand.kindName))"
                    )
                }
            }
            return .value(
                .bool(
                    op == .and
                        ? a == .value(.bool(true)) && b == .value(.bool(true))
                        : a == .value(.bool(true)) || b == .value(.bool(true))))
        case .equal: return .value(.bool(PropertyOperand.same(a, b)))
        case .notEqual: return .value(.bool(!PropertyOperand.same(a, b)))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = PropertyOperand.order(a, b) else {
                let other =
                    if case .literal = right.kind { "\(b.compact) (\(b.kindName))" } else {
                        "\(right.text), which is \(b.compact) (\(b.kindName))"
                    }
                throw .invalid(
                    "\(Self.subject(left)) is \(a.compact) (\(a.kindName)), which '\(op.rawValue)' cannot compare with \(other)"
                )
            }
            let holds =
                switch op {
                case .less: order < 0
                case .lessOrEqual: order <= 0
                case .greater: order > 0
                default: order >= 0
                }
            return .value(.bool(holds))
        case .plus, .minus, .times, .divide, .remainder:
            return try PropertyOperand.arithmetic(op, a, b, texts: (left.text, right.text))
        }
    }

    // MARK: Paths.

    /// `name` of one value: a record's field, a dictionary's key, an enum case's payload
    /// label, a list element whose id it is.
    private func member(_ name: String, of operand: PropertyOperand, base: PropertyNode) throws(PropertyProblem)
        -> PropertyOperand
    {
        // Worded only for an error: a property is checked after every explored step.
        var at: String { Self.place(base) }
        switch operand {
        case .value(.record(_, let fields)), .value(.enumCase(_, let fields)):
            if let field = fields.first(where: { $0.label == name }) { return .value(field.value) }
            let known = fields.prefix(20).compactMap(\.label)
            throw .missing(
                "no field '\(name)' at \(at)" + (known.isEmpty ? "" : "; fields: \(known.joined(separator: ", "))"))
        case .value(.array(let items)):
            return try byIdentity(name, in: items.map(PropertyOperand.value), at: at)
        case .list(let items):
            return try byIdentity(name, in: items, at: at)
        default:
            throw .missing("\(at) is \(operand.compact) (\(operand.kindName)), which has no field '\(name)'")
        }
    }

    /// `[key]` of one value: a list's element by index or id, a dictionary's key (an
    /// integer names the key that is its decimal text).
    private func element(_ key: PropertyOperand, of operand: PropertyOperand, base: PropertyNode)
        throws(PropertyProblem) -> PropertyOperand
    {
        let at = Self.place(base)
        if case .value(.int(let index)) = key, let items = operand.elements {
            guard index >= 0, index < items.count else {
                throw .missing("index \(index) is out of range: \(at) has \(items.count) items")
            }
            return items[Int(index)]
        }
        let name: String
        switch key {
        case .value(.int(let number)): name = String(number)
        case .value(.string(let text)), .key(let text): name = text
        default: throw .invalid("an index is a whole number or a key; \(key.compact) (\(key.kindName)) is neither")
        }
        if case .value(.record) = operand {
            do {
                return try member(name, of: operand, base: base)
            } catch {
                throw .missing("no key \(Value.quoted(name)) in \(at)")
            }
        }
        return try member(name, of: operand, base: base)
    }

    private func byIdentity(_ id: String, in items: [PropertyOperand], at: String) throws(PropertyProblem)
        -> PropertyOperand
    {
        if let item = items.first(where: { identity.identity($0.value) == id }) { return item }
        let ids = items.prefix(10).compactMap { identity.identity($0.value).map(Value.quoted) }
        throw .missing(
            "no element with id \(Value.quoted(id)) in \(at)"
                + (ids.isEmpty
                    ? " (its elements have no id field)"
                    : "; ids: \(ids.joined(separator: ", "))\(items.count > 10 ? ", …" : "")"))
    }

    /// The elements `[*]` gives: a list's, or a dictionary's (or record's) values.
    private static func spread(_ operand: PropertyOperand, base: PropertyNode) throws(PropertyProblem)
        -> [PropertyOperand]
    {
        if let items = operand.elements { return items }
        switch operand {
        case .value(.record(_, let fields)), .value(.enumCase(_, let fields)):
            return fields.map { .value($0.value) }
        default:
            throw .missing("\(place(base)) is \(operand.compact) (\(operand.kindName)), not a list or a dictionary")
        }
    }

    // MARK: The action.

    private func step(for node: PropertyNode) throws(PropertyProblem) -> PropertyStep {
        guard let step else { throw .invalid("\(node.text) reads the action just taken: only postconditions have one") }
        return step
    }

    private func argument(named name: String) throws(PropertyProblem) -> PropertyOperand {
        let step = try step(for: PropertyNode(.arguments, start: 0, end: 0))
        guard let index = step.labels.firstIndex(of: name), index < step.arguments.count else {
            let labels = step.labels.compactMap { $0 }
            throw .invalid(
                "\(step.action) has no argument '\(name)'"
                    + (labels.isEmpty
                        ? " (args[N] reads its arguments by position)"
                        : "; its arguments: \(labels.joined(separator: ", "))"))
        }
        return .value(step.arguments[index])
    }

    private func argument(at key: PropertyOperand, node: PropertyNode) throws(PropertyProblem) -> PropertyOperand {
        let step = try step(for: node)
        guard case .value(.int(let index)) = key else {
            if let name = key.text { return try argument(named: name) }
            throw .invalid("args[N] takes a position from 0; \(node.text) is \(key.compact) (\(key.kindName))")
        }
        guard index >= 0, index < step.arguments.count else {
            throw .invalid(
                "\(step.action) took \(step.arguments.count) argument\(step.arguments.count == 1 ? "" : "s"); args[\(index)] is not one"
            )
        }
        return .value(step.arguments[Int(index)])
    }

    // MARK: Mapping.

    /// `transform` on each element of what `[*]` gave, or on the one value.
    static func map(
        _ operand: PropertyOperand, _ transform: (PropertyOperand) throws(PropertyProblem) -> PropertyOperand
    )
        throws(PropertyProblem) -> PropertyOperand
    {
        guard case .each(let items) = operand else { return try transform(operand) }
        var out: [PropertyOperand] = []
        out.reserveCapacity(items.count)
        for item in items { out.append(try transform(item)) }
        return .each(out)
    }

    /// `combine` element-wise when either side is what `[*]` gave (both: of the same length).
    static func zip(
        _ a: PropertyOperand, _ b: PropertyOperand, left: PropertyNode, right: PropertyNode,
        _ combine: (PropertyOperand, PropertyOperand) throws(PropertyProblem) -> PropertyOperand
    ) throws(PropertyProblem) -> PropertyOperand {
        switch (a, b) {
        case (.each(let xs), .each(let ys)):
            guard xs.count == ys.count else {
                throw .invalid(
                    "\(left.text) has \(xs.count) elements and \(right.text) \(ys.count): element-wise operators need as many on both sides"
                )
            }
            var out: [PropertyOperand] = []
            for (x, y) in Swift.zip(xs, ys) { out.append(try combine(x, y)) }
            return .each(out)
        case (.each(let xs), _):
            var out: [PropertyOperand] = []
            for x in xs { out.append(try combine(x, b)) }
            return .each(out)
        case (_, .each(let ys)):
            var out: [PropertyOperand] = []
            for y in ys { out.append(try combine(a, y)) }
            return .each(out)
        default:
            return try combine(a, b)
        }
    }

    /// A node for messages: "the state" for the whole of it.
    static func subject(_ node: PropertyNode) -> String { node.kind == .state ? "the state" : node.text }

    /// Where a path step looked, for messages: "the top level" for the whole state.
    static func place(_ node: PropertyNode) -> String { node.kind == .state ? "the top level" : node.text }
}

extension PropertyOperand {
    /// A plain list value (not one a function or `[*]` made).
    var isArrayValue: Bool {
        if case .value(.array) = self { return true }
        return false
    }
}
