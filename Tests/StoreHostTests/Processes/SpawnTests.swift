import Foundation
import Glibc
import HostTestSupport
import StoreHost
import Testing

/// The one way storesh starts processes: a child gets the descriptors it is handed and no
/// other, an empty signal mask whatever its starter's, and its pipes' ends stay out of
/// every other child.
@Suite("Starting a child process")
struct SpawnTests {
    @Test func aChildGetsWhatItIsHandedAndNothingElse() throws {
        // A descriptor of this process that is not close-on-exec, and a blocked signal. Its
        // number is the kernel's choice: the test runner runs other tests in this process
        // at the same time, and a number chosen here (dup2 onto 57, as this test once did)
        // closed whatever another test had there — a worker's pipe, which then exited.
        let stray = fcntl(STDERR_FILENO, F_DUPFD, 10)
        #expect(stray >= 10 && fcntl(stray, F_GETFD) & FD_CLOEXEC == 0)
        defer { close(stray) }
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        // Each program reports on itself (/proc/self): a shell would report the mask it
        // sets for itself while it starts a command.
        let descriptors = try output(of: "/bin/ls", ["/proc/self/fd"]).split(separator: "\n").compactMap { Int($0) }
        #expect(descriptors.contains(0) && descriptors.contains(1) && descriptors.contains(2), "\(descriptors)")
        // ls's own directory is the one more; not the stray, nor the pipe's ends (10 and above).
        #expect(descriptors.allSatisfy { $0 < 10 }, "\(descriptors)")
        #expect(try output(of: "/bin/grep", ["SigBlk", "/proc/self/status"]) == "SigBlk:\t0000000000000000\n")
        #expect(try output(of: "/bin/readlink", ["/proc/self/fd/0"]) == "/dev/null\n")
    }

    /// What `program` writes to standard output (and error), run to its end as Spawn starts it.
    private func output(of program: String, _ arguments: [String]) throws -> String {
        let output = try Spawn.pipe()
        #expect(output.read >= 10 && output.write >= 10)
        #expect(fcntl(output.read, F_GETFD) & FD_CLOEXEC != 0 && fcntl(output.write, F_GETFD) & FD_CLOEXEC != 0)
        let child: pid_t
        do {
            child = try Spawn.start(
                program, arguments: arguments,
                descriptors: [.nullInput, .copy(of: output.write), .copy(of: output.write)])
        } catch {
            close(output.read)
            close(output.write)
            throw error
        }
        close(output.write)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output.read, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        close(output.read)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        #expect(Spawn.Ending(waitStatus: status) == .exited(0), "\(program)")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every test target runs in one process, many tests at once: a test that puts a
    /// descriptor at a number of its choosing (dup2 onto 57), or closes one by number,
    /// closes whatever another test holds there — a worker's pipe, whose worker then
    /// exits as if its shell were gone. Descriptor numbers in tests are the kernel's.
    @Test func noTestChoosesADescriptorNumber() throws {
        let tests = Fixtures.repository.appendingPathComponent("Tests")
        let files =
            FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { ["swift", "c"].contains($0.pathExtension) } ?? []
        #expect(files.count > 50, "the test sources are where this test expects them")
        let chosen = try Regex(#"\bdup2\([^,()]+,\s*[0-9]+\s*\)|\bclose\(\s*[0-9]+\s*\)"#)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(chosen) {
                found.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aProgramThatCannotStartSaysWhy() {
        #expect(throws: Spawn.Failure(errno: ENOENT)) {
            try Spawn.start("/nonexistent/program", descriptors: [.nullInput])
        }
    }

    @Test func waitStatusesAreDecoded() {
        #expect(Spawn.Ending(waitStatus: 3 << 8) == .exited(3))
        #expect(Spawn.Ending(waitStatus: SIGKILL) == .signalled(SIGKILL))
    }
}
