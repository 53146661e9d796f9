import Foundation
import StoreHost
import StoreShell

/// Writes the shell's output: formatted, flushed at once (a program reading a pipe sees
/// each result as it happens), errors to stderr in text mode, and — while the user is at
/// the prompt — above the prompt without disturbing the line being typed.
@MainActor
final class Printer {
    let formatter: OutputFormatter
    /// Set while the prompt is up; output then goes through the editor.
    var editor: LineEditor?
    private(set) var errorCount = 0

    init(formatter: OutputFormatter) {
        self.formatter = formatter
    }

    func emit(_ output: ShellOutput) {
        if case .error = output { errorCount += 1 }
        let lines = formatter.lines(for: output)
        guard !lines.isEmpty else { return }
        if let editor, editor.isAtPrompt {
            editor.printAbovePrompt(lines)
            return
        }
        let toStderr: Bool
        if case .error = output, formatter.format == .tree { toStderr = true } else { toStderr = false }
        write(lines.joined(separator: "\n") + "\n", toStderr: toStderr)
    }

    /// Writes text as is (echoed input, messages of storesh itself).
    func write(_ text: String, toStderr: Bool = false) {
        let handle = toStderr ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data(text.utf8))
    }
}

/// Facts about the terminal, read once.
enum Terminal {
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Colour only at a terminal, never with NO_COLOR set (https://no-color.org).
    static func wantsColor(disabled: Bool) -> Bool {
        !disabled && stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
}
