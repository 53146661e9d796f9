package import StoreValue

/// A check on a state in the property language (`PropertyParser`): what `:expect`,
/// `:bisect`, `:break`, `storesh explore --invariant` and `--after`, and plugins' declared
/// invariants take (`balance >= 0`, `size == count(contents)`, `all(items[*].qty >= 0)`).
///
/// Today's `PATH OP LITERAL` is one such expression, and `== LITERAL` alone still compares
/// the whole state. Every mistake in the text is a `TextError` at its byte offset.
package struct StateCondition: Sendable, Equatable, CustomStringConvertible {
    /// What a check found.
    package enum Outcome: Sendable, Equatable {
        /// The condition holds.
        case holds
        /// It is false here: the values that make it so.
        case fails(explanation: String)
        /// It cannot be worked out here (kinds an operator does not take, an overflow, a
        /// division by zero): a failure, which says why.
        case invalid(reason: String)
        /// A path names nothing in this state (`todos[0]` of an empty list), or `min`/`max`
        /// of an empty list: invariants skip the state, `:expect` fails.
        case missing(reason: String)

        /// Whether a search counts the condition broken here: it fails, or cannot be worked
        /// out. A path that names nothing holds vacuously (an invariant skips the state).
        package var isBroken: Bool {
            switch self {
            case .holds, .missing: false
            case .fails, .invalid: true
            }
        }
    }

    /// The expression.
    package let expression: PropertyNode
    /// A postcondition's (which may read `old(…)`, `args` and `accepted`) or a state's.
    package let context: PropertyParser.Context

    /// The expression written back: it reads back as the same condition.
    package var description: String { expression.text }

    package static func == (lhs: StateCondition, rhs: StateCondition) -> Bool {
        lhs.expression == rhs.expression && lhs.context == rhs.context
    }

    /// Reads an expression; `context` `.action` for a postcondition.
    package static func parse(_ text: String, context: PropertyParser.Context = .state) throws(TextError)
        -> StateCondition
    {
        StateCondition(expression: try PropertyParser.parse(text, context: context), context: context)
    }

    /// `operand OP value`, built from its parts (an MCP client's path, operator and value)
    /// rather than read from text: `operand` is one side whatever it holds, as if written in
    /// brackets. `op` is a comparison.
    package static func comparison(_ operand: PropertyNode, _ op: PropertyOperator, _ value: Value) -> StateCondition {
        precondition(op.isComparison, "\(op.rawValue) is not a comparison")
        let literal = PropertyNode(.literal(value), start: operand.end, end: operand.end)
        return StateCondition(
            expression: PropertyNode(.binary(op, operand, literal), start: operand.start, end: operand.end),
            context: .state)
    }

    /// Checks the condition against `state` (after `step`, for a postcondition); list
    /// elements named by key are found through `identity`.
    package func check(_ state: Value, identity: StateDiff = StateDiff(), step: PropertyStep? = nil) -> Outcome {
        let evaluator = PropertyEvaluator(state: state, identity: identity, step: step)
        do {
            if try evaluator.truth(of: expression) { return .holds }
            return .fails(explanation: explanation(evaluator))
        } catch {
            switch error {
            case .missing(let reason): return .missing(reason: reason)
            case .invalid(let reason): return .invalid(reason: reason)
            }
        }
    }

    /// Whether the condition holds in `state` (a missing path or a problem does not hold).
    package func holds(in state: Value, identity: StateDiff = StateDiff()) -> Bool {
        check(state, identity: identity) == .holds
    }

    /// What is compared: a top-level comparison's left side ("the state" for the whole of
    /// it), else the whole expression.
    package var subject: String {
        if case .binary(let op, let left, _) = expression.kind, op.isComparison {
            return PropertyEvaluator.subject(left)
        }
        return expression.text
    }

    /// The value of `subject` in `state`, nil where it names nothing.
    package func subjectValue(in state: Value, identity: StateDiff = StateDiff()) -> Value? {
        var node = expression
        if case .binary(let op, let left, _) = expression.kind, op.isComparison { node = left }
        return try? PropertyEvaluator(state: state, identity: identity).value(of: node)
    }

    /// Why `outcome` is not `.holds`, as one line ("balance is -1, expected >= 0"); nil
    /// when it holds.
    package func explain(_ outcome: Outcome) -> String? {
        switch outcome {
        case .holds: nil
        case .fails(let explanation): explanation
        case .invalid(let reason), .missing(let reason): reason
        }
    }

    /// What makes it false: a comparison's sides ("balance is -1, expected >= 0"; "size is
    /// 3, count(contents) is 2"), else what it read ("open is true, digits is \"12\"").
    private func explanation(_ evaluator: PropertyEvaluator) -> String {
        func shown(_ node: PropertyNode) -> String {
            (try? evaluator.evaluate(node))?.compact ?? "nothing"
        }
        if case .binary(let op, let left, let right) = expression.kind, op.isComparison {
            let actual = "\(PropertyEvaluator.subject(left)) is \(shown(left))"
            if case .literal(let literal) = right.kind {
                switch op {
                case .notEqual: return actual + ", expected anything else"
                case .equal: return actual + ", expected \(literal.compact)"
                default: return actual + ", expected \(op.rawValue) \(literal.compact)"
                }
            }
            return actual + " and \(right.text) is \(shown(right))"
        }
        var reads: [PropertyNode] = []
        Self.collectReads(expression, into: &reads)
        var seen: Set<String> = []
        var parts: [String] = []
        for node in reads where seen.insert(node.text).inserted && parts.count < 8 {
            guard let value = try? evaluator.evaluate(node) else { continue }
            parts.append("\(PropertyEvaluator.subject(node)) is \(value.compact)")
        }
        return parts.isEmpty ? "it is false" : parts.joined(separator: ", ")
    }

    /// The outermost paths, calls and `old(…)`s of `node`, in order.
    private static func collectReads(_ node: PropertyNode, into reads: inout [PropertyNode]) {
        switch node.kind {
        case .field, .index, .every, .call, .old, .accepted, .arguments, .state: reads.append(node)
        case .literal: break
        default: for child in node.kind.children { collectReads(child, into: &reads) }
        }
    }
}
