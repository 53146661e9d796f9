import Foundation
import Glibc
import StoreHost
import Testing

/// The one way storesh starts processes: a child gets the descriptors it is handed and no
/// other, an empty signal mask whatever its starter's, and its pipes' ends stay out of
/// every other child.
@Suite("Starting a child process")
struct SpawnTests {
    @Test func aChildGetsWhatItIsHandedAndNothingElse() throws {
        // A descriptor of this process that is not close-on-exec, and a blocked signal.
        let stray = dup2(STDERR_FILENO, 57)
        #expect(stray == 57)
        defer { close(57) }
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR1)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let output = try Spawn.pipe()
        #expect(output.read >= 10 && output.write >= 10)
        #expect(fcntl(output.read, F_GETFD) & FD_CLOEXEC != 0 && fcntl(output.write, F_GETFD) & FD_CLOEXEC != 0)
        let script = "ls /proc/$$/fd; grep SigBlk /proc/$$/status; read line; echo \"input: [$line]\""
        let child = try Spawn.start("/bin/sh", arguments: ["-c", script], descriptors: [.nullInput, .copy(of: output.write), .copy(of: output.write)])
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
        #expect(Spawn.Ending(waitStatus: status) == .exited(0))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        // sh's own descriptors, as ls lists them: the three handed down and no other.
        #expect(lines.filter { $0.allSatisfy(\.isNumber) } == ["0", "1", "2"], "\(lines)")
        #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines)")
        #expect(lines.last == "input: []")
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
