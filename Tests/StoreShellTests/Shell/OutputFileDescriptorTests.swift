import Foundation
import HostTestSupport
import StoreShell
import Testing

/// `--junit /dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor of storesh's,
/// written at its offset — and only a descriptor: any other path under those folders is a
/// path like any other, under the file rule.
@Suite("Descriptors storesh writes through")
struct OutputFileDescriptorTests {
    func report(_ path: String, force: Bool = false) -> OutputFile {
        OutputFile(path: path, kind: .junitReport, force: force, hint: "--force")
    }

    func problem(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? OutputFile.Problem)?.description ?? "\(error)"
        }
    }

    /// Opens `path`; the number is the kernel's (tests run side by side in one process,
    /// so none may choose one: SpawnTests.noTestChoosesADescriptorNumber).
    func open(_ path: String, flags: Int32) throws -> Int32 {
        let descriptor = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        return descriptor
    }

    /// A descriptor number no test holds now (opened and closed again at once).
    /// A closed descriptor number that stays closed while the test runs: far above the ones
    /// the process uses. (The lowest free number, which this took before, is the next one
    /// any open in the process gets: a test running beside it took it, read-only, and the
    /// refusal named that instead; seen in CI.)
    func closedNumber() throws -> Int32 {
        var number: Int32 = 900
        while fcntl(number, F_GETFD) != -1 { number += 1 }
        return number
    }

    /// `/dev/fd/../../../home/u/notes.txt` was taken for a descriptor with no number and
    /// written through: over the start of a file storesh did not write, unchecked.
    @Test func aPathThroughTheDescriptorFolderIsAPathLikeAnyOther() throws {
        let folder = try Fixtures.directory().path
        let notes = folder + "/notes.txt"
        try "my notes, a long line of them\n".write(toFile: notes, atomically: false, encoding: .utf8)
        let around = "/dev/fd/../../.." + notes
        #expect(
            problem { try report(around).write("<testsuites/>\n") }
                == "\(around) exists and storesh did not write it; --force replaces it")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes, a long line of them\n")
        try report(around, force: true).write("<testsuites/>\n")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "<testsuites/>\n", "replaced whole when told")
    }

    /// `--junit /dev/fd/7` with descriptor 7 closed passed the check, and at the end
    /// wrote into whatever storesh had opened as descriptor 7 meanwhile.
    @Test func aClosedDescriptorIsRefusedUpFrontAndAReusedOneAtTheEnd() throws {
        let folder = try Fixtures.directory().path
        let closed = try closedNumber()
        let refused = problem { try report("/dev/fd/\(closed)").check() }
        // Another test may have opened that number meanwhile; then it is open, and checked.
        #expect(refused == nil || refused == "cannot write /dev/fd/\(closed): descriptor \(closed) is not open")
        let number = try open(folder + "/report.xml", flags: O_WRONLY | O_CREAT)
        defer { close(number) }
        let file = report("/dev/fd/\(number)")
        try file.check()
        // The same number, now on another file: replaced atomically on a descriptor this test owns.
        try "storesh's own file\n".write(toFile: folder + "/own", atomically: false, encoding: .utf8)
        let other = try open(folder + "/own", flags: O_WRONLY)
        try #require(dup2(other, number) == number)
        close(other)
        #expect(
            problem { try file.write("<testsuites/>\n") }
                == "cannot write /dev/fd/\(number): descriptor \(number) was closed and opened on something else since storesh checked it"
        )
        #expect(try String(contentsOfFile: folder + "/own", encoding: .utf8) == "storesh's own file\n")
    }

    /// A write refused because the descriptor changed kept what `check` had seen of it, so
    /// the next file opened on that number was refused too (this suite's tests failed
    /// whenever one reused the number another had left so).
    @Test func aRefusedWriteLeavesNothingBehindForTheNumber() throws {
        let folder = try Fixtures.directory().path
        let number = try open(folder + "/first", flags: O_WRONLY | O_CREAT)
        defer { close(number) }
        try report("/dev/fd/\(number)").check()
        let second = try open(folder + "/second", flags: O_WRONLY | O_CREAT)
        try #require(dup2(second, number) == number)
        close(second)
        #expect(problem { try report("/dev/fd/\(number)").write("<a/>\n") } != nil, "refused: it changed")
        // The number is this test's, now open on a third file: checked and written afresh.
        let third = try open(folder + "/third", flags: O_WRONLY | O_CREAT)
        try #require(dup2(third, number) == number)
        close(third)
        let file = report("/dev/fd/\(number)")
        try file.check()
        try file.write("<b/>\n")
        #expect(try String(contentsOfFile: folder + "/third", encoding: .utf8) == "<b/>\n")
    }

    /// `storesh test --junit /dev/fd/3 3>>log`: the report goes after what the log held.
    @Test func aDescriptorIsWrittenAtItsOffset() throws {
        let folder = try Fixtures.directory().path
        let log = folder + "/log"
        try "before\n".write(toFile: log, atomically: false, encoding: .utf8)
        let number = try open(log, flags: O_WRONLY)
        defer { close(number) }
        #expect(lseek(number, 0, SEEK_END) == 7)
        for path in ["/dev/fd/\(number)", "/proc/self/fd/\(number)"] {
            let file = report(path)
            try file.check()
            try file.write("<\(path)/>\n")
        }
        #expect(
            try String(contentsOfFile: log, encoding: .utf8)
                == "before\n</dev/fd/\(number)/>\n</proc/self/fd/\(number)/>\n")
    }

    @Test func theStandardInputAndADescriptorOpenForReadingAreRefused() throws {
        let folder = try Fixtures.directory().path
        for path in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"] {
            #expect(
                problem { try report(path).check() }
                    == "cannot write \(path): it is the standard input; give a file name or /dev/stdout")
        }
        try "x\n".write(toFile: folder + "/read", atomically: false, encoding: .utf8)
        let number = try open(folder + "/read", flags: O_RDONLY)
        defer { close(number) }
        #expect(
            problem { try report("/dev/fd/\(number)").check() }
                == "cannot write /dev/fd/\(number): descriptor \(number) is open for reading only")
    }
}
