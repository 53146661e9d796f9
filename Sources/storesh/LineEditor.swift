import CEditLine
import Dispatch
import Foundation
import StoreHost
import StoreShell

/// The prompt: libedit on a reader thread of its own, so the main actor stays free to
/// deliver effects while the user types. Output that arrives meanwhile is printed above
/// the prompt by the reader thread (the only one that may touch the editor), and the
/// half-typed line is redrawn.
final class LineEditor: @unchecked Sendable {
    enum Input {
        case line(String)
        case interrupt
        case end
    }

    private let editor: OpaquePointer
    private let history: OpaquePointer?
    private let historyPath: String?
    private var historySaveFailed = false
    private let lock = NSLock()
    private var pending: [String] = []
    private var atPrompt = false
    /// Answers Tab: the word's start and the candidates (asked of the main actor).
    private let complete: @Sendable (String, Int) -> (Int, [String])

    /// The editor the C callbacks talk to (libedit gives them no context of ours).
    nonisolated(unsafe) private static var active: LineEditor?

    init?(historyPath: String?, complete: @escaping @Sendable (String, Int) -> (Int, [String])) {
        guard let editor = cel_open("storesh") else { return nil }
        self.editor = editor
        self.complete = complete
        self.historyPath = historyPath
        history = cel_history_open(1000)
        if let history {
            cel_history_attach(editor, history)
            if let historyPath { _ = cel_history_load(history, historyPath) }
        }
        cel_set_idle(LineEditor.idle)
        cel_set_completer(editor, LineEditor.completeWord)
        LineEditor.active = self
    }

    deinit {
        cel_history_close(history)
        cel_close(editor)
    }

    var isAtPrompt: Bool {
        lock.lock()
        defer { lock.unlock() }
        return atPrompt
    }

    /// Reads one line (on the calling thread, which must be the reader thread).
    func read(prompt: String) -> Input {
        cel_set_prompt(prompt)
        setAtPrompt(true)
        defer { setAtPrompt(false) }
        var count: Int32 = 0
        guard let raw = cel_gets(editor, &count) else {
            if cel_take_interrupt() != 0 {
                StandardStreams.write("^C\n", to: STDOUT_FILENO)
                return .interrupt
            }
            return .end
        }
        flushPending()
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    /// Remembers a line in the history, and in the history file at once. A file that
    /// cannot be written is reported once, at the first failure.
    func remember(_ line: String) {
        guard let history, !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        _ = cel_history_enter(history, line)
        // Whole or not at all: a full disk keeps the file as it was, and says so once.
        if let historyPath, !historySaveFailed,
            case let saved = cel_history_save_whole(history, historyPath, historyPath + ".storesh-\(getpid()).tmp"),
            saved < 0
        {
            historySaveFailed = true
            var status = stat()
            let reason =
                saved == -2 && stat(historyPath, &status) == 0
                ? notARegularFile(status.st_mode) : errno == 0 ? "unknown error" : String(cString: strerror(errno))
            StandardStreams.error(
                "storesh: warning: cannot write history file \(historyPath): \(reason); history of this session is not kept\n"
            )
        }
    }

    /// Queues lines to print above the prompt; the reader thread prints them within ~20 ms.
    func printAbovePrompt(_ lines: [String]) {
        lock.lock()
        pending += lines
        lock.unlock()
    }

    private func setAtPrompt(_ value: Bool) {
        lock.lock()
        atPrompt = value
        lock.unlock()
    }

    private func takePending() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let lines = pending
        pending.removeAll()
        return lines
    }

    private func flushPending() {
        let lines = takePending()
        guard !lines.isEmpty else { return }
        StandardStreams.write((lines.joined(separator: "\n") + "\n"), to: STDOUT_FILENO)
    }

    private static let idle: @convention(c) (OpaquePointer?) -> Void = { editor in
        guard let prompt = active, let editor else { return }
        let lines = prompt.takePending()
        guard !lines.isEmpty else { return }
        // Clear the prompt line, print, then let libedit draw the prompt and the line again.
        StandardStreams.write(("\r\u{1B}[K" + lines.joined(separator: "\n") + "\n"), to: STDOUT_FILENO)
        cel_redisplay(editor)
    }

    private static let completeWord: @convention(c) (OpaquePointer?, Int32) -> UInt8 = { editor, _ in
        guard let prompt = active, let editor, let info = el_line(editor) else { return UInt8(CC_ERROR) }
        let buffer = info.pointee.buffer!
        let length = info.pointee.lastchar - buffer
        let cursor = info.pointee.cursor - buffer
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
        let (start, candidates) = prompt.complete(line, cursor)
        let typed = String(decoding: line.utf8.dropFirst(start).prefix(cursor - start), as: UTF8.self)
        guard !candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let common = candidates.dropFirst().reduce(candidates[0]) { prefix, next in
            String(prefix.commonPrefix(with: next))
        }
        if common.utf8.count > typed.utf8.count {
            let insertion = String(common.utf8.dropFirst(typed.utf8.count))!
            _ = el_insertstr(
                editor,
                candidates.count == 1 && !common.hasSuffix(" ") && !common.hasSuffix("/") ? insertion + " " : insertion)
            return UInt8(CC_REFRESH)
        }
        if candidates.count > 1 {
            StandardStreams.write(("\n" + candidates.joined(separator: "  ") + "\n"), to: STDOUT_FILENO)
            return UInt8(CC_REDISPLAY)
        }
        return UInt8(CC_REFRESH)
    }
}
