import Foundation
import Testing

/// A fresh directory holding `files` (name → bytes).
private func directory(_ files: [String: [UInt8]]) throws -> String {
    let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent().appendingPathComponent(
        "files"
    ).path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, contents) in files { try Data(contents).write(to: URL(fileURLWithPath: directory + "/" + name)) }
    return directory
}

private let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

@Suite("Transcript files as editors and file systems leave them")
struct TranscriptFileTests {
    @Test func aByteOrderMarkIsAcceptedAndKept() throws {
        let passing = byteOrderMark + Array("# counts\n> increment\nincrement: state changed\n  ~ count: 0 → 1\n".utf8)
        let stale = byteOrderMark + Array("> increment\nold output\n".utf8)
        let folder = try directory(["passing.transcript": passing, "stale.transcript": stale])
        let run = try storesh(["test", folder + "/passing.transcript"])
        #expect(run.status == 0, "\(run.stdout)")
        let update = try storesh(["test", "--update", folder + "/stale.transcript"])
        #expect(update.stdout.contains("UPDATED"), "\(update.stdout)")
        #expect(!update.stdout.contains("-\u{FEFF}"), "the mark is not a difference: \(update.stdout)")
        let updated = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/stale.transcript")))
        #expect(updated == byteOrderMark + Array("> increment\nincrement: state changed\n  ~ count: 0 → 1\n".utf8))
    }

    @Test func aScriptWithAByteOrderMarkRunsItsFirstLine() throws {
        let folder = try directory(["s.storesh": byteOrderMark + Array("increment\n:state count\n".utf8)])
        let run = try storesh(["-f", folder + "/s.storesh"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("\n1\n"), "\(run.stdout)")
    }

    @Test func updateKeepsTheFilesInodeOwnerAndLinks() throws {
        let folder = try directory(["a.transcript": Array("> increment\nold output\n".utf8)])
        let first = folder + "/a.transcript"
        let second = folder + "/b.transcript"
        #expect(link(first, second) == 0, "a hard link")
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: first)
        let inode = try FileManager.default.attributesOfItem(atPath: first)[.systemFileNumber] as? UInt64
        // Owned by another user (storesh runs as root here, as CI does): it must stay theirs.
        let ownedByOther = getuid() == 0 && chown(first, 65534, 65534) == 0
        let update = try storesh(["test", "--update", second])
        #expect(update.stdout.contains("UPDATED"), "\(update.stdout)")
        let expected = "> increment\nincrement: state changed\n  ~ count: 0 → 1\n"
        #expect(try String(contentsOfFile: first, encoding: .utf8) == expected, "both names see the update")
        let attributes = try FileManager.default.attributesOfItem(atPath: first)
        #expect(attributes[.systemFileNumber] as? UInt64 == inode, "the same file, not a new one")
        #expect(attributes[.referenceCount] as? Int == 2, "still two links")
        #expect(attributes[.posixPermissions] as? Int == 0o664)
        if ownedByOther { #expect(attributes[.ownerAccountID] as? Int == 65534, "still the other user's") }
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path))?
                .contains { $0.hasPrefix("storesh-rewrite-") && $0.hasSuffix("b.transcript") } == false,
            "no copy left behind")
    }

    @Test func aReadOnlyTranscriptIsNotRewritten() throws {
        let source = "> increment\nold output\n"
        let folder = try directory(["ro.transcript": Array(source.utf8)])
        let file = folder + "/ro.transcript"
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        let update = try storesh(["test", "--update", file])
        #expect(update.status == 1)
        #expect(
            update.stdout.contains("cannot write it: it is read-only (mode 444); make it writable to update it"),
            "\(update.stdout)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == source)
    }
}
