import StoreHost
import Foundation

extension Journal {
    /// What a journal file holds: its records with their line numbers, a warning when the
    /// last record was torn, and how many bytes are whole records (where to append next).
    public struct Contents {
        public var records: [(record: JournalRecord, line: Int)]
        public var warning: String?
        public var validLength: Int
    }

    /// Reads the journal at `path`. A torn last record (storesh stopped while writing it)
    /// is left out with a warning; any other damaged record is an error naming its line.
    public static func read(_ path: String) throws(Problem) -> Contents {
        let bytes: [UInt8]
        switch readWholeFile(path) {
        case .success(let read): bytes = read
        case .failure(let error): throw Problem(message: "cannot read journal \(path): \(error.reason)")
        }
        if bytes.isEmpty { return Contents(records: [], warning: nil, validLength: 0) } // a new, empty file
        var lines: [ArraySlice<UInt8>] = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let complete = bytes.last == 0x0A
        if complete { lines.removeLast() }
        guard let first = lines.first, first.elementsEqual(header.utf8), lines.count > 1 || complete else {
            throw Problem(message: "\(path) is not a storesh journal (its first line should be '\(header)')")
        }
        var contents = Contents(records: [], warning: nil, validLength: first.count + 1)
        for (index, line) in lines.enumerated().dropFirst() {
            let isLast = index == lines.count - 1
            let parsed = record(in: line)
            if case .success(let record) = parsed, !isLast || complete {
                contents.records.append((record, index + 1))
                contents.validLength += line.count + 1
                continue
            }
            if isLast {
                contents.warning = "\(path):\(index + 1): the last record was cut short (storesh stopped while writing it); it was dropped"
                return contents
            }
            let damage = if case .failure(let why) = parsed { why.reason } else { "" }
            throw Problem(message: "\(path):\(index + 1): damaged record (\(damage)); the journal cannot be trusted past here")
        }
        return contents
    }

    /// Why a line is not a record.
    private struct Damage: Error {
        let reason: String
    }

    /// The record on one line, or why it is not one (its checksum, or its form).
    private static func record(in line: ArraySlice<UInt8>) -> Result<JournalRecord, Damage> {
        guard line.count > 9, let text = String(validating: line, as: UTF8.self) else { return .failure(Damage(reason: "not a checksummed line of text")) }
        guard UInt32(text.prefix(8), radix: 16) == CRC32.checksum(String(text.dropFirst(9))) else { return .failure(Damage(reason: "checksum does not match")) }
        guard let record = JournalRecord(line: text.dropFirst(9)) else { return .failure(Damage(reason: "not a record storesh writes")) }
        return .success(record)
    }
}
