// The action syntax: `increment`, `setCount 5`, `setUser name: "bo", age: 3`,
// `child.increment`, `todos["a"].toggle`. Reading (ActionCall.parse) and writing
// (ActionTextWriter) sit side by side; the literals in it are Literal.swift's.

/// An action as typed: `setUser name: "bo", age: 3`, `child.increment`,
/// `todos["a"].toggle`, `setCount(5)`.
public struct ActionCall: Equatable, Sendable {
    /// The action's schema name: keys replaced by `[]` (`todos[].toggle`).
    public let name: String
    /// Keys written in the name, in order; they become the first arguments.
    public let keys: [Value]
    /// Byte offset of each key in the text.
    public let keyOffsets: [Int]
    /// The arguments after the name, in the order written.
    public let arguments: [Argument]
    /// Byte range of the name in the text.
    public let nameRange: Range<Int>

    /// One argument: `age: 3`, or `5` with no label.
    public struct Argument: Equatable, Sendable {
        /// nil for a positional argument.
        public let label: String?
        /// The literal, read.
        public let value: Value
        /// Byte offset of the argument (its label, if any) in the text.
        public let offset: Int
        /// Byte offset of its value in the text.
        public let valueOffset: Int
    }

    /// The text's bytes, in which the offsets count.
    package let source: [UInt8]

    /// The byte offset of the part of the value at `valueOffset` that `steps` lead to
    /// (`LiteralScanner.offset`), or `valueOffset` when the text does not hold it.
    package func offset(of steps: [ShapePath.Step], inValueAt valueOffset: Int) -> Int {
        LiteralScanner.offset(of: steps, inLiteralAt: valueOffset, of: source) ?? valueOffset
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
                throw TextError(
                    scanner.atEnd && name.isEmpty ? "expected an action name" : "expected a name after '.'",
                    at: scanner.index)
            }
            name += part
            while scanner.current == UInt8(ascii: "[") {
                let open = scanner.index
                scanner.index += 1
                scanner.skipSpaces()
                keyOffsets.append(scanner.index)
                keys.append(try scanner.literal())
                scanner.skipSpaces()
                guard scanner.current == UInt8(ascii: "]") else {
                    throw TextError("the '[' at \(scanner.column(open)) is not closed", at: scanner.index)
                }
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
            throw TextError(
                "unexpected '\(Character(Unicode.Scalar(next)))' after the action name; put a space before arguments",
                at: scanner.index)
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
                scanner.skipSpaces()
                let valueOffset = scanner.index
                arguments.append(
                    Argument(label: label, value: try scanner.literal(), offset: offset, valueOffset: valueOffset))
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
            throw TextError(
                arguments.isEmpty
                    ? "unexpected '\(Character(Unicode.Scalar(extra)))' after the action"
                    : "unexpected '\(Character(Unicode.Scalar(extra)))'; separate arguments with ','", at: scanner.index
            )
        }
        return ActionCall(
            name: name, keys: keys, keyOffsets: keyOffsets, arguments: arguments, nameRange: nameRange,
            source: scanner.bytes)
    }
}

/// Writes an action as `ActionCall.parse` reads it, a piece at a time: the parts of its
/// name with their keys, then its arguments. `child` and `increment` make
/// `child.increment`; `todos`, the key "t1" and `toggle` make `todos["t1"].toggle`;
/// `setUser` with the arguments name "bo" and age 3 makes `setUser name: "bo", age: 3`.
public struct ActionTextWriter: Sendable {
    @usableFromInline var written = ""
    @usableFromInline var hasName = false
    @usableFromInline var hasArguments = false

    /// A writer with nothing written.
    @inlinable
    public init() {}

    /// The action as written so far.
    @inlinable
    public var text: String { written }

    /// Appends a part of the name, after a '.' unless it is the first.
    @inlinable
    public mutating func appendName(_ part: Substring) {
        if hasName { written += "." }
        written += part
        hasName = true
    }

    /// Appends a part of the name, after a '.' unless it is the first.
    @inlinable
    public mutating func appendName(_ part: String) {
        appendName(part[...])
    }

    /// Appends a name as a schema spells it (`todos[].toggle`, as `ActionCall.name` has
    /// it) with a part's `[]` filled by the next of `keys`: `todos["t1"].toggle`. A `[]`
    /// left when the keys run out stays as it is. Returns how many keys it used.
    @inlinable
    @discardableResult
    public mutating func appendName(_ schemaName: String, keys: [Value]) -> Int {
        var used = 0
        for part in schemaName.split(separator: ".", omittingEmptySubsequences: false) {
            if part.hasSuffix("[]"), used < keys.count {
                appendName(part.dropLast(2))
                appendKey(keys[used])
                used += 1
            } else {
                appendName(part)
            }
        }
        return used
    }

    /// Appends a key to the last part of the name: `["t1"]`.
    @inlinable
    public mutating func appendKey(_ key: Value) {
        written += "["
        written += key.compact
        written += "]"
    }

    /// Appends an argument, once the name is written: a space before the first, ", "
    /// between them, and `label: ` before the value when it has a label.
    @inlinable
    public mutating func appendArgument(_ value: Value, label: String?) {
        written += hasArguments ? ", " : " "
        if let label {
            written += label
            written += ": "
        }
        written += value.compact
        hasArguments = true
    }
}
