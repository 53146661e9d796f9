package import StoreValue

/// A binary operator of the property language.
package enum PropertyOperator: String, Sendable, CaseIterable {
    case or = "||", and = "&&"
    case equal = "==", notEqual = "!=", lessOrEqual = "<=", greaterOrEqual = ">=", less = "<", greater = ">"
    case plus = "+", minus = "-", times = "*", divide = "/", remainder = "%"

    /// How tightly it binds: 1 `||`, 2 `&&`, 4 comparisons, 5 `+ -`, 6 `* / %` (3 is `!`,
    /// which takes a comparison; 7 unary `-`).
    package var level: Int {
        switch self {
        case .or: 1
        case .and: 2
        case .equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater: 4
        case .plus, .minus: 5
        case .times, .divide, .remainder: 6
        }
    }

    package var isComparison: Bool { level == 4 }
}

/// A function of the property language (`count(items)`), with how many arguments it takes.
package enum PropertyFunction: String, Sendable, CaseIterable {
    case count, sum, min, max, unique, sorted, contains, keys, all, any, length

    package var arity: Int { self == .contains ? 2 : 1 }
}

/// One node of a parsed property expression (`size == count(contents)`), with the byte
/// range of the text it was read from and its depth (nesting is bounded, so evaluating
/// and writing it back never runs out of stack).
package struct PropertyNode: Sendable, Equatable {
    package indirect enum Kind: Sendable, Equatable {
        /// A literal: a number, "text", true, false, null, `[…]` or `{…}`.
        case literal(Value)
        /// `.`: the whole state, where every path starts.
        case state
        /// `base.name` (a record's field, a dictionary's key, a list element by id).
        case field(PropertyNode, String)
        /// `base[EXPR]`: an index, a key, or a list element's id, computed.
        case index(PropertyNode, PropertyNode)
        /// `base[*]`: every element of a list or value of a dictionary, as a list that
        /// operators map over.
        case every(PropertyNode)
        /// `args`: the arguments of the action just taken (postconditions).
        case arguments
        /// `accepted`: whether the model accepted the action just taken (postconditions).
        case accepted
        /// `old(EXPR)`: EXPR read in the state before the action (postconditions).
        case old(PropertyNode)
        case call(PropertyFunction, [PropertyNode])
        /// `!EXPR`.
        case not(PropertyNode)
        /// `-EXPR`.
        case negate(PropertyNode)
        case binary(PropertyOperator, PropertyNode, PropertyNode)
    }

    package let kind: Kind
    /// Byte offsets of the text it was read from (not compared).
    package let start: Int
    package let end: Int
    package let depth: Int

    package init(_ kind: Kind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
        depth = 1 + kind.children.map(\.depth).reduce(0, Swift.max)
    }

    /// Equal when the expressions are, wherever they were written.
    package static func == (lhs: PropertyNode, rhs: PropertyNode) -> Bool { lhs.kind == rhs.kind }

    /// Whether it reads the action just taken (`old`, `args`, `accepted`) anywhere.
    package var readsAction: Bool {
        switch kind {
        case .arguments, .accepted, .old: true
        default: kind.children.contains { $0.readsAction }
        }
    }

    /// The node, written so that it reads back as itself: `size == count(contents)`.
    package var text: String { text(within: 0) }

    /// Written where an operand of binding `level` is expected, parenthesised when it binds
    /// looser: 1 `||`, 2 `&&`, 3 `!`, 4 comparisons, 5 `+ -`, 6 `* / %`, 7 unary `-`, 8 a
    /// path's base.
    private func text(within level: Int) -> String {
        func parenthesised(_ written: String, own: Int) -> String { level > own ? "(" + written + ")" : written }
        func base(_ node: PropertyNode) -> String {
            switch node.kind {
            case .state: "."
            case .literal(let value): "(" + value.compact + ")"
            default: node.text(within: 8)
            }
        }
        switch kind {
        case .literal(let value): return value.compact
        case .state: return "."
        case .field(let of, let name):
            guard Value.isBareLabel(name) else { return base(of) + "[" + Value.quoted(name) + "]" }
            if of.kind == .state { return Self.reserved.contains(name) ? "." + name : name }
            return base(of) + "." + name
        case .index(let of, let index): return base(of) + "[" + index.text + "]"
        case .every(let of): return base(of) + "[*]"
        case .arguments: return "args"
        case .accepted: return "accepted"
        case .old(let inner): return "old(" + inner.text + ")"
        case .call(let function, let arguments):
            return function.rawValue + "(" + arguments.map(\.text).joined(separator: ", ") + ")"
        case .not(let inner):
            // `!` takes a comparison: `!a == b` is `!(a == b)`.
            return parenthesised("!" + inner.text(within: 3), own: 3)
        case .negate(let inner):
            // `-5` reads as the literal; the negation of one is written `-(5)`.
            if case .literal(let value) = inner.kind { return parenthesised("-(" + value.compact + ")", own: 7) }
            return parenthesised("-" + inner.text(within: 7), own: 7)
        case .binary(let op, let left, let right):
            // Left-associative: a right operand of the same binding is parenthesised;
            // comparisons do not chain, so both their operands bind tighter.
            let own = op.level
            let written =
                left.text(within: op.isComparison ? own + 1 : own) + " " + op.rawValue + " "
                + right.text(within: own + 1)
            return parenthesised(written, own: own)
        }
    }

    /// Names a path cannot start with bare: they mean something else.
    static let reserved: Set<String> = ["true", "false", "null", "nil", "args", "accepted"]
}

extension PropertyNode.Kind {
    /// The nodes it is made of.
    package var childNodes: [PropertyNode] { children }

    var children: [PropertyNode] {
        switch self {
        case .literal, .state, .arguments, .accepted: []
        case .field(let base, _), .every(let base): [base]
        case .index(let base, let index): [base, index]
        case .old(let inner), .not(let inner), .negate(let inner): [inner]
        case .call(_, let arguments): arguments
        case .binary(_, let left, let right): [left, right]
        }
    }
}
