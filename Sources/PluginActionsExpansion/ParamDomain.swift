// Built with the MacrosFromSource trait or Shell (the default), as PluginActionsMacro.swift.
#if MacrosFromSource || Shell
    /// The values a parameter takes, said at the end of its doc line: `in 1...4` or
    /// `in 0..<10` for whole numbers, `one of "s", "m", "l"` (or whole numbers, or
    /// numbers) for a set. The host refuses other values at their column, completion offers
    /// the set, and explore draws within it (a range's edges most often):
    ///
    /// ```swift
    /// /// Presses a button.
    /// /// - Parameter digit: the button, in 1...4
    /// case press(digit: Int)
    /// ```
    ///
    /// A doc that only looks like one (`one of the buttons`) says no domain; one that is a
    /// domain but cannot be (`in 4...1`, a range on a `String`) is a compile error.
    package enum ParamDomain: Equatable {
        case range(Int64, Int64)
        case strings([String])
        case wholeNumbers([Int64])
        case numbers([Double])

        /// What a doc line says: no domain, a domain, or a domain with a mistake.
        package enum Reading: Equatable {
            case none
            case domain(ParamDomain)
            case mistake(String)
        }

        /// The domain at the end of `doc`, if it ends with one.
        package static func read(_ doc: String) -> Reading {
            var text = Substring(doc).trimmingSpaces
            if text.hasSuffix(".") { text = text.dropLast() }
            if let range = text.ranges(of: "one of ").last {
                let list = text[range.upperBound...]
                if let reading = readSet(list) { return reading }
            }
            if let range = text.ranges(of: "in ").last,
                range.lowerBound == text.startIndex
                    || [" ", ",", "("].contains(text[text.index(before: range.lowerBound)])
            {
                return readRange(text[range.upperBound...])
            }
            return .none
        }

        /// `LOW...HIGH` or `LOW..<HIGH`; not numbers at all is no domain.
        private static func readRange(_ text: Substring) -> Reading {
            let body = text.hasSuffix(")") ? text.dropLast() : text
            for (separator, closed) in [("...", true), ("..<", false)] {
                guard let split = body.firstRange(of: separator) else { continue }
                guard let low = Int64(body[..<split.lowerBound].trimmingSpaces),
                    let high = Int64(body[split.upperBound...].trimmingSpaces)
                else { return .none }
                guard closed ? low <= high : low < high else {
                    return .mistake("are an empty range (`\(body)`): write the lowest value first")
                }
                return .domain(.range(low, closed ? high : high - 1))
            }
            return .none
        }

        /// `"a", "b"`, `1, 2, 3` or `0.5, 1.5`: every item a literal of one kind, else no domain.
        private static func readSet(_ text: Substring) -> Reading? {
            let items = splitItems(text)
            guard !items.isEmpty else { return nil }
            if items.allSatisfy({ $0.hasPrefix("\"") }) {
                var strings: [String] = []
                for item in items {
                    guard item.count >= 2, item.hasSuffix("\""), !item.dropFirst().dropLast().contains("\"") else {
                        return nil
                    }
                    strings.append(String(item.dropFirst().dropLast()))
                }
                return distinct(strings).map { .domain(.strings($0)) } ?? .mistake("name a value twice")
            }
            let whole = items.compactMap { Int64($0) }
            if whole.count == items.count {
                return distinct(whole).map { .domain(.wholeNumbers($0)) } ?? .mistake("name a value twice")
            }
            let numbers = items.compactMap { Double($0) }.filter(\.isFinite)
            if numbers.count == items.count {
                return distinct(numbers).map { .domain(.numbers($0)) } ?? .mistake("name a value twice")
            }
            let quoted = items.filter { $0.hasPrefix("\"") }.count
            return quoted > 0 ? .mistake("mix text and numbers (`\(text)`)") : nil
        }

        /// Items split at commas outside quotes.
        private static func splitItems(_ text: Substring) -> [Substring] {
            var items: [Substring] = []
            var start = text.startIndex
            var quoted = false
            var index = text.startIndex
            while index < text.endIndex {
                if text[index] == "\"" { quoted.toggle() }
                if text[index] == ",", !quoted {
                    items.append(text[start..<index].trimmingSpaces)
                    start = text.index(after: index)
                }
                index = text.index(after: index)
            }
            items.append(text[start...].trimmingSpaces)
            return items.contains(where: \.isEmpty) ? [] : items
        }

        private static func distinct<T: Hashable>(_ items: [T]) -> [T]? {
            Set(items).count == items.count ? items : nil
        }

        /// Why this domain cannot be one of a parameter of type `type` (its text), or nil
        /// when it can.
        package func mismatch(withType type: String) -> String? {
            var base = type.filter { $0 != " " }
            if base.hasSuffix("?") { base.removeLast() }
            if base.hasPrefix("Swift.") { base.removeFirst("Swift.".count) }
            let whole = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
            let fractional = ["Double", "Float", "CGFloat"]
            switch self {
            case .range, .wholeNumbers:
                return whole.contains(base) ? nil : "need a whole-number parameter, not \(type)"
            case .numbers:
                return fractional.contains(base) ? nil : "need a Double or Float parameter, not \(type)"
            case .strings:
                return base == "String" ? nil : "need a String parameter, not \(type)"
            }
        }

        /// The call the generated schema appends to the parameter: `.within(1...4)`,
        /// `.oneOf(["s", "m"])`.
        package var modifier: String {
            switch self {
            case .range(let low, let high): ".within(\(low)...\(high))"
            case .strings(let strings):
                ".oneOf([" + strings.map { "\"\($0.escapedForSwift)\"" }.joined(separator: ", ") + "])"
            case .wholeNumbers(let numbers):
                ".oneOf([" + numbers.map { "\($0)" }.joined(separator: ", ") + "] as [Int64])"
            case .numbers(let numbers): ".oneOf([" + numbers.map { "\($0)" }.joined(separator: ", ") + "] as [Double])"
            }
        }
    }

    extension Substring {
        fileprivate var trimmingSpaces: Substring {
            var text = self
            while text.first == " " { text = text.dropFirst() }
            while text.last == " " { text = text.dropLast() }
            return text
        }
    }

    extension String {
        fileprivate var escapedForSwift: String {
            var escaped = ""
            for character in self {
                switch character {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                default: escaped.append(character)
                }
            }
            return escaped
        }
    }
#endif
