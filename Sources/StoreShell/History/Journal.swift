import Foundation
import StoreHost

#if canImport(Glibc)
    import Glibc
#endif

/// A crash-safe, append-only log of a session: `storesh --journal PATH` writes it,
/// `storesh --resume PATH` rebuilds the session from it.
///
/// Durability: each record is one `write(2)` of one line, made before the result of its
/// action is printed, so anything a user saw survives storesh being killed (even with
/// SIGKILL): the bytes are in the kernel. The file is synced (`fsync`) when storesh exits
/// normally, not per record, so a power failure can lose the last records — the usual
/// shell-history trade-off. Each line carries a CRC-32 of its content; a torn last line is
/// detected on resume and cut off, so the next record starts on a line of its own.
///
/// A write that fails (a full disk, an I/O error) is an error for its caller, never
/// ignored: the partial bytes are cut off again, so the journal stays a sequence of whole
/// records. When even that fails the journal is closed, and every later append fails.
package final class Journal {
    package static let header = "storesh-journal 1"
    /// The claim's descriptor: -1 once another session of this process took the file over,
    /// so nothing here can reach a file that reused the number.
    private var descriptor: Int32 { claim.descriptor }
    /// The file, locked for this journal alone (see `Claim`).
    private let claim: Claim
    package let path: String
    /// Bytes in the file that are whole records (where the next record starts).
    private var size: off_t
    /// Where the last record started, so a refused action can take its record back.
    private var lastRecordStart: off_t?
    /// Why appends fail from now on, once the file could not be put back in order.
    package private(set) var closedReason: String?

    package struct Problem: Error, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// How to open a journal file.
    package enum Mode {
        /// A new session: the file must not exist, or be empty, or hold only the header.
        case create
        /// Go on with a session read by `Journal.read`: anything after its `validLength`
        /// bytes (a torn last record) is cut off first.
        case resume(validLength: Int)
    }

    /// Opens the journal at `path` as `mode` says, claiming it (see `Claim`).
    package convenience init(path: String, mode: Mode) throws(Problem) {
        let create: Bool
        if case .create = mode { create = true } else { create = false }
        try self.init(claim: Claim(path: path, create: create), mode: mode)
    }

    /// Opens the journal `claim` holds, as `mode` says. The claim is the journal's from
    /// now on (its descriptor is closed with the journal, and the lock with it).
    package init(claim: Claim, mode: Mode) throws(Problem) {
        self.claim = claim
        path = claim.path
        var status = stat()
        guard fstat(claim.descriptor, &status) == 0 else {
            throw Problem(message: "cannot use \(path) as a journal: \(Self.lastError)")
        }
        size = status.st_size
        switch mode {
        case .create:
            if size > 0 {
                let existing = try? Self.read(path)
                guard let existing, existing.records.isEmpty, existing.warning == nil else {
                    let what =
                        existing.map { "a session (\($0.records.count) records)" }
                        ?? "something that is not an empty storesh journal"
                    throw Problem(
                        message:
                            "\(path) already holds \(what); go on with it with --resume \(path), or name a new file")
                }
                claim.nameWriter()
                return
            }
            claim.nameWriter()
            try write(Self.header + "\n")
        case .resume(let validLength):
            claim.nameWriter()
            if size > off_t(validLength) {
                guard ftruncate(descriptor, off_t(validLength)) == 0 else {
                    throw Problem(message: "cannot cut the torn last record off \(path): \(Self.lastError)")
                }
                size = off_t(validLength)
            }
            if size == 0 { try write(Self.header + "\n") }
        }
    }

    deinit {
        fsync(descriptor)  // the claim closes it
    }

    /// Appends `record` in one write (see the durability note above). Throws when it did
    /// not reach the file whole; the file then holds exactly what it held before.
    package func append(_ record: JournalRecord) throws(Problem) {
        let line = record.line
        let start = size
        try write(String(format: "%08x", CRC32.checksum(line)) + " " + line + "\n")
        lastRecordStart = start
    }

    /// Takes back the record just appended (its action was refused after it was written).
    package func retractLast() throws(Problem) {
        guard let start = lastRecordStart else { return }
        lastRecordStart = nil
        try truncate(to: start, after: "taking back a refused action's record")
    }

    /// Flushes the journal to the disk; throws the system's reason when the disk refused.
    package func sync() throws(Problem) {
        guard fsync(descriptor) == 0 else {
            throw Problem(message: "cannot flush journal \(path) to the disk: \(Self.lastError)")
        }
    }

    private func write(_ text: String) throws(Problem) {
        if claim.revoked, closedReason == nil {
            closedReason = "journal \(path) is closed: another session of this storesh went on with it"
        }
        if let closedReason { throw Problem(message: closedReason) }
        let start = size
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = Self.lastError
                try truncate(to: start, after: "a failed write (\(reason))")
                throw Problem(message: "cannot write to journal \(path): \(reason)")
            }
            offset += written
            size += off_t(written)
        }
        bytes.removeAll()
    }

    private func truncate(to length: off_t, after what: String) throws(Problem) {
        guard ftruncate(descriptor, length) == 0 else {
            let reason = "journal \(path) is closed: it could not be put back in order after \(what): \(Self.lastError)"
            closedReason = reason
            throw Problem(message: reason)
        }
        size = length
    }

    /// Marks the journal unusable: it no longer matches the session (a record that
    /// could not be written for something that already happened).
    package func markClosed(because reason: String) {
        if closedReason == nil { closedReason = "journal \(path) is closed: \(reason)" }
    }

    static var lastError: String { String(cString: strerror(errno)) }
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
