package import StoreValue

/// Values cut to a readable size for people: the Elm debugger shows 100 items at a time
/// for the same reason. Files and programs (`--format json`, the journal, exports) always
/// get whole values.
extension Value {
    /// Items of a list or record shown before "… N more".
    package static let shownItems = 100
    /// Characters of a string shown before "… (N more characters)".
    package static let shownCharacters = 500

    /// `compact`, with lists, records and payloads longer than `items` elements and strings
    /// longer than `characters` cut short, saying how much was left out.
    package func brief(items: Int = Value.shownItems, characters: Int = Value.shownCharacters) -> String {
        switch self {
        case .string(let text):
            guard text.count > characters else { return compact }
            return Self.quoted(String(text.prefix(characters)))
                + "… (\(Self.count(text.count - characters)) more characters)"
        case .array(let values):
            return "[" + Self.cut(values.map { $0.brief(items: items, characters: characters) }, to: items) + "]"
        case .record(_, let fields):
            return "{"
                + Self.cut(
                    fields.map {
                        "\(Self.label($0.label ?? "")): \($0.value.brief(items: items, characters: characters))"
                    }, to: items) + "}"
        case .enumCase(let name, let payload):
            guard !payload.isEmpty else { return compact }
            return "." + name + "("
                + Self.cut(
                    payload.map {
                        ($0.label.map { Self.label($0) + ": " } ?? "")
                            + $0.value.brief(items: items, characters: characters)
                    }, to: items) + ")"
        default:
            return compact
        }
    }

    private static func cut(_ parts: [String], to items: Int) -> String {
        guard parts.count > items else { return parts.joined(separator: ", ") }
        return parts.prefix(items).joined(separator: ", ") + ", … \(count(parts.count - items)) more"
    }

    /// 9990 → "9,990".
    static func count(_ number: Int) -> String {
        let digits = String(number)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return out
    }
}
