import Dispatch
import Foundation
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// The worker's output (the plugin's stdout and stderr, on one pipe): forwarded line by
/// line as it comes, all of it before the reply it came before (the worker flushes before
/// each message it sends, and the pipe is drained before a reply is taken), and its end
/// kept as the worker's last words, for the report of a crash.
extension WorkerProcess {
    /// Reads the worker's output until the pipe is empty, forwarding whole lines; false at
    /// its end. The time it takes is added to `forwardingNanoseconds`, which no action
    /// timeout counts.
    @discardableResult
    func readStderr() -> Bool {
        let began = DispatchTime.now().uptimeNanoseconds
        defer { forwardingNanoseconds += DispatchTime.now().uptimeNanoseconds - began }
        while true {
            let count = read(stderr, chunk.baseAddress!, chunk.count)
            if count > 0 {
                let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
                lastWords.append(bytes)
                stderrLines.take(bytes) { onStderr?($0) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count != 0
            }
        }
    }

    /// After the worker is gone: the rest of its output (its last words).
    func drainStderr() {
        let deadline = DispatchTime.now().uptimeNanoseconds + 500_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            var fds = [pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { break }
            if !readStderr() { break }
        }
        stderrLines.finish { onStderr?($0) }
    }

    /// Forwards what the worker has written so far, a last line without its newline too:
    /// storesh is about to exit, or to stop the worker.
    package func forwardOutput() {
        guard loss == nil else { return }
        readStderr()
        stderrLines.finish { onStderr?($0) }
    }
}

/// What of a worker's output is forwarded as it comes: whole lines, in linear time, until
/// a crash report starts (that goes into the error storesh reports, and `:crash` shows it
/// whole). A line longer than `longestLine` bytes is forwarded in pieces of that length,
/// each on a line of its own, and a note after it says so: nothing is dropped, and
/// storesh never holds more than one piece.
package struct StderrLines {
    /// 64 KiB.
    package static let longestLine = 64 * 1024
    private var blankLines = 0
    /// The line begun and not ended yet.
    private var partial: [UInt8] = []
    /// Pieces of the current line already forwarded (it was longer than `longestLine`).
    private var pieces = 0
    private var crashing = false

    package init() {}

    /// Takes the next bytes of output; hands `forward` the text to write now.
    package mutating func take(_ bytes: UnsafeRawBufferPointer, forward: (String) -> Void) {
        guard !crashing else { return }
        var start = 0
        var out: [UInt8] = []
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
            partial.append(contentsOf: bytes[start..<(newline ?? bytes.count)])
            while partial.count > Self.longestLine {
                cutPiece(into: &out)
            }
            guard let newline else { break }
            start = newline + 1
            if !endLine(into: &out) { break }
        }
        if !out.isEmpty { forward(String(decoding: out, as: UTF8.self)) }
    }

    /// At the end of the output: the last line, though it has no newline.
    package mutating func finish(forward: (String) -> Void) {
        guard !crashing else { return }
        var out: [UInt8] = []
        if !partial.isEmpty || pieces > 0 {
            _ = endLine(into: &out)
        }
        // Blank lines held back in case a crash report followed them.
        releaseBlankLines(into: &out)
        if !out.isEmpty { forward(String(decoding: out, as: UTF8.self)) }
    }

    /// Forwards the first `longestLine` bytes of the partial line as a line of its own
    /// (cut where a UTF-8 character begins).
    private mutating func cutPiece(into out: inout [UInt8]) {
        var cut = Self.longestLine
        while cut > 0, partial[cut] & 0xC0 == 0x80 { cut -= 1 }
        if cut == 0 { cut = Self.longestLine }
        releaseBlankLines(into: &out)
        out.append(contentsOf: partial[..<cut])
        out.append(UInt8(ascii: "\n"))
        partial.removeSubrange(..<cut)
        pieces += 1
    }

    /// The partial line is complete: forwards it (blank lines wait for the next line: a
    /// crash report starts with one). False once a crash report begins.
    private mutating func endLine(into out: inout [UInt8]) -> Bool {
        defer { partial.removeAll(keepingCapacity: partial.count <= Self.longestLine) }
        if pieces == 0, Self.startsCrashReport(partial) {
            crashing = true
            return false
        }
        if partial.isEmpty, pieces == 0 {
            blankLines += 1
            return true
        }
        releaseBlankLines(into: &out)
        out.append(contentsOf: partial)
        out.append(UInt8(ascii: "\n"))
        if pieces > 0 {
            let length = pieces * Self.longestLine + partial.count
            out.append(
                contentsOf:
                    "[storesh: the plugin's line above was \(length) bytes long, over the \(Self.longestLine)-byte limit; it is shown in \(pieces + 1) lines]\n"
                    .utf8)
            pieces = 0
        }
        return true
    }

    /// The blank lines held back, now that a line that is no crash report follows them.
    private mutating func releaseBlankLines(into out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: blankLines))
        blankLines = 0
    }

    /// Whether a line is where Swift's runtime starts reporting a crash. Only its start is
    /// looked at: the markers come early, and a long line costs no more than a short one.
    private static func startsCrashReport(_ line: [UInt8]) -> Bool {
        let head = String(decoding: line.prefix(512), as: UTF8.self)
        return CrashReport.failureKinds.contains(where: { head.contains($0) }) || head.hasPrefix("*** Signal ")
            || head.hasPrefix("💣")
    }
}

/// The last `limit` bytes of a byte stream.
struct TailBuffer {
    let limit: Int
    private var bytes: [UInt8] = []

    init(limit: Int) { self.limit = limit }

    mutating func append(_ more: UnsafeRawBufferPointer) {
        if more.count >= limit {
            bytes = Array(more[(more.count - limit)...])
            return
        }
        bytes.append(contentsOf: more)
        if bytes.count > 2 * limit { bytes.removeFirst(bytes.count - limit) }
    }

    var text: String { String(decoding: bytes.suffix(limit), as: UTF8.self) }
}
