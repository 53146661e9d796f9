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
            if let start = lastWord("one of ", in: text) {
                let list = text[start...]
                if let reading = readSet(
                    list.hasSuffix(")") && opensWithParenthesis(text, before: start)
                        ? list.dropLast() : list)
                {
                    return reading
                }
            }
            if let start = lastWord("in ", in: text) {
                return readRange(text[start...])
            }
            return .none
        }

        /// Where the text after the last `word` outside quotes begins, when a space, a
        /// comma or a '(' (or nothing) is before it: `in` in `within 1...4` is no domain.
        private static func lastWord(_ word: String, in text: Substring) -> Substring.Index? {
            var found: Substring.Index?
            var quoted = false
            var index = text.startIndex
            while index < text.endIndex {
                if text[index] == "\"" { quoted.toggle() }
                if !quoted, text[index...].hasPrefix(word),
                    index == text.startIndex || [" ", ",", "("].contains(text[text.index(before: index)])
                {
                    found = text.index(index, offsetBy: word.count)
                }
                index = text.index(after: index)
            }
            return found
        }

        private static func opensWithParenthesis(_ text: Substring, before start: Substring.Index) -> Bool {
            let before = text[..<start].dropLast("one of ".count)
            return before.last == "("
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

        /// `"a", "b"`, `1, 2, 3` or `0.5, 1.5` (the last may follow `or`): every item a
        /// literal of one kind, else no domain.
        private static func readSet(_ text: Substring) -> Reading? {
            var items = splitItems(text)
            guard !items.isEmpty else { return nil }
            if items.count > 1, items[items.count - 1].hasPrefix("or ") {
                items[items.count - 1] = items[items.count - 1].dropFirst(3).trimmingSpaces
            }
            let literals = items.filter { $0.hasPrefix("\"") || Double($0) != nil }
            guard literals.count == items.count else { return nil }
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
            return .mistake("mix text and numbers (`\(text)`)")
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

        /// What a parameter of type `type` (its text) makes of this domain: the domain it
        /// takes (whole numbers as numbers for a `Double`), nil for a type it says nothing
        /// about (an enum, a typealias: the doc is only prose there), or why it cannot be.
        package func fitted(toType type: String) -> Result<ParamDomain, Mistake>? {
            var base = type.filter { $0 != " " }
            if base.hasSuffix("?") { base.removeLast() }
            if base.hasPrefix("Swift.") { base.removeFirst("Swift.".count) }
            let bounds: [String: ClosedRange<Int64>] = [
                "Int": .min ... .max, "Int64": .min ... .max, "UInt": 0 ... .max, "UInt64": 0 ... .max,
                "Int8": -128...127, "Int16": -32_768...32_767, "Int32": -2_147_483_648...2_147_483_647,
                "UInt8": 0...255, "UInt16": 0...65_535, "UInt32": 0...4_294_967_295,
            ]
            let fractional = ["Double", "Float", "CGFloat"].contains(base)
            switch self {
            case .range(let low, let high):
                if fractional { return .failure(Mistake("need a whole-number parameter, not \(type)")) }
                guard let own = bounds[base] else {
                    return base == "String" ? .failure(Mistake("need a whole-number parameter, not \(type)")) : nil
                }
                guard own.contains(low), own.contains(high) else {
                    return .failure(Mistake("go past what \(base) holds (\(own.lowerBound)...\(own.upperBound))"))
                }
                return .success(self)
            case .wholeNumbers(let numbers):
                if fractional { return .success(.numbers(numbers.map(Double.init))) }
                guard let own = bounds[base] else {
                    return base == "String" ? .failure(Mistake("need a whole-number parameter, not \(type)")) : nil
                }
                guard numbers.allSatisfy(own.contains) else {
                    return .failure(Mistake("go past what \(base) holds (\(own.lowerBound)...\(own.upperBound))"))
                }
                return .success(self)
            case .numbers:
                if fractional { return .success(self) }
                return bounds[base] != nil || base == "String"
                    ? .failure(Mistake("need a Double or Float parameter, not \(type)")) : nil
            case .strings:
                if base == "String" { return .success(self) }
                return bounds[base] != nil || fractional
                    ? .failure(Mistake("need a String parameter, not \(type)")) : nil
            }
        }

        /// Whether a default argument's literal text (`3`, `"m"`) is one of this domain's values.
        package func admits(defaultText text: String) -> Bool {
            switch self {
            case .range(let low, let high): return Int64(text).map { (low...high).contains($0) } ?? true
            case .wholeNumbers(let numbers): return Int64(text).map(numbers.contains) ?? true
            case .numbers(let numbers): return Double(text).map(numbers.contains) ?? true
            case .strings(let strings):
                guard text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 else { return true }
                return strings.contains(String(text.dropFirst().dropLast()))
            }
        }

        /// Why a domain cannot be one.
        package struct Mistake: Error, Equatable {
            package let text: String
            init(_ text: String) { self.text = text }
        }

        /// The call the generated schema appends to the parameter: `.within(1...4)`,
        /// `.oneOf(["s", "m"])`.
        package var modifier: String {
            switch self {
            case .range(let low, let high): ".within(\(low) ... \(high))"
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
