import Foundation
import StoreHost

#if canImport(Glibc)
    import Glibc
#endif

extension Journal {
    /// What a journal file holds: its records with their line numbers, a warning when the
    /// last record was torn, and how many bytes are whole records (where to append next).
    package struct Contents {
        package var records: [(record: JournalRecord, line: Int)]
        package var warning: String?
        package var validLength: Int
    }

    /// Reads the journal at `path` whole. A torn last record (storesh stopped while writing
    /// it) is left out with a warning; any other damaged record is an error naming its line.
    package static func read(_ path: String) throws(Problem) -> Contents {
        let reader = try RecordReader(path: path)
        var records: [(record: JournalRecord, line: Int)] = []
        while let next = try reader.next() { records.append(next) }
        return Contents(records: records, warning: reader.warning, validLength: reader.validLength)
    }

    /// Reads a journal's records one at a time, in chunks: a journal of ten million actions
    /// is resumed without holding its bytes or its records (`read` holds both). Once `next`
    /// has said nil, `warning` and `validLength` are the journal's.
    package final class RecordReader {
        /// Set at the end when the last record was cut short (and so left out).
        package private(set) var warning: String?
        /// Bytes that are whole records so far (the whole journal's, at the end).
        package private(set) var validLength = 0
        /// Records read so far.
        package private(set) var count = 0
        private let path: String
        private let descriptor: Int32
        private var buffer: [UInt8] = []
        private var start = 0
        private var atEnd = false
        /// Lines taken so far: the number of the last one.
        private var linesTaken = 0
        private var finished = false

        /// Opens the journal at `path` and checks its first line. An empty file is a journal
        /// with no records.
        package init(path: String) throws(Problem) {
            self.path = path
            switch openForReading(path) {
            case .success(let opened): descriptor = opened
            case .failure(let error): throw Problem(message: "cannot read journal \(path): \(error.reason)")
            }
            guard let first = try line() else {  // an empty file: a new journal
                finished = true
                return
            }
            guard first.complete, first.bytes.elementsEqual(header.utf8) else {
                throw Problem(message: "\(path) is not a storesh journal (its first line should be '\(header)')")
            }
            validLength = first.bytes.count + 1
        }

        deinit {
            close(descriptor)
        }

        /// The next record and its line number; nil after the last one.
        package func next() throws(Problem) -> (record: JournalRecord, line: Int)? {
            guard !finished, let current = try line() else {
                finished = true
                return nil
            }
            let number = linesTaken
            let parsed = Journal.record(in: current.bytes)
            if case .success(let record) = parsed, current.complete {
                validLength += current.bytes.count + 1
                count += 1
                return (record, number)
            }
            // A bad line is forgiven only as the last: storesh stopped while writing it.
            if try line() == nil {
                warning =
                    "\(path):\(number): the last record was cut short (storesh stopped while writing it); it was dropped"
                finished = true
                return nil
            }
            let damage = if case .failure(let why) = parsed { why.reason } else { "" }
            throw Problem(
                message: "\(path):\(number): damaged record (\(damage)); the journal cannot be trusted past here")
        }

        /// The next line (without its line feed) and whether a line feed ended it; nil at
        /// the end of the file.
        private func line() throws(Problem) -> (bytes: ArraySlice<UInt8>, complete: Bool)? {
            var searched = 0  // bytes after `start` known to hold no line feed
            while true {
                if let end = buffer[(start + searched)...].firstIndex(of: 0x0A) {
                    let line = buffer[start..<end]
                    start = end + 1
                    linesTaken += 1
                    return (line, true)
                }
                if atEnd {
                    guard start < buffer.count else { return nil }
                    let line = buffer[start...]
                    start = buffer.count
                    linesTaken += 1
                    return (line, false)
                }
                searched = buffer.count - start
                try fill()
            }
        }

        /// Reads another chunk, dropping the bytes already taken.
        private func fill() throws(Problem) {
            if start > 0 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw Problem(message: "cannot read journal \(path): \(Journal.lastError)") }
                if count == 0 { atEnd = true } else { buffer.append(contentsOf: chunk[0..<count]) }
                return
            }
        }
    }

    /// Why a line is not a record.
    private struct Damage: Error {
        let reason: String
    }

    /// The record on one line, or why it is not one (its checksum, or its form).
    private static func record(in line: ArraySlice<UInt8>) -> Result<JournalRecord, Damage> {
        guard line.count > 9, let text = String(validating: line, as: UTF8.self) else {
            return .failure(Damage(reason: "not a checksummed line of text"))
        }
        guard UInt32(text.prefix(8), radix: 16) == CRC32.checksum(String(text.dropFirst(9))) else {
            return .failure(Damage(reason: "checksum does not match"))
        }
        guard let record = JournalRecord(line: text.dropFirst(9)) else {
            return .failure(Damage(reason: "not a record storesh writes"))
        }
        return .success(record)
    }
}
