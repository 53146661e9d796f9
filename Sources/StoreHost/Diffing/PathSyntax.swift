package import StoreValue

/// State paths: `todos[0].title`, `counters["a"]`, `.` for the whole state.
package enum PathSyntax {
    package enum Segment: Equatable, Sendable {
        case field(String)
        case index(Int)
    }

    /// `segments` written as a path (`todos[0].title`, `counters["a b"]`); `.` for none.
    package static func text(of segments: [Segment]) -> String {
        var path = ""
        for segment in segments {
            switch segment {
            case .field(let label): path = append(label, to: path)
            case .index(let index): path += "[\(index)]"
            }
        }
        return path.isEmpty ? "." : path
    }

    package static func append(_ label: String, to path: String) -> String {
        if Value.isBareLabel(label) {
            return path.isEmpty ? label : path + "." + label
        }
        return path + "[" + Value.string(label).compact + "]"
    }

    /// Reads a path: field names joined by '.', `[N]` indexes and `["key"]` keys; `.` (or
    /// nothing) is the whole state. Every mistake is an error at its byte offset.
    package static func parse(_ text: String) throws(TextError) -> [Segment] {
        let bytes = Array(text.utf8)
        var segments: [Segment] = []
        var index = 0
        if bytes == [UInt8(ascii: ".")] || bytes.isEmpty { return [] }
        var afterDot = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !segments.isEmpty else { throw TextError("a path starts with a field name", at: index) }
                guard !afterDot else { throw TextError("expected a field name between the dots", at: index) }
                afterDot = true
                index += 1
                continue
            }
            if byte == UInt8(ascii: "[") {
                guard !afterDot else { throw TextError("expected a field name after '.', not '['", at: index) }
                let start = index
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    var scanner = LiteralScanner(bytes: bytes, index: index)
                    segments.append(.field(try scanner.string()))
                    index = scanner.index
                } else {
                    let digits = bytes[index...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                    guard !digits.isEmpty else {
                        throw TextError("expected an index or a quoted key after '['", at: index)
                    }
                    guard let number = Int(String(decoding: digits, as: UTF8.self)) else {
                        throw TextError("index \(String(decoding: digits, as: UTF8.self)) is too large", at: index)
                    }
                    index += digits.count
                    segments.append(.index(number))
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "]") else {
                    let column = String(decoding: bytes[..<start], as: UTF8.self).count + 1
                    throw TextError("the '[' at column \(column) is not closed", at: index)
                }
                index += 1
                continue
            }
            guard afterDot || segments.isEmpty else {
                throw TextError("expected '.' or '[' before a field name", at: index)
            }
            let name = bytes[index...].prefix {
                $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || (48...57).contains($0) || (65...90).contains($0)
                    || (97...122).contains($0)
            }
            guard !name.isEmpty else {
                let character = String(decoding: bytes[index...].prefix(4), as: UTF8.self).first.map(String.init) ?? "?"
                throw TextError("unexpected '\(character)' in path", at: index)
            }
            segments.append(.field(String(decoding: name, as: UTF8.self)))
            index += name.count
            afterDot = false
        }
        if afterDot { throw TextError("expected a field name after the last '.'", at: index) }
        return segments
    }

    /// The part of `value` at `path`, or a problem naming the first segment not found.
    /// List elements are found by key through `identity`'s fields.
    package static func lookup(_ path: String, in value: Value, identity: StateDiff = StateDiff()) throws(TextError)
        -> Value
    {
        let segments = try parse(path)
        var current = value
        var walked = ""
        for segment in segments {
            switch segment {
            case .field(let label):
                if case .array(let items) = current {
                    // A keyed path into a list: the element whose id is the key, as
                    // `todos["t1"].toggle` names it in actions.
                    guard let item = items.first(where: { identity.identity($0) == label }) else {
                        let ids = items.prefix(10).compactMap { identity.identity($0).map(Value.quoted) }
                        throw TextError(
                            "no element with id \(Value.quoted(label)) in \(walked.isEmpty ? "the state" : walked)"
                                + (ids.isEmpty
                                    ? " (its elements have no id field)"
                                    : "; ids: \(ids.joined(separator: ", "))\(items.count > 10 ? ", …" : "")"),
                            at: 0)
                    }
                    walked += "[\(Value.quoted(label))]"
                    current = item
                    continue
                }
                guard let next = current[label] else {
                    let known = current.children.compactMap(\.label)
                    throw TextError(
                        "no field '\(label)' at \(walked.isEmpty ? "the top level" : walked)"
                            + (known.isEmpty ? "" : "; fields: \(known.joined(separator: ", "))"), at: 0)
                }
                walked = append(label, to: walked)
                current = next
            case .index(let index):
                guard case .array(let items) = current else {
                    throw TextError(
                        "\(walked.isEmpty ? "the state" : walked) is \(current.kindName), not an array", at: 0)
                }
                guard items.indices.contains(index) else {
                    throw TextError("index \(index) is out of range: \(walked) has \(items.count) items", at: 0)
                }
                walked += "[\(index)]"
                current = items[index]
            }
        }
        return current
    }
}
