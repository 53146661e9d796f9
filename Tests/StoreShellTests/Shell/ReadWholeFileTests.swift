import Foundation
import HostTestSupport
import StoreShell
import Testing

/// Files storesh reads whole (journals, transcripts) are read from whatever the path
/// names, and a failure says why in the system's words.
@Suite("Reading a file whole")
struct ReadWholeFileTests {
    @Test func aFileADeviceAndAPipeAreReadToTheirEnd() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-read-\(UUID())").path
        let text = String(repeating: "line of text\n", count: 10_000)  // more than one read's chunk
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try readWholeFile(path).get() == Array(text.utf8))
        #expect(try readWholeFile("/dev/null").get() == [], "FileManager.contents(atPath:) gave nil here")
    }

    @Test func whyAFileCannotBeReadIsTheSystemsReason() {
        #expect(failure(readWholeFile("/nonexistent/file")) == "No such file or directory")
        #expect(failure(readWholeFile(FileManager.default.temporaryDirectory.path)) == "it is a directory")
        #expect(failure(readWholeFile("/dev/null/x")) == "Not a directory")
    }

    private func failure(_ result: Result<[UInt8], FileReadError>) -> String? {
        if case .failure(let error) = result { return error.reason }
        return nil
    }
}
