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
    package static func of(_ line: String) -> LineKind { scan(line.utf8).kind }

    /// The kind of `line`.
    package static func of(_ line: Substring) -> LineKind { scan(line.utf8).kind }

    /// The kind of `line`, and where its text starts: its first byte that is not a space
    /// or a tab (the end of the line for a blank one).
    package static func classify(_ line: String) -> (kind: LineKind, textStart: String.Index) { scan(line.utf8) }

    /// The kind of `line`, and where its text starts (as for a `String`).
    package static func classify(_ line: Substring) -> (kind: LineKind, textStart: String.Index) {
        scan(line.utf8)
    }

    /// The one decision, for both views. The entry points take concrete types: a generic
    /// one, called from another module, ran unspecialised, through witness tables, on
    /// every line of a script (a profile of 100,000 increments found it there).
    @inline(__always)
    private static func scan<UTF8: Collection<UInt8>>(_ utf8: UTF8) -> (kind: LineKind, textStart: String.Index)
    where UTF8.Index == String.Index {
        var index = utf8.startIndex
        while index != utf8.endIndex {
            switch utf8[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): utf8.formIndex(after: &index)
            case UInt8(ascii: "#"): return (.comment, index)
            case UInt8(ascii: ":"): return (.command, index)
            default: return (.action, index)
            }
        }
        return (.blank, utf8.endIndex)
    }
}
