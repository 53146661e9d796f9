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

    /// Runs the whole of `text`, read from `file`.
    func run(_ text: String, file: String) async -> Outcome {
        let lines = Self.lines(of: text)
        let showProgress = Terminal.stderrIsTerminal && lines.count > 10_000
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        var statements = Statements()
        var outcome = Outcome()
        for (index, line) in lines.enumerated() {
            if let (statement, number) = statements.add(line, number: index + 1) {
                if await !execute(statement, file: file, line: number, into: &outcome) { return outcome }
            }
            if showProgress, index & 1023 == 0 {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    printer.write("\r\(file): \(index + 1)/\(lines.count) lines (\(100 * (index + 1) / lines.count)%)", toStderr: true)
                }
            }
        }
        if showProgress { printer.write("\r\u{1B}[K", toStderr: true) }
        if let (statement, number) = statements.rest() {
            _ = await execute(statement, file: file, line: number, into: &outcome)
        }
        return outcome
    }

    /// The lines of `text`, split on newline bytes (much cheaper than by Character).
    static func lines(of text: String) -> [Substring] {
        var text = text
        let offsets: [Int] = text.withUTF8 { bytes in
            var found: [Int] = []
            for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { found.append(offset) }
            return found
        }
        var lines: [Substring] = []
        lines.reserveCapacity(offsets.count + 1)
        let utf8 = text.utf8
        var start = utf8.startIndex
        for offset in offsets {
            let newline = utf8.index(utf8.startIndex, offsetBy: offset)
            lines.append(text[start..<newline])
            start = utf8.index(after: newline)
        }
        lines.append(text[start...])
        return lines
    }

    /// Runs standard input line by line as it arrives, so a program driving storesh
    /// through a pipe gets each answer before it sends the next line. Lines are read on a
    /// thread of their own: the main actor stays free to deliver effects meanwhile.
    func runStandardInput() async -> Outcome {
        let (lines, continuation) = AsyncStream.makeStream(of: Substring.self)
        let reader = Thread {
            var buffer = Data()
            while true {
                let chunk = FileHandle.standardInput.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(Substring(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            if !buffer.isEmpty { continuation.yield(Substring(String(decoding: buffer, as: UTF8.self))) }
            continuation.finish()
        }
        reader.start()
        var statements = Statements()
        var outcome = Outcome()
        var number = 0
        for await line in lines {
            number += 1
            if let (statement, first) = statements.add(line, number: number) {
                if await !execute(statement, file: "<stdin>", line: first, into: &outcome) { return outcome }
            }
        }
        if let (statement, first) = statements.rest() {
            _ = await execute(statement, file: "<stdin>", line: first, into: &outcome)
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
