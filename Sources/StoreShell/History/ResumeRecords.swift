import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Journal {
    /// Whether `path` names a regular file (which can be read twice, and locked).
    static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}

/// A resumed journal's records, in order: read from its file as they are replayed, or
/// held (a journal read from a pipe or a device).
enum JournalRecords {
    case file(Journal.RecordReader)
    case held(ArraySlice<(record: JournalRecord, line: Int)>)

    /// The next record and its line; nil after the last.
    mutating func next() throws(Journal.Problem) -> (JournalRecord, Int)? {
        switch self {
        case .file(let reader):
            return try reader.next().map { ($0.record, $0.line) }
        case .held(var records):
            guard let first = records.popFirst() else { return nil }
            self = .held(records)
            return (first.record, first.line)
        }
    }
}

/// What a resume keeps of the records it replayed: the plugins loaded and models used
/// (to tell what the command line adds), and, when the session goes on in a new journal,
/// that journal, which gets each kept record as it is replayed.
final class KeptRecords {
    private(set) var loadsAndUses: [JournalRecord] = []
    /// The new journal the session goes on in (`--journal NEW --resume OLD`).
    let copy: Journal?
    /// Why a record could not be copied (the resume then fails with it).
    private(set) var copyProblem: Journal.Problem?
    /// Whether the copy's file was made by this resume (and so is removed if it fails).
    private let madeCopyFile: Bool

    init(copy: Journal?, madeCopyFile: Bool) {
        self.copy = copy
        self.madeCopyFile = madeCopyFile
    }

    func keep(_ record: JournalRecord) {
        switch record {
        case .load, .use: loadsAndUses.append(record)
        default: break
        }
        guard let copy, copyProblem == nil else { return }
        do throws(Journal.Problem) { try copy.append(record) } catch { copyProblem = error }
    }

    /// A resume that failed leaves no new journal behind.
    func abandonCopy(at path: String) {
        if copy != nil, madeCopyFile { unlink(path) }
    }
}
