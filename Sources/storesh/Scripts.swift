import Dispatch
import Foundation
import StoreHost

/// Runs scripts (files, standard input, -c lines) through the shell core: statements
/// that span lines (an open quote or bracket) are put together, errors name FILE:LINE,
/// `--bail` stops at the first one, and long runs show a progress line on a terminal.
@MainActor
struct ScriptRunner {
    let core: ShellCore
    let printer: Printer
    let echo: Bool
    let bail: Bool

    /// Runs `text` from `file`. Returns how many statements failed, and whether to stop.
    func run(_ text: String, file: String) async -> (failures: Int, stop: Bool) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let showProgress = Terminal.stderrIsTerminal && lines.count > 10_000
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        var failures = 0
        var statement = ""
        var firstLine = 0
        for (index, rawLine) in lines.enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if statement.isEmpty {
                firstLine = index + 1
                statement = String(line)
            } else {
                statement += "\n" + line
            }
            guard LineAssembler.isComplete(statement) || index == lines.count - 1 else { continue }
            defer { statement = "" }
            if statement.isEmpty { continue }
            if echo { echoLine(statement) }
            if await !core.execute(statement, origin: LineOrigin(file: file, line: firstLine)) {
                failures += 1
                if bail { return (failures, true) }
            }
            if core.quitRequested { return (failures, true) }
            if showProgress, index & 1023 == 0 {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    printer.write("\r\(file): \(index + 1)/\(lines.count) lines (\(100 * (index + 1) / lines.count)%)", toStderr: true)
                }
            }
        }
        if showProgress { printer.write("\r\u{1B}[K", toStderr: true) }
        return (failures, false)
    }

    private func echoLine(_ line: String) {
        if printer.formatter.format == .json {
            printer.write(JSON.object([("kind", JSON.string("input")), ("line", JSON.string(line))]) + "\n")
        } else {
            printer.write(line + "\n")
        }
    }
}
