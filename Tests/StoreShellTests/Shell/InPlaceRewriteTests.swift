import Foundation
import StoreShell
import Testing

/// `rewriteInPlace` (what `storesh test --update` writes with) keeps a copy of the old
/// contents in the temporary folder first.
@Suite("Rewriting a file in place")
struct InPlaceRewriteTests {
    /// The copy went to `storesh-rewrite-PID-NAME`, a name anyone could foresee, opened
    /// without O_EXCL: a link put there beforehand had the old contents written through it,
    /// over the file it points to.
    @Test func aLinkWhereTheCopyOnceWentIsNotWrittenThrough() throws {
        let temporary = FileManager.default.temporaryDirectory.path
        let name = "rewritten-\(UUID()).transcript"
        let folder = temporary + "/storesh-rewrite-test-\(UUID())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/" + name
        let victim = folder + "/victim"
        try "old contents\n".write(toFile: file, atomically: false, encoding: .utf8)
        try "the victim's own\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let foreseen = temporary + "/storesh-rewrite-\(getpid())-\(name)"
        try FileManager.default.createSymbolicLink(atPath: foreseen, withDestinationPath: victim)
        defer { unlink(foreseen) }
        try rewriteInPlace(file, with: Array("new contents\n".utf8))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new contents\n")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the victim's own\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.contains(name) }
        #expect(left == ["storesh-rewrite-\(getpid())-\(name)"], "the copy is removed after the write: \(left)")
    }
}
