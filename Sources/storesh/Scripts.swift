import Dispatch
import Foundation
import StoreHost

/// Runs scripts (files, standard input, -c lines) through the shell core: statements
/// that span lines (an open quote or bracket) are put together, errors name FILE:LINE,
/// `--bail` stops at the first one, and long runs show a progress line on a terminal.
@MainActor
final class ScriptRunner {
    let core: ShellCore
    let printer: Printer
    let echo: Bool
    let bail: Bool

    init(core: ShellCore, printer: Printer, echo: Bool, bail: Bool) {
        self.core = core
        self.printer = printer
        self.echo = echo
        self.bail = bail
    }

    /// The result of running a script: how many statements failed, and whether to stop
    /// (`--bail` after an error, or `:quit`).
    struct Outcome {
        var failures = 0
        var stop = false
        /// The script could not be read to its end (exit status 2).
        var unreadable = false
    }

    /// Puts lines together into statements and runs each.
    private struct Statements {
        var text = ""
        var firstLine = 0

        /// Adds line number `number`; returns a whole statement when there is one.
        mutating func add(_ line: Substring, number: Int) -> (String, Int)? {
            var line = line
            if line.utf8.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if text.isEmpty, LineAssembler.isComplete(line) {
                return (String(line), number) // the common case: one line, one statement
            }
            if text.isEmpty {
                firstLine = number
                text = String(line)
            } else {
                text += "\n" + line
            }
            guard LineAssembler.isComplete(text) else { return nil }
            defer { text = "" }
            return (text, firstLine)
        }

        /// What is left at the end of input (an unclosed statement, run for its error).
        mutating func rest() -> (String, Int)? {
            guard !text.isEmpty else { return nil }
            defer { text = "" }
            return (text, firstLine)
        }
    }

    /// Runs one `-c` argument (it may hold several lines).
    func run(_ text: String, file: String) async -> Outcome {
        var statements = Statements()
        var outcome = Outcome()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let (statement, number) = statements.add(line, number: index + 1) {
                if await !execute(statement, file: file, line: number, into: &outcome) { return outcome }
            }
        }
        if let (statement, number) = statements.rest() {
            _ = await execute(statement, file: file, line: number, into: &outcome)
        }
        return outcome
    }

    /// Runs a script file ("-" for standard input) line by line as it arrives, so a
    /// program driving storesh through a pipe gets each answer before it sends the next
    /// line. A script that cannot be read, or holds a line that is not UTF-8 or is too
    /// long, is an error at FILE:LINE:COL that stops the run (`Outcome.unreadable`).
    func run(file path: String) async -> Outcome {
        let name = path == "-" ? "<stdin>" : path
        var outcome = Outcome()
        let reader: ScriptReader
        switch ScriptReader.open(path) {
        case .success(let opened): reader = opened
        case .failure(let error):
            printer.emit(.error(ShellError(error.message, origin: .prompt)))
            outcome.unreadable = true
            outcome.stop = true
            return outcome
        }
        let showProgress = Terminal.stderrIsTerminal && (reader.size ?? 0) > 0
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        var statements = Statements()
        var number = 0
        while let batch = await reader.next() {
            for item in batch {
                switch item {
                case .line(let line):
                    number += 1
                    if let (statement, first) = statements.add(line, number: number) {
                        if await !execute(statement, file: name, line: first, into: &outcome) { return outcome }
                    }
                case .problem(let message, let line, let column):
                    printer.emit(.error(ShellError("\(message); the script stops here", origin: LineOrigin(file: name, line: line), column: column)))
                    outcome.unreadable = true
                    outcome.stop = true
                    return outcome
                }
            }
            if showProgress, number > 10_000, let size = reader.size {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    printer.write("\r\(name): \(number) lines (\(100 * reader.bytesRead / max(size, 1))%)", toStderr: true)
                }
            }
        }
        if showProgress, number > 10_000 { printer.write("\r\u{1B}[K", toStderr: true) }
        if let (statement, first) = statements.rest() {
            _ = await execute(statement, file: name, line: first, into: &outcome)
        }
        return outcome
    }

    /// Runs one statement; returns false when the script should stop.
    private func execute(_ statement: String, file: String, line: Int, into outcome: inout Outcome) async -> Bool {
        if statement.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return true }
        if echo { echoLine(statement) }
        if await !core.execute(statement, origin: LineOrigin(file: file, line: line)) {
            outcome.failures += 1
            if bail {
                outcome.stop = true
                return false
            }
        }
        if core.quitRequested {
            outcome.stop = true
            return false
        }
        return true
    }

    private func echoLine(_ line: String) {
        if printer.formatter.format == .json {
            printer.write(JSON.object([("kind", JSON.string("input")), ("line", JSON.string(line))]) + "\n")
        } else {
            printer.write(line + "\n")
        }
    }
}
