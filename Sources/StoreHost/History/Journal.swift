import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thing a session did that a resume must do again.
public enum JournalRecord: Equatable, Sendable {
    case load(plugin: String)
    case use(model: String)
    case action(model: String, source: ActionSource, text: String)
    case goto(model: String, position: Int)
    case skip(model: String, index: Int)
    case unskip(model: String, index: Int)
    case reset

    /// One line, without its checksum.
    var line: String {
        switch self {
        case .load(let plugin): "L \(plugin)"
        case .use(let model): "U \(model)"
        case .action(let model, let source, let text): "A \(model) \(source.rawValue) \(text)"
        case .goto(let model, let position): "G \(model) \(position)"
        case .skip(let model, let index): "S \(model) \(index)"
        case .unskip(let model, let index): "K \(model) \(index)"
        case .reset: "R"
        }
    }

    init?(line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("L", 2): self = .load(plugin: parts[1])
        case ("U", 2): self = .use(model: parts[1])
        case ("A", 4):
            guard let source = ActionSource(rawValue: parts[2]) else { return nil }
            self = .action(model: parts[1], source: source, text: parts[3])
        case ("G", 3): guard let n = Int(parts[2]) else { return nil }; self = .goto(model: parts[1], position: n)
        case ("S", 3): guard let n = Int(parts[2]) else { return nil }; self = .skip(model: parts[1], index: n)
        case ("K", 3): guard let n = Int(parts[2]) else { return nil }; self = .unskip(model: parts[1], index: n)
        case ("R", 1): self = .reset
        default: return nil
        }
    }
}

/// A crash-safe, append-only log of a session: `storesh --journal PATH` writes it,
/// `storesh --resume PATH` rebuilds the session from it.
///
/// Durability: each record is one `write(2)` of one line, made before the result of its
/// action is printed, so anything a user saw survives storesh being killed (even with
/// SIGKILL): the bytes are in the kernel. The file is synced (`fsync`) when storesh exits
/// normally, not per record, so a power failure can lose the last records — the usual
/// shell-history trade-off. Each line carries a CRC-32 of its content; a torn or garbled
/// last line is detected on resume and dropped with a warning.
public final class Journal {
    public static let header = "storesh-journal 1"
    private let descriptor: Int32
    public let path: String

    public struct Problem: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Opens `path` for appending, creating it with a header when new.
    public init(path: String) throws(Problem) {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Problem(message: "cannot open journal \(path): \(String(cString: strerror(errno)))") }
        if !exists { write(Self.header + "\n") }
    }

    deinit {
        fsync(descriptor)
        close(descriptor)
    }

    /// Appends `record` (one write, see the durability note above).
    public func append(_ record: JournalRecord) {
        let line = record.line
        write(String(format: "%08x", CRC32.checksum(line)) + " " + line + "\n")
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 { if errno == EINTR { continue }; return }
            offset += written
        }
        bytes.removeAll()
    }

    /// Flushes the journal to the disk.
    public func sync() { fsync(descriptor) }

    /// The records of the journal at `path`, and a warning when its last record was torn.
    public static func read(_ path: String) throws(Problem) -> (records: [JournalRecord], warning: String?) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(message: "cannot read journal \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let complete = text.hasSuffix("\n")
        if complete { lines.removeLast() }
        guard lines.first == Substring(header) else {
            throw Problem(message: "\(path) is not a storesh journal (its first line should be '\(header)')")
        }
        var records: [JournalRecord] = []
        for (index, line) in lines.enumerated().dropFirst() {
            let isLast = index == lines.count - 1
            let checksum = line.prefix(8)
            let payload = line.dropFirst(9)
            guard line.count > 9, UInt32(checksum, radix: 16) == CRC32.checksum(String(payload)), let record = JournalRecord(line: payload),
                  !isLast || complete
            else {
                if isLast {
                    return (records, "\(path):\(index + 1): the last record was cut short (storesh stopped while writing it); it was dropped")
                }
                throw Problem(message: "\(path):\(index + 1): damaged record (checksum does not match); the journal cannot be trusted past here")
            }
            records.append(record)
        }
        return (records, nil)
    }
}

/// CRC-32 (IEEE 802.3), as zlib computes it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ text: String) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in text.utf8 { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
