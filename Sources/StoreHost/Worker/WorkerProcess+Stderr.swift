import StoreValue
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The worker's stderr: what the plugin prints is forwarded line by line as it comes, and
/// its end is kept as the worker's last words, for the report of a crash.
extension WorkerProcess {
    /// Reads the worker's stderr; false at its end.
    func readStderr() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(stderr, $0.baseAddress!, $0.count) }
            if count > 0 {
                let text = String(decoding: chunk[0..<count], as: UTF8.self)
                lastWords.append(text)
                let forwarded = stderrLines.forwardable(text)
                if !forwarded.isEmpty { onStderr?(forwarded) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count != 0
            }
        }
    }

    /// After the worker is gone: the rest of its stderr (its last words).
    func drainStderr() {
        let deadline = DispatchTime.now().uptimeNanoseconds + 500_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline {
            var fds = [pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 50) > 0 else { return }
            if !readStderr() { return }
        }
    }
}

/// What of a worker's stderr is forwarded as it comes: whole lines of what the plugin
/// prints, until a crash report starts (that goes into the error storesh reports, and
/// `:crash` shows it whole).
struct StderrLines {
    private var blankLines = 0
    private var partialLine = ""
    private var crashing = false

    /// Takes the next bytes of stderr, as text; returns the lines to forward now ("" for
    /// none).
    mutating func forwardable(_ text: String) -> String {
        guard !crashing else { return "" }
        partialLine += text
        guard let end = partialLine.lastIndex(of: "\n") else { return "" }
        let lines = partialLine[...end]
        partialLine = String(partialLine[partialLine.index(after: end)...])
        var forwarded = ""
        for line in lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if CrashReport.failureKinds.contains(where: { line.contains($0) }) || line.hasPrefix("*** Signal ") || line.hasPrefix("💣") {
                crashing = true
                break
            }
            // Blank lines wait for the next line: a crash report starts with one.
            if line.isEmpty {
                blankLines += 1
                continue
            }
            forwarded += String(repeating: "\n", count: blankLines) + line + "\n"
            blankLines = 0
        }
        return forwarded
    }
}

/// The last `limit` bytes of a text stream.
struct TailBuffer {
    let limit: Int
    private var bytes: [UInt8] = []

    init(limit: Int) { self.limit = limit }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
