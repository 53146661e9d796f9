package import StoreHost
package import StoreValue

/// Where a line came from: a script file and line, `-c` argument, or the prompt.
package struct LineOrigin: Equatable, Sendable {
    package var file: String?
    package var line: Int

    package init(file: String?, line: Int) {
        self.file = file
        self.line = line
    }

    package static let prompt = LineOrigin(file: nil, line: 0)
}

/// Everything the shell reports, before formatting (text at a terminal, JSON lines for
/// programs). The formatter decides how it looks; the core decides what happened.
package enum ShellOutput: Equatable, Sendable {
    /// An action was applied; `text` is the action as typed.
    case action(text: String, result: SendResult)
    /// `:state`: the state, or the part of it at `path`; `whole`: nothing cut short.
    case state(path: String?, value: Value, depth: Int?, whole: Bool = false)
    /// An effect started, emitted, finished, failed or was cancelled.
    case effect(EffectReport)
    /// An action an effect sent was applied; `changes` is its diff.
    case applied(action: String, changes: [StateChange], showDiff: Bool)
    /// A mistake: what, where in the line (byte offset, if known), which line.
    case error(ShellError)
    /// Plain lines from a command (`:help`, …), with a kind for JSON.
    case info(kind: String, lines: [String])
    /// A command's lines for people, and the same facts as a record for programs: JSON
    /// gets the record's fields beside `kind` and `lines` (`:log`, `:fx`, `:stubs`, `:models`).
    case report(kind: String, lines: [String], data: Value)
    /// `:load` loaded a plugin.
    case loaded(plugin: String, version: String, models: [String])
}

/// One effect event with what the shell knows about the effect.
package struct EffectReport: Equatable, Sendable {
    package let model: String
    package let event: EffectEventRecord
    /// The label the effect started with.
    package let label: String?
    /// Milliseconds on the host clock since the effect started.
    package let elapsedMilliseconds: Int64
}

/// An error with everything needed to show where it happened.
package struct ShellError: Error, Equatable, Sendable {
    package let message: String
    package let origin: LineOrigin
    /// The line as typed, when the error points into it.
    package let text: String?
    /// Byte offset into `text`.
    package let offset: Int?
    /// The column when there is no text to point into (a line that is not UTF-8).
    private let knownColumn: Int?

    package init(_ message: String, origin: LineOrigin, text: String? = nil, offset: Int? = nil) {
        self.message = message
        self.origin = origin
        self.text = text
        self.offset = offset
        knownColumn = nil
    }

    /// An error at a column of a line that cannot be shown (1-based, in characters).
    package init(_ message: String, origin: LineOrigin, column: Int) {
        self.message = message
        self.origin = origin
        text = nil
        offset = nil
        knownColumn = column
    }

    /// 1-based column of `offset` in characters, for FILE:LINE:COL.
    package var column: Int? {
        if let knownColumn { return knownColumn }
        guard let text, let offset else { return nil }
        let prefix = text.utf8.prefix(offset)
        return String(decoding: prefix, as: UTF8.self).count + 1
    }
}
