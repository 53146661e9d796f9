import Foundation
import HostTestSupport
import StoreShell
import Testing

/// The one rule for every file storesh writes whole (`OutputFile`): what is at the path
/// decides, and nothing is renamed over what is not a regular file.
@Suite("Files storesh writes")
struct OutputFileTests {
    func explore(_ path: String, overwrite: Bool = false) -> OutputFile {
        OutputFile(path: path, kind: .exploreTranscript, force: overwrite, hint: "--overwrite")
    }

    func report(_ path: String) -> OutputFile {
        OutputFile(path: path, kind: .junitReport, force: false, hint: "--force")
    }

    func kind(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    func problem(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return (error as? OutputFile.Problem)?.description ?? "\(error)"
        }
    }

    @Test func aFileStoreshWroteIsReplacedAnotherOnlyWhenTheUserSays() throws {
        let folder = try Fixtures.directory().path
        let path = folder + "/Counter.transcript"
        try explore(path).write("# Found by storesh explore (seed 1): a bug\n> a\n")
        try explore(path).write("# Found by storesh explore (seed 2): a bug\n> b\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("> b\n"), "its own file is replaced")
        try "my notes\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(
            problem { try explore(path).check() }
                == "\(path) exists and storesh did not write it; --overwrite replaces it")
        #expect(problem { try explore(path).write("# Found by storesh explore\n") } != nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "my notes\n", "left as it was")
        try explore(path, overwrite: true).write("# Found by storesh explore\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# Found by storesh explore\n")
        let saved = OutputFile(
            path: path, named: "t", kind: .savedTranscript, force: false, hint: "':save-test t --force'")
        #expect(
            problem { try saved.check() } == "t already exists; ':save-test t --force' replaces it",
            "a saved test is replaced only when asked, whoever wrote it")
    }

    /// As root, `--out /dev/full` made the device a regular file: the temporary file
    /// was renamed over it. Only root can fail this (no one else may rename in /dev);
    /// `aFIFOIsRefusedOrWrittenThroughAndNeverWaitedOn` holds the same rule for anyone.
    @Test func aDeviceIsNeverReplacedAndIsWrittenThroughOnlyAsAStream() throws {
        #expect(
            problem { try explore("/dev/full", overwrite: true).write("x\n") }
                == "cannot write /dev/full: it is a character device, not a regular file")
        #expect(kind("/dev/full") == S_IFCHR, "still a device")
        try report("/dev/null").write("<testsuites/>\n")
        #expect(kind("/dev/null") == S_IFCHR)
        #expect(
            problem { try report("/dev/full").write("<testsuites/>\n") }
                == "cannot write /dev/full: No space left on device")
        #expect(
            problem { try explore("/dev/stdout").check() }
                == "cannot write /dev/stdout: it is a stream, not a file; give a file name")
    }

    @Test func aDirectoryAMissingFolderAndADanglingLinkAreRefused() throws {
        let folder = try Fixtures.directory().path
        #expect(
            problem { try explore(folder, overwrite: true).check() }
                == "cannot write \(folder): it is a directory; give a file name")
        #expect(
            problem { try explore(folder + "/no/such.transcript").check() }
                == "cannot write \(folder)/no/such.transcript: no such directory \(folder)/no")
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: folder + "/gone")
        #expect(
            problem { try explore(folder + "/dangling").check() }
                == "cannot write \(folder)/dangling: it is a symbolic link to nothing; give a file name")
    }

    @Test func aFIFOIsRefusedOrWrittenThroughAndNeverWaitedOn() throws {
        let folder = try Fixtures.directory().path
        let fifo = folder + "/pipe"
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(
            problem { try explore(fifo, overwrite: true).write("x\n") }
                == "cannot write \(fifo): it is a FIFO, not a regular file")
        let began = Date()
        #expect(problem { try report(fifo).write("x\n") } == "cannot write \(fifo): no process reads it")
        #expect(Date().timeIntervalSince(began) < 2, "no wait for a reader")
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try report(fifo).write("<testsuites/>\n")
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(0, count)), as: UTF8.self) == "<testsuites/>\n")
        #expect(kind(fifo) == S_IFIFO)
    }

    @Test func aLinkToAFileKeepsBeingALinkAndItsFileIsReplaced() throws {
        let folder = try Fixtures.directory().path
        try "<testsuite name=\"storesh transcripts\">\n".write(
            toFile: folder + "/real.xml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.xml", withDestinationPath: "real.xml")
        try report(folder + "/link.xml").write("<testsuite name=\"storesh transcripts\" tests=\"2\">\n")
        var status = stat()
        #expect(lstat(folder + "/link.xml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(try String(contentsOfFile: folder + "/real.xml", encoding: .utf8).contains("tests=\"2\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link.xml", "real.xml"])
    }

    /// An empty file counted as storesh's own, through a link too: as root, a link someone
    /// planted to an empty file of root's had that file replaced.
    @Test func anEmptyFileIsOwnOnlyWhenItIsTheUsersAndNoLinkLeadsThere() throws {
        let folder = try Fixtures.directory().path
        try "".write(toFile: folder + "/empty.xml", atomically: false, encoding: .utf8)
        try report(folder + "/empty.xml").write("<testsuite name=\"storesh transcripts\">\n")
        try "".write(toFile: folder + "/target.xml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.xml", withDestinationPath: "target.xml")
        #expect(
            problem { try report(folder + "/link.xml").check() }
                == "\(folder)/link.xml exists and storesh did not write it; --force replaces it")
        try OutputFile(path: folder + "/link.xml", kind: .junitReport, force: true, hint: "--force").write("x\n")
        #expect(try String(contentsOfFile: folder + "/target.xml", encoding: .utf8) == "x\n", "--force writes it")
        // Another user's link and another user's empty file: only root can make them.
        guard geteuid() == 0 else { return }
        try "".write(toFile: folder + "/theirs.xml", atomically: false, encoding: .utf8)
        try #require(chown(folder + "/theirs.xml", 4242, 4242) == 0)
        #expect(problem { try report(folder + "/theirs.xml").check() } != nil, "not root's own")
        try "<testsuite name=\"storesh transcripts\">\n".write(
            toFile: folder + "/mine.xml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/planted.xml", withDestinationPath: "mine.xml")
        try #require(lchown(folder + "/planted.xml", 4242, 4242) == 0)
        #expect(
            problem { try report(folder + "/planted.xml").check() }
                == "\(folder)/planted.xml is a symbolic link another user owns; --force replaces the file it points to")
    }

    /// A file in a folder storesh cannot write passed the check and failed at the end, after
    /// the whole search (exit 3, not 2). Root writes anywhere, so only others can fail it.
    @Test(.enabled(if: geteuid() != 0, "root writes into any folder"))
    func aFileInAFolderStoreshCannotWriteIsRefusedUpFront() throws {
        let folder = try Fixtures.directory().path + "/locked"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try "# Found by storesh explore\n".write(toFile: folder + "/t.transcript", atomically: false, encoding: .utf8)
        try #require(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        #expect(
            problem { try explore(folder + "/t.transcript").check() }
                == "cannot write \(folder)/t.transcript: \(folder): Permission denied")
    }

    /// The temporary file was `.NAME.storesh-PID.tmp`, made with O_EXCL: in a container,
    /// where storesh runs as the same pid every time, one left by a killed run blocked
    /// every write after it; and a long NAME made it longer than a name may be.
    @Test func aTemporaryFileLeftBehindOrALongNameIsNoObstacle() throws {
        let folder = try Fixtures.directory().path
        let left = folder + "/.Counter.transcript.storesh-\(getpid()).tmp"
        try "half a transcript".write(toFile: left, atomically: false, encoding: .utf8)
        try explore(folder + "/Counter.transcript").write("# Found by storesh explore\n")
        #expect(try String(contentsOfFile: folder + "/Counter.transcript", encoding: .utf8).hasPrefix("# Found"))
        let long = folder + "/" + String(repeating: "é", count: 120) + ".transcript"  // 251 bytes
        try explore(long).write("# Found by storesh explore\n")
        try explore(long).write("# Found by storesh explore (again)\n")
        #expect(try String(contentsOfFile: long, encoding: .utf8).contains("again"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).count == 3, "nothing left beside them")
    }

    @Test func aReplacedFileKeepsItsMode() throws {
        let folder = try Fixtures.directory().path + "/private.xml"
        try "<testsuite name=\"storesh transcripts\">\n".write(toFile: folder, atomically: false, encoding: .utf8)
        try #require(chmod(folder, 0o640) == 0)
        try report(folder).write("<testsuite name=\"storesh transcripts\" tests=\"1\">\n")
        var status = stat()
        #expect(stat(folder, &status) == 0 && status.st_mode & 0o7777 == 0o640)
        #expect(try String(contentsOfFile: folder, encoding: .utf8).contains("tests=\"1\""))
    }
}
