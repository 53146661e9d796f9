import Foundation
import StoreShell

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a script — a file, a FIFO, `/dev/stdin`, a pipe from process substitution, or
/// standard input — line by line as it arrives, on a thread of its own so the main actor
/// stays free to deliver effects meanwhile.
///
/// Bounded: the thread reads ahead at most `batchesAhead` batches of lines and then waits
/// for the shell to catch up (back-pressure), and a line may be at most `maxLineBytes`
/// long. Linear: bytes are scanned once. Trustworthy: a line that is not valid UTF-8, is
/// too long, or cannot be read ends the script with an error naming LINE:COL.
final class ScriptReader: @unchecked Sendable {
    /// The longest line a script may hold (documented in the README).
    static let maxLineBytes = 1 << 20
    static let batchesAhead = 4

    /// What the reader hands over: lines, then possibly one problem that ends the script.
    enum Item {
        case line(Substring)
        /// A problem at `line` (1-based), column `column` (1-based, in characters).
        case problem(String, line: Int, column: Int)
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let condition = NSCondition()
    private var batches: [[Item]] = []
    private var finished = false
    private var waiting: CheckedContinuation<[Item]?, Never>?
    private var consumed = 0
    /// The file's size (regular files only), for progress.
    let size: Int?

    /// Bytes read so far, for progress.
    var bytesRead: Int {
        condition.lock()
        defer { condition.unlock() }
        return consumed
    }

    /// Opens `path` for reading ("-" is standard input). The error says why it cannot be.
    static func open(_ path: String) -> Result<ScriptReader, ScriptOpenError> {
        if path == "-" { return .success(ScriptReader(descriptor: STDIN_FILENO, owns: false)) }
        switch openForReading(path) {
        case .success(let descriptor): return .success(ScriptReader(descriptor: descriptor, owns: true))
        case .failure(let error): return .failure(ScriptOpenError(path: path, reason: error.reason))
        }
    }

    /// Checks, before anything runs, that `path` can be read as a script (without
    /// opening it: a FIFO's writer may not be there yet).
    static func check(_ path: String) -> ScriptOpenError? {
        guard path != "-" else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else {
            return ScriptOpenError(path: path, reason: String(cString: strerror(errno)))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR { return ScriptOpenError(path: path, reason: "it is a directory") }
        guard access(path, R_OK) == 0 else {
            return ScriptOpenError(path: path, reason: String(cString: strerror(errno)))
        }
        return nil
    }

    private init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        ownsDescriptor = owns
        var status = stat()
        size = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        Thread { [self] in readAll() }.start()
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next lines, or nil at the end. Call from one task at a time.
    func next() async -> [Item]? {
        await withCheckedContinuation { continuation in
            condition.lock()
            defer { condition.unlock() }
            if !batches.isEmpty {
                continuation.resume(returning: batches.removeFirst())
                condition.signal()
            } else if finished {
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
            }
        }
    }

    private func hand(_ batch: [Item]) {
        condition.lock()
        defer { condition.unlock() }
        if let waiting {
            self.waiting = nil
            waiting.resume(returning: batch)
            return
        }
        while batches.count >= Self.batchesAhead { condition.wait() }
        batches.append(batch)
    }

    private func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        if let waiting, batches.isEmpty {
            self.waiting = nil
            waiting.resume(returning: nil)
        }
    }

    /// The reader thread: reads chunks, cuts them into lines, checks each, hands them on
    /// after every read (so a line typed into a pipe runs at once).
    private func readAll() {
        defer { finish() }
        var pending: [UInt8] = []  // the start of a line whose end has not come yet
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var lineNumber = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                hand([.problem("cannot read: \(String(cString: strerror(errno)))", line: lineNumber + 1, column: 1)])
                return
            }
            if count == 0 { break }
            var batch: [Item] = []
            var start = 0
            for index in 0..<count where chunk[index] == 0x0A {
                lineNumber += 1
                pending.append(contentsOf: chunk[start..<index])
                start = index + 1
                if let item = check(pending, line: lineNumber) {
                    batch.append(item)
                    if case .problem = item {
                        hand(batch)
                        return
                    }
                }
                pending.removeAll(keepingCapacity: true)
            }
            pending.append(contentsOf: chunk[start..<count])
            condition.lock()
            consumed += count
            condition.unlock()
            if pending.count > Self.maxLineBytes {
                batch.append(Self.tooLong(line: lineNumber + 1))
                hand(batch)
                return
            }
            if !batch.isEmpty { hand(batch) }
        }
        if !pending.isEmpty, let item = check(pending, line: lineNumber + 1) { hand([item]) }
    }

    private static func tooLong(line: Int) -> Item {
        .problem("line is longer than \(maxLineBytes) bytes (the limit)", line: line, column: 1)
    }

    /// The line as text, or the problem with it.
    private func check(_ bytes: [UInt8], line: Int) -> Item? {
        if bytes.count > Self.maxLineBytes {
            return Self.tooLong(line: line)
        }
        // A byte order mark (some editors write one) is not part of the first line.
        let bytes = line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: bytes, as: UTF8.self) { return .line(Substring(text)) }
        let invalid = TextLines.firstInvalidUTF8(in: bytes) ?? (line: 1, column: 1, byte: 0)
        return .problem("not valid UTF-8 (\(TextLines.describe(invalid.byte)))", line: line, column: invalid.column)
    }
}

/// Why a script cannot be read.
struct ScriptOpenError: Error {
    let path: String
    let reason: String
    var message: String { "cannot read script '\(path)': \(reason)" }
}
