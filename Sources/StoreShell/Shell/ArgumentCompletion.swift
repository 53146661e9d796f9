import StoreHost
import StoreValue

/// What may come next in an action's arguments, from their shapes: reads the arguments
/// typed so far (strings skipped, records and lists tracked) to find where the cursor is —
/// after `label: ` (that field's values: enum cases, `true`, `null`, `{field: `), inside a
/// record (its fields not given yet), inside a list (its element's values) or among the
/// arguments (labels not given, and a positional argument's values).
enum ArgumentCompletion {
    /// One record, list or the argument list open at the cursor.
    private struct Frame {
        /// The fields of a record (or of the argument list), by label or position.
        var fields: [TypeShape.Field]
        /// A list's element, for a list.
        var element: TypeShape?
        /// The label typed whose value has not started, or nil.
        var label: String?
        /// Labels given so far.
        var given: [String] = []
        /// How many values were given so far (positional arguments).
        var position = 0

        /// The shape of the value that starts next here, if known.
        var next: TypeShape? {
            if let element { return element }
            if let label { return fields.first { $0.label == label }?.shape }
            return position < fields.count && fields[position].label == nil ? fields[position].shape : nil
        }
    }

    /// A line's action name as typed (keys and their quotes kept: `todos["a b"].toggle`)
    /// and the arguments after it (after a space or an opening parenthesis).
    static func split(_ line: String) -> (name: String, arguments: String) {
        let text = line.drop { $0 == " " || $0 == "\t" }
        var depth = 0
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case "[": depth += 1
            case "]": depth -= 1
            case " ", "\t", "(":
                if depth <= 0 { return (String(text[..<index]), String(text[text.index(after: index)...])) }
            default: break
            }
        }
        return (String(text), "")
    }

    /// The candidates after `text`, the arguments typed so far (after the action's name,
    /// up to the word being completed); `params` are the action's own (keys left out).
    static func candidates(params: [ParamDescriptor], after text: String) -> [String] {
        var frames = [Frame(fields: params.map { TypeShape.Field($0.label, $0.shape) })]
        var token = ""
        var inString = false
        var escaped = false
        for character in text {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"": inString = true
            case ":":
                if !token.isEmpty {
                    frames[frames.count - 1].label = token
                    frames[frames.count - 1].given.append(token)
                }
            case "{", "[":
                let opened = frames[frames.count - 1].next?.unwrapped
                frames.append(frame(for: opened, list: character == "["))
            case "}", "]":
                if frames.count > 1 { frames.removeLast() }
            case ",":
                frames[frames.count - 1].label = nil
                frames[frames.count - 1].position += 1
            default: break
            }
            token = character.isLetter || character.isNumber || character == "_" ? token + String(character) : ""
        }
        guard let frame = frames.last else { return [] }
        if frame.label != nil || frame.element != nil {
            return frame.next.map(values(completing:)) ?? []
        }
        let labels = frame.fields.compactMap(\.label).filter { !frame.given.contains($0) }
            .map { Value.label($0) + ": " }
        if frames.count == 1, frame.given.isEmpty, let next = frame.next { return labels + values(completing: next) }
        return labels
    }

    /// The frame a `{` or `[` opens for a value of `shape`: a record's fields, an enum's
    /// cases (each a field holding its payload record), a list's element.
    private static func frame(for shape: TypeShape?, list: Bool) -> Frame {
        switch (shape, list) {
        case (.list(let element)?, true): return Frame(fields: [], element: element)
        case (.record(_, let fields)?, false): return Frame(fields: fields)
        case (.choice(_, let cases)?, false):
            return Frame(
                fields: cases.filter { $0.rawValue == nil }.map { item in
                    let payload = item.payload.enumerated().map {
                        TypeShape.Field($0.element.label ?? "_\($0.offset)", $0.element.shape)
                    }
                    return TypeShape.Field(item.name, .record(name: nil, fields: payload))
                })
        default: return Frame(fields: [], element: list ? .any : nil)
        }
    }

    /// What a value of `shape` may start with: an enum's cases as written (`{name: {` for
    /// one with a payload), `true` and `false`, `null` for an optional, `{field: ` for a
    /// record's fields.
    static func values(completing shape: TypeShape) -> [String] {
        switch shape {
        case .bool: return ["true", "false"]
        case .optional(let wrapped): return values(completing: wrapped) + ["null"]
        case .choice(_, let cases):
            return cases.map {
                $0.rawValue != nil || $0.payload.isEmpty ? $0.written : "{" + Value.label($0.name) + ": {"
            }
        case .record(_, let fields): return fields.compactMap(\.label).map { "{" + Value.label($0) + ": " }
        default: return []
        }
    }
}
