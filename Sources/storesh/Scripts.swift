import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreshCommandLine

/// Runs scripts (files, standard input, -c lines) through the shell core: statements
/// that span lines (an open quote or bracket) are put together, errors name FILE:LINE,
/// `--bail` stops at the first one, and long runs show a progress line on a terminal.
@MainActor
final class ScriptRunner {
    let core: ShellCore
    let printer: Printer
    let echo: Bool
    let bail: Bool
    /// Statements take turns with what the inspector's page asks for, one at a time.
    var inspector: InspectorLauncher?

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

    /// Puts lines together into statements: a line with an unclosed quote or bracket
    /// continues on the next. A statement left open is given up — reported where it was
    /// opened — when the next line starts a `:command` (it cannot be a continuation, so
    /// the mistake does not swallow it) or when it grows past the line limit.
    private struct Statements {
        enum Piece {
            case statement(String, line: Int)
            /// A statement given up: the line and column where its quote or bracket opened.
            case unclosed(String, line: Int, text: String, offset: Int)
        }

        var text = ""
        var firstLine = 0
        var assembler = LineAssembler()

        /// Adds line number `number`; returns what is ready to run or report.
        mutating func add(_ line: Substring, number: Int) -> [Piece] {
            let line = TextLines.withoutLineEnd(line)
            var pieces: [Piece] = []
            if !text.isEmpty, LineKind.of(line) == .command {
                pieces.append(giveUp(because: "the next line starts a command"))
            }
            if text.isEmpty {
                // the common case
                if LineAssembler.isComplete(line) { return pieces + [.statement(String(line), line: number)] }
                firstLine = number
                text = String(line)
                assembler = LineAssembler()
                assembler.feed(line.utf8)
            } else {
                text += "\n" + line
                assembler.feed(CollectionOfOne(0x0A))
                assembler.feed(line.utf8)
            }
            if assembler.isComplete {
                defer { text = "" }
                return pieces + [.statement(text, line: firstLine)]
            }
            if text.utf8.count > ScriptReader.maxLineBytes {
                pieces.append(giveUp(because: "it is still open after \(ScriptReader.maxLineBytes) bytes"))
            }
            return pieces
        }

        /// What is left at the end of input: an unclosed statement.
        mutating func rest() -> Piece? {
            guard !text.isEmpty else { return nil }
            return giveUp(because: "the script ends first")
        }

        private mutating func giveUp(because reason: String) -> Piece {
            defer { text = "" }
            let offset = assembler.openedAt ?? 0
            let before = text.utf8.prefix(offset)
            let lineIndex = before.filter { $0 == 0x0A }.count
            let lineStart =
                before.lastIndex(of: 0x0A).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) + 1 } ?? 0
            let lineText = String(decoding: text.utf8.dropFirst(lineStart).prefix { $0 != 0x0A }, as: UTF8.self)
            let opener = String(decoding: text.utf8.dropFirst(offset).prefix(1), as: UTF8.self)
            return .unclosed(
                "this \(opener == "\"" ? "quote" : "'\(opener)'") is never closed (\(reason))",
                line: firstLine + lineIndex, text: lineText, offset: offset - lineStart)
        }
    }

    /// Runs one `-c` argument (it may hold several lines).
    func run(_ text: String, file: String) async -> Outcome {
        var statements = Statements()
        var outcome = Outcome()
        for (index, line) in TextLines.split(text).enumerated() {
            for piece in statements.add(line, number: index + 1) {
                if await !handle(piece, file: file, into: &outcome) { return outcome }
            }
        }
        if let piece = statements.rest() { _ = await handle(piece, file: file, into: &outcome) }
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
        var group: [(text: String, origin: LineOrigin)] = []
        while let batch = await reader.next() {
            for item in batch {
                switch item {
                case .line(let line):
                    number += 1
                    for piece in statements.add(line, number: number) {
                        if case .statement(let statement, let line) = piece, !echo, core.groupsActions,
                            LineKind.of(statement) == .action
                        {
                            group.append((statement, LineOrigin(file: name, line: line)))
                            continue
                        }
                        if !(await runGroup(&group, into: &outcome)) { return outcome }
                        if await !handle(piece, file: name, into: &outcome) { return outcome }
                    }
                case .problem(let message, let line, let column):
                    if !(await runGroup(&group, into: &outcome)) { return outcome }
                    printer.emit(
                        .error(
                            ShellError(
                                "\(message); the script stops here", origin: LineOrigin(file: name, line: line),
                                column: column)))
                    outcome.unreadable = true
                    outcome.stop = true
                    return outcome
                }
            }
            if !(await runGroup(&group, into: &outcome)) { return outcome }
            // Batches run without a turn (they never wait); the page hears of them here.
            await inspector?.run {}
            if showProgress, number > 10_000, let size = reader.size {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastProgress > 100_000_000 {
                    lastProgress = now
                    printer.write(
                        "\r\(name): \(number) lines (\(100 * reader.bytesRead / max(size, 1))%)", toStderr: true)
                }
            }
        }
        if showProgress, number > 10_000 { printer.write("\r\u{1B}[K", toStderr: true) }
        if let piece = statements.rest() { _ = await handle(piece, file: name, into: &outcome) }
        return outcome
    }

    /// Runs the action lines gathered so far as batches (see `ShellCore.executeActions`);
    /// false when the script should stop.
    private func runGroup(_ group: inout [(text: String, origin: LineOrigin)], into outcome: inout Outcome) async
        -> Bool
    {
        guard let first = group.first else { return true }
        defer { group.removeAll(keepingCapacity: true) }
        if core.takeInterrupt() {
            printer.emit(
                .error(ShellError("interrupted (Ctrl-C): the script stops before this line", origin: first.origin)))
            outcome.failures += 1
            outcome.stop = true
            return false
        }
        let result = printer.buffered { core.executeActions(group, stopAtFailure: bail) }
        await core.deliverDueAnswers()
        outcome.failures += result.failures
        if result.stopped { outcome.stop = true }
        return !result.stopped
    }

    /// Runs a statement, or reports one given up; false when the script should stop.
    private func handle(_ piece: Statements.Piece, file: String, into outcome: inout Outcome) async -> Bool {
        switch piece {
        case .statement(let statement, let line):
            return await execute(statement, file: file, line: line, into: &outcome)
        case .unclosed(let message, let line, let text, let offset):
            printer.emit(
                .error(ShellError(message, origin: LineOrigin(file: file, line: line), text: text, offset: offset)))
            outcome.failures += 1
            outcome.stop = bail
            return !bail
        }
    }

    /// Runs one statement; returns false when the script should stop.
    private func execute(_ statement: String, file: String, line: Int, into outcome: inout Outcome) async -> Bool {
        // A blank statement is skipped unechoed; a comment is echoed (the core ignores it).
        if LineKind.of(statement) == .blank { return true }
        if core.takeInterrupt() {
            printer.emit(
                .error(
                    ShellError(
                        "interrupted (Ctrl-C): the script stops before this line",
                        origin: LineOrigin(file: file, line: line))))
            outcome.failures += 1
            outcome.stop = true
            return false
        }
        if echo { echoLine(statement) }
        let origin = LineOrigin(file: file, line: line)
        let succeeded =
            if let inspector { await inspector.run { await core.execute(statement, origin: origin) } } else {
                await core.execute(statement, origin: origin)
            }
        if !succeeded {
            outcome.failures += 1
            if bail || core.takeBreakpointStop() {
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
