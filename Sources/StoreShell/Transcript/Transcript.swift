import Foundation
import StoreHost

/// A recorded shell session used as a test (cram and doctest are the models):
///
///     # a comment
///     > setCount 5
///     setCount 5: state changed
///       ~ count: 0 → 5
///     > :state
///     count: \d+ (re)
///
/// `> ` lines are fed to the shell as typed (`... ` lines continue a statement); the
/// lines after them, up to the next input or comment, are the expected output. An input
/// that reports an error fails the transcript unless it is written `!> ` (an input
/// expected to fail), so a recording of a broken setup can never pass. An
/// expected line ending in ` (re)` is a regular expression for the whole line, one ending
/// in ` (glob)` a glob (`*` any text, `?` one character). An input whose only expected
/// line is `(output not compared)` may print anything and may be refused, but must not
/// crash or hang its model: `storesh explore` writes its failing step so, since a fix
/// changes what that step prints (or refuses it). Blank lines at the end of a block only
/// separate blocks.
package struct Transcript: Equatable, Sendable {
    /// One line of the file, classified.
    package enum Item: Equatable, Sendable {
        case comment(String)
        case blank
        /// A statement: its lines as written (prefixes removed) and the file line it starts on.
        case input([String], line: Int)
        case output(String, line: Int)
    }

    package var items: [Item]
    /// The lines of inputs written `!> `: each must report an error.
    package var expectedFailures: Set<Int>
    /// The file began with a UTF-8 byte order mark (some editors write one): it is not part
    /// of the first line, and `text` writes it back.
    package var byteOrderMark: Bool

    /// A transcript of `items`.
    package init(items: [Item], expectedFailures: Set<Int> = [], byteOrderMark: Bool = false) {
        self.items = items
        self.expectedFailures = expectedFailures
        self.byteOrderMark = byteOrderMark
    }

    /// Reads a transcript's text, one item a line.
    package static func parse(_ text: String) -> Transcript {
        var items: [Item] = []
        var failing: Set<Int> = []
        let byteOrderMark = text.unicodeScalars.first == "\u{FEFF}"
        let body = byteOrderMark ? String(text.unicodeScalars.dropFirst()) : text
        var lines = TextLines.split(body).map(String.init)
        if lines.last == "" { lines.removeLast() }
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if line.hasPrefix("> ") || line == ">" {
                items.append(.input([String(line.dropFirst(2))], line: number))
            } else if line.hasPrefix("!> ") {
                items.append(.input([String(line.dropFirst(3))], line: number))
                failing.insert(number)
            } else if line.hasPrefix("... "), case .input(let statement, let start)? = items.last {
                items[items.count - 1] = .input(statement + [String(line.dropFirst(4))], line: start)
            } else if line.hasPrefix("#") {
                items.append(.comment(line))
            } else if line.isEmpty {
                items.append(.blank)
            } else {
                items.append(.output(line, line: number))
            }
        }
        return Transcript(items: items, expectedFailures: failing, byteOrderMark: byteOrderMark)
    }

    /// The blocks: each input with its expected output lines (trailing blanks dropped).
    package var blocks: [(input: [String], line: Int, expected: [(text: String, line: Int)], expectsError: Bool)] {
        var blocks: [(input: [String], line: Int, expected: [(text: String, line: Int)], expectsError: Bool)] = []
        var pendingBlanks: [Int] = []
        for (position, item) in items.enumerated() {
            switch item {
            case .input(let statement, let line):
                blocks.append((statement, line, [], expectedFailures.contains(line)))
                pendingBlanks = []
            case .output(let text, let line):
                guard !blocks.isEmpty else { continue }
                for blank in pendingBlanks { blocks[blocks.count - 1].expected.append(("", blank)) }
                pendingBlanks = []
                blocks[blocks.count - 1].expected.append((text, line))
            case .blank:
                pendingBlanks.append(lineNumber(ofItemAt: position))
            case .comment:
                pendingBlanks = []
            }
        }
        return blocks
    }

    private func lineNumber(ofItemAt position: Int) -> Int {
        var line = 0
        for item in items[...position] {
            if case .input(let statement, _) = item { line += statement.count } else { line += 1 }
        }
        return line
    }

    /// The file text.
    package var text: String {
        (byteOrderMark ? "\u{FEFF}" : "")
            + items.map { item in
                switch item {
                case .comment(let text): text
                case .blank: ""
                case .input(let statement, let line):
                    statement.enumerated().map {
                        ($0.offset == 0 ? (expectedFailures.contains(line) ? "!> " : "> ") : "... ") + $0.element
                    }.joined(separator: "\n")
                case .output(let text, _): text
                }
            }.joined(separator: "\n") + "\n"
    }

    /// The one expected line of an input whose output is not compared.
    package static let outputNotCompared = "(output not compared)"

    /// Whether actual output `line` matches expected line `pattern`.
    package static func matches(_ line: String, _ pattern: String) -> Bool {
        if pattern.hasSuffix(" (re)") {
            let expression = String(pattern.dropLast(5))
            guard let regex = try? NSRegularExpression(pattern: "^(?:" + expression + ")$") else { return false }
            return regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        if pattern.hasSuffix(" (glob)") {
            return glob(Array(pattern.dropLast(7)), Array(line))
        }
        return line == pattern
    }

    private static func glob(_ pattern: [Character], _ text: [Character]) -> Bool {
        // Iterative wildcard match with backtracking to the last '*'.
        var p = 0
        var t = 0
        var star = -1
        var mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "\\", p + 1 < pattern.count, pattern[p + 1] == text[t] {
                p += 2
                t += 1
            } else if p < pattern.count, pattern[p] == "?" || (pattern[p] == text[t] && pattern[p] != "*") {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
