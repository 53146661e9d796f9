/// What a line of shell input is, decided by its first byte that is not a space or a tab:
/// none makes a blank line, `#` a comment, `:` a command, anything else an action.
///
/// The one place that decides it: the shell core runs a line by its kind, and storesh's
/// script runner groups action lines into batches and gives up an unclosed statement
/// when the next line is a command.
package enum LineKind: Sendable, Equatable {
    /// Nothing but spaces and tabs (or nothing at all).
    case blank
    /// Starts with `#`.
    case comment
    /// Starts with `:` (a shell command such as `:state`).
    case command
    /// Anything else: an action for the current model.
    case action

    /// The kind of `line`.
    @inlinable
    package static func of<Line: StringProtocol>(_ line: Line) -> LineKind {
        classify(line).kind
    }

    /// The kind of `line`, and where its text starts: its first byte that is not a space
    /// or a tab (the end of the line for a blank one).
    @inlinable
    package static func classify<Line: StringProtocol>(_ line: Line) -> (kind: LineKind, textStart: String.Index) {
        let utf8 = line.utf8
        guard let first = utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
            return (.blank, utf8.endIndex)
        }
        switch utf8[first] {
        case UInt8(ascii: "#"): return (.comment, first)
        case UInt8(ascii: ":"): return (.command, first)
        default: return (.action, first)
        }
    }
}
