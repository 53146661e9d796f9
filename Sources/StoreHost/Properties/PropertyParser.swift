package import StoreValue

/// Reads the property language (docs/shell/explore.md, "Properties"): `||`, `&&`, `!`, one
/// comparison, `+ -`, `* / %`, unary `-`, literals, paths with `[*]` and computed
/// `[EXPR]`, the functions, and in postconditions `old(…)`, `args` and `accepted`.
///
/// Every mistake is a `TextError` at its byte offset that says what was expected there.
/// Nesting is limited (`maxDepth`), so no input makes it, or what evaluates its result,
/// run out of stack.
package struct PropertyParser {
    /// Where the expression is checked: on a state (invariants, `:expect`, `:watch`), or
    /// after an action (postconditions, which may read `old(…)`, `args` and `accepted`).
    package enum Context: Sendable { case state, action }

    /// The deepest expression read: brackets, calls and operators all count.
    package static let maxDepth = 100

    private let bytes: [UInt8]
    private let context: Context
    private var index = 0

    private init(_ text: String, context: Context) {
        bytes = Array(text.utf8)
        self.context = context
    }

    /// The expression `text` holds, all of it.
    package static func parse(_ text: String, context: Context = .state) throws(TextError) -> PropertyNode {
        var parser = PropertyParser(text, context: context)
        parser.skipSpaces()
        guard !parser.atEnd else {
            throw TextError("expected an expression, e.g. balance >= 0 or size == count(items)", at: parser.index)
        }
        let node = try parser.or()
        parser.skipSpaces()
        guard parser.atEnd else {
            let found = parser.peekOperator()
            if let found, found.isComparison {
                throw TextError(
                    "expected '&&', '||' or the end, not a second comparison '\(found.rawValue)' (comparisons do not chain)",
                    at: parser.index)
            }
            throw TextError("expected an operator or the end, found \(parser.foundHere)", at: parser.index)
        }
        return node
    }

    // MARK: Operators, loosest first.

    private mutating func or() throws(TextError) -> PropertyNode {
        var left = try and()
        while skipSpaces(), take("||") {
            left = try make(.binary(.or, left, try and()), from: left.start)
        }
        return left
    }

    private mutating func and() throws(TextError) -> PropertyNode {
        var left = try not()
        while skipSpaces(), take("&&") {
            left = try make(.binary(.and, left, try not()), from: left.start)
        }
        return left
    }

    private mutating func not() throws(TextError) -> PropertyNode {
        skipSpaces()
        let start = index
        if current == UInt8(ascii: "!"), next != UInt8(ascii: "=") {
            index += 1
            try enter(start)
            defer { depth -= 1 }
            return try make(.not(try not()), from: start)
        }
        return try comparison()
    }

    private mutating func comparison() throws(TextError) -> PropertyNode {
        skipSpaces()
        let start = index
        // `== {…}`: today's whole-state form, the path left out.
        let left: PropertyNode
        if let op = peekOperator(), op.isComparison, bytes[..<start].allSatisfy(Self.isSpace) {
            left = PropertyNode(.state, start: start, end: start)
        } else {
            left = try sum()
        }
        skipSpaces()
        guard let op = peekOperator(), op.isComparison else { return left }
        index += op.rawValue.utf8.count
        skipSpaces()
        guard !atEnd else { throw TextError("expected a value after '\(op.rawValue)'", at: index) }
        return try make(.binary(op, left, try sum()), from: left.start)
    }

    private mutating func sum() throws(TextError) -> PropertyNode {
        var left = try product()
        while skipSpaces(), let op = peekOperator(), op == .plus || op == .minus {
            index += 1
            left = try make(.binary(op, left, try product()), from: left.start)
        }
        return left
    }

    private mutating func product() throws(TextError) -> PropertyNode {
        var left = try unary()
        while skipSpaces(), let op = peekOperator(), op == .times || op == .divide || op == .remainder {
            index += 1
            left = try make(.binary(op, left, try unary()), from: left.start)
        }
        return left
    }

    private mutating func unary() throws(TextError) -> PropertyNode {
        skipSpaces()
        let start = index
        guard current == UInt8(ascii: "-") else { return try postfix(try atom()) }
        if let next, Self.isDigit(next) {
            // A negative number is one literal (so the most negative integer can be written).
            var scanner = LiteralScanner(bytes: bytes, index: index)
            let value = try scanner.number()
            index = scanner.index
            return try postfix(try make(.literal(value), from: start))
        }
        index += 1
        try enter(start)
        defer { depth -= 1 }
        return try make(.negate(try unary()), from: start)
    }

    // MARK: Atoms and paths.

    private mutating func atom() throws(TextError) -> PropertyNode {
        skipSpaces()
        let start = index
        guard let byte = current else {
            throw TextError("expected a value, a path or '(' at the end", at: index)
        }
        switch byte {
        case UInt8(ascii: "("):
            index += 1
            try enter(start)
            defer { depth -= 1 }
            let inner = try or()
            skipSpaces()
            guard take(")") else {
                throw TextError(
                    "expected ')' to close the '(' at \(column(start)), found \(foundHere)", at: index)
            }
            return inner
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"):
            var scanner = LiteralScanner(bytes: bytes, index: index)
            let value = try scanner.literal()
            index = scanner.index
            return try make(.literal(value), from: start)
        case 48...57:
            var scanner = LiteralScanner(bytes: bytes, index: index)
            let value = try scanner.number()
            index = scanner.index
            return try make(.literal(value), from: start)
        case UInt8(ascii: "."):
            index += 1
            let state = PropertyNode(.state, start: start, end: index)
            // `.name`, `.[…]`: a path from the whole state written out.
            if let next = current, Self.isNameStart(next) {
                return try make(.field(state, try name()), from: start)
            }
            return state
        default:
            guard Self.isNameStart(byte) else {
                throw TextError("expected a value, a path or '(', found \(foundHere)", at: index)
            }
            let text = try name()
            return try word(text, at: start)
        }
    }

    /// What a bare word at the start of an atom is: a literal, a function call, `old(…)`,
    /// `args`, `accepted`, or the first field of a path.
    private mutating func word(_ word: String, at start: Int) throws(TextError) -> PropertyNode {
        switch word {
        case "true": return try make(.literal(.bool(true)), from: start)
        case "false": return try make(.literal(.bool(false)), from: start)
        case "null", "nil": return try make(.literal(.null), from: start)
        default: break
        }
        let afterWord = index
        skipSpaces()
        if current == UInt8(ascii: "(") {
            let open = index
            index += 1
            try enter(open)
            defer { depth -= 1 }
            if word == "old" {
                guard context == .action else {
                    throw TextError(
                        "old(…) reads the state before an action: it is for postconditions (--after ACTION EXPR)",
                        at: start)
                }
                let inner = try or()
                try close(open, of: "old")
                return try make(.old(inner), from: start)
            }
            guard let function = PropertyFunction(rawValue: word) else {
                throw TextError(
                    "unknown function '\(word)'; the functions: \(PropertyFunction.allCases.map(\.rawValue).joined(separator: ", ")), old",
                    at: start)
            }
            var arguments = [try or()]
            while skipSpaces(), take(",") { arguments.append(try or()) }
            try close(open, of: word)
            guard arguments.count == function.arity else {
                throw TextError(
                    "\(word) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), not \(arguments.count)",
                    at: start)
            }
            return try make(.call(function, arguments), from: start)
        }
        index = afterWord
        if context == .action {
            if word == "accepted" { return try make(.accepted, from: start) }
            if word == "args" { return try make(.arguments, from: start) }
        }
        let state = PropertyNode(.state, start: start, end: start)
        return try make(.field(state, word), from: start)
    }

    /// `.name`, `[*]` and `[EXPR]` after an atom, written with no space before them.
    private mutating func postfix(_ atom: PropertyNode) throws(TextError) -> PropertyNode {
        var node = atom
        while let byte = current {
            if byte == UInt8(ascii: ".") {
                index += 1
                guard let next = current, Self.isNameStart(next) else {
                    throw TextError("expected a field name after '.', found \(foundHere)", at: index)
                }
                node = try make(.field(node, try name()), from: node.start)
            } else if byte == UInt8(ascii: "[") {
                let open = index
                index += 1
                skipSpaces()
                if take("*") {
                    skipSpaces()
                    guard take("]") else { throw TextError("expected ']' after '[*', found \(foundHere)", at: index) }
                    node = try make(.every(node), from: node.start)
                    continue
                }
                try enter(open)
                let key = try or()
                depth -= 1
                skipSpaces()
                guard take("]") else {
                    throw TextError("expected ']' to close the '[' at \(column(open)), found \(foundHere)", at: index)
                }
                node = try make(.index(node, key), from: node.start)
            } else {
                break
            }
        }
        return node
    }

    private mutating func close(_ open: Int, of function: String) throws(TextError) {
        skipSpaces()
        guard take(")") else {
            throw TextError(
                "expected ',' or ')' to close \(function)( at \(column(open)), found \(foundHere)", at: index)
        }
    }

    // MARK: Bytes.

    private var depth = 0

    private mutating func enter(_ at: Int) throws(TextError) {
        depth += 1
        if depth > Self.maxDepth {
            throw TextError("the expression nests more than \(Self.maxDepth) levels deep here (the limit)", at: at)
        }
    }

    /// A node of `kind` read from `start` to here; an error when it nests too deep.
    private func make(_ kind: PropertyNode.Kind, from start: Int) throws(TextError) -> PropertyNode {
        let node = PropertyNode(kind, start: start, end: index)
        guard node.depth <= Self.maxDepth * 2 else {
            throw TextError(
                "the expression nests more than \(Self.maxDepth * 2) operations deep here (the limit)", at: start)
        }
        return node
    }

    private mutating func name() throws(TextError) -> String {
        var scanner = LiteralScanner(bytes: bytes, index: index)
        guard let name = scanner.identifier() else {
            throw TextError("expected a name, found \(foundHere)", at: index)
        }
        index = scanner.index
        return name
    }

    private var atEnd: Bool { index >= bytes.count }
    private var current: UInt8? { atEnd ? nil : bytes[index] }
    private var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

    /// Always true, so it can lead a `while` condition.
    @discardableResult private mutating func skipSpaces() -> Bool {
        while let byte = current, Self.isSpace(byte) { index += 1 }
        return true
    }

    private mutating func take(_ token: String) -> Bool {
        let token = Array(token.utf8)
        guard bytes.count - index >= token.count, Array(bytes[index..<index + token.count]) == token else {
            return false
        }
        index += token.count
        return true
    }

    /// The binary operator at the current byte, without reading it. A lone `=`, `&` or `|`
    /// is none: what follows reports it.
    private func peekOperator() -> PropertyOperator? {
        guard let byte = current else { return nil }
        let two = next.map { String(decoding: [byte, $0], as: UTF8.self) } ?? ""
        if let op = PropertyOperator(rawValue: two) { return op }
        if byte == UInt8(ascii: "!") { return nil }
        return PropertyOperator(rawValue: String(decoding: [byte], as: UTF8.self))
    }

    /// What is at the current byte, for messages: "'x'" or "the end".
    private var foundHere: String {
        guard !atEnd else { return "the end" }
        let character = String(decoding: bytes[index...].prefix(4), as: UTF8.self).first.map(String.init) ?? "?"
        switch character {
        case "=": return "'=' (equality is '==')"
        case "&": return "'&' (and is '&&')"
        case "|": return "'|' (or is '||')"
        default: return "'\(character)'"
        }
    }

    private func column(_ offset: Int) -> String { LiteralScanner(bytes: bytes, index: 0).column(offset) }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    private static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (65...90).contains(byte) || (97...122).contains(byte)
    }
}
