import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreshCommandLine

/// The interactive loop: a reader thread edits lines with libedit and hands each whole
/// statement to the main actor, which runs it and lets the reader show the next prompt.
@MainActor
struct Prompt {
    let core: ShellCore
    let printer: Printer
    /// Lines typed here take turns with what the inspector's page asks for.
    let inspector: InspectorLauncher

    func run() async {
        let core = self.core
        let complete: @Sendable (String, Int) -> (Int, [String]) = { line, cursor in
            DispatchQueue.main.sync {
                MainActor.assumeIsolated { core.completions(line: line, cursor: cursor) }
            }
        }
        let history = HistoryFile.path()
        if let warning = history.warning { printer.write("storesh: warning: \(warning)\n", toStderr: true) }
        guard let editor = LineEditor(historyPath: history.path, complete: complete) else {
            printer.write("storesh: cannot start the line editor\n", toStderr: true)
            return
        }
        printer.editor = editor
        defer { printer.editor = nil }
        printer.write(
            "storesh — \(core.current?.model.qualifiedName ?? "no model loaded"). :help lists commands, Tab completes, Ctrl-D leaves.\n"
        )
        let (statements, continuation) = AsyncStream.makeStream(of: String.self)
        let done = DispatchSemaphore(value: 0)
        let prompt = PromptText(core: core)
        let reader = Thread {
            var statement = ""
            while true {
                let text = statement.isEmpty ? prompt.main() : "...> "
                switch editor.read(prompt: text) {
                case .end:
                    if !statement.isEmpty {
                        // Ctrl-D at a continuation prompt gives up the statement, as
                        // Ctrl-C does; it leaves only from an empty prompt.
                        StandardStreams.write("\n(statement cancelled)\n", to: STDOUT_FILENO)
                        statement = ""
                        continue
                    }
                    StandardStreams.write("\n", to: STDOUT_FILENO)
                    continuation.finish()
                    return
                case .interrupt:
                    statement = ""
                case .line(let line):
                    statement = statement.isEmpty ? line : statement + "\n" + line
                    guard LineAssembler.isComplete(statement) else { continue }
                    editor.remember(statement)
                    continuation.yield(statement)
                    statement = ""
                    done.wait()
                    if prompt.quit() {
                        continuation.finish()
                        return
                    }
                }
            }
        }
        reader.start()
        for await statement in statements {
            _ = await inspector.run { await core.execute(statement) }
            done.signal()
        }
    }
}

/// What the reader thread asks the main actor between lines.
private struct PromptText: Sendable {
    let core: ShellCore

    func main() -> String {
        DispatchQueue.main.sync {
            MainActor.assumeIsolated { (core.current?.model.name ?? "storesh") + "> " }
        }
    }

    func quit() -> Bool {
        DispatchQueue.main.sync {
            MainActor.assumeIsolated { core.quitRequested }
        }
    }
}
