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
        Self.widenOutputPipe()
    }

    /// Gives a pipe on standard output a buffer of 1 MB (Linux's default most) instead of
    /// 64 KB: a program reading the output (`| jq`) then takes it in large reads while
    /// storesh goes on, where a full 64 KB made storesh wait at every other write (100,000
    /// actions' JSON through `| cat`: 5–6% less time, a third of the context switches).
    /// A pipe that cannot grow (the user's pipe memory is used up) stays as it was.
    private static func widenOutputPipe() {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return }
        // F_SETPIPE_SZ and F_GETPIPE_SZ, which Glibc's module does not export.
        let (setPipeSize, getPipeSize): (Int32, Int32) = (1031, 1032)
        let current = fcntl(STDOUT_FILENO, getPipeSize)
        for size: Int32 in [1 << 20, 256 << 10] where size > current {
            if fcntl(STDOUT_FILENO, setPipeSize, size) >= 0 { return }
        }
    }

    func emit(_ output: ShellOutput) {
        if case .error = output { errorCount += 1 }
        if let editor, editor.isAtPrompt {
            let lines = formatter.lines(for: output)
            if !lines.isEmpty { editor.printAbovePrompt(lines) }
            return
        }
        if case .error = output, formatter.format == .tree {
            let lines = formatter.lines(for: output)
            write(lines.joined(separator: "\n") + "\n", toStderr: true)
            return
        }
        formatter.append(output, to: pending)
        if buffering == 0 || pending.count >= Self.bufferLimit { flush() }
    }

    /// What a plugin in a worker printed (its stdout and stderr), whole lines: to stderr,
    /// after the results written before it; above the line being typed at the prompt.
    func writePluginOutput(_ text: String) {
        if let editor, editor.isAtPrompt {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            editor.printAbovePrompt(lines)
            return
        }
        write(text, toStderr: true)
    }

    /// Writes text as is (echoed input, messages of storesh itself). Standard output
    /// held by `buffered` goes first, so the two streams keep their order.
    func write(_ text: String, toStderr: Bool = false) {
        if toStderr {
            flush()
            StandardStreams.error(text)
        } else {
            pending.append(text)
            if buffering == 0 || pending.count >= Self.bufferLimit { flush() }
        }
    }

    /// Runs `body` with standard output gathered and written in large pieces (a script's
    /// run of action lines: one write per action would cost more than the action); all of
    /// it is written by the time this returns.
    func buffered<Result>(_ body: () -> Result) -> Result {
        buffering += 1
        defer {
            buffering -= 1
            if buffering == 0 { flush() }
        }
        return body()
    }

    /// Writes what `buffered` gathered so far.
    func flush() {
        guard !pending.isEmpty else { return }
        pending.withBytes { StandardStreams.write($0, to: STDOUT_FILENO) }
        pending.removeAll()
    }

    private var buffering = 0
    /// Standard output not written yet (all of it when not `buffered`, written at once).
    private let pending = OutputBuffer(capacity: bufferLimit + 4096)
    private static let bufferLimit = 64 * 1024
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
