import Foundation
import Glibc
import StoreHost

/// A child storesh of `storesh test --jobs`, started with `posix_spawn` and waited for with
/// `waitpid`, so its end is known when it ends, whatever it left running. (Foundation's
/// `Process` learns of a child's end from a socket it hands down, which every process the
/// child starts inherits too: a helper a model left running held the whole run until the
/// helper ended.)
struct ChildProcess {
    /// How the child ended.
    typealias Ending = Spawn.Ending

    let pid: pid_t
    /// The read ends of the child's standard output and standard error.
    let output: Int32, errors: Int32

    /// Starts `executable` with `arguments` and `environment` (this process's by default), standard input
    /// from /dev/null, standard output and error on pipes, and no other descriptor of this
    /// process (a runner's own pipes and sockets stay with it). Throws what went wrong.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil)
        throws(Spawn.Failure) -> ChildProcess
    {
        let outputPipe = try Spawn.pipe()
        let errorPipe: (read: Int32, write: Int32)
        do {
            errorPipe = try Spawn.pipe()
        } catch {
            close(outputPipe.read)
            close(outputPipe.write)
            throw error
        }
        defer {
            close(outputPipe.write)
            close(errorPipe.write)
        }
        do {
            let child = try Spawn.start(
                executable, arguments: arguments, environment: environment,
                descriptors: [.nullInput, .copy(of: outputPipe.write), .copy(of: errorPipe.write)])
            return ChildProcess(pid: child, output: outputPipe.read, errors: errorPipe.read)
        } catch {
            close(outputPipe.read)
            close(errorPipe.read)
            throw error
        }
    }

    /// Writes all of `bytes` to `fd`, or what it takes before `fd` refuses more.
    private static func write(_ bytes: ArraySlice<UInt8>, to fd: Int32) {
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.write(fd, raw.baseAddress! + sent, raw.count - sent)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    /// Waits for the child to end (only this child: others are not reaped).
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        return Ending(waitStatus: status)
    }

    /// Reads `fd` into `bytes` until its writers have all closed it, on a thread of its own;
    /// then closes it. With `forwardingTo`, what is read is written there too, as it comes.
    static func drain(_ fd: Int32, into bytes: ReadBytes, forwardingTo forward: Int32? = nil) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                if let forward { Self.write(buffer[0..<count], to: forward) }
                bytes.append(Data(buffer[0..<count]))
            }
            close(fd)
            bytes.finish()
        }.start()
    }
}

/// Bytes read on one thread and looked at from another.
final class ReadBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    private var finished = false

    func append(_ data: Data) {
        lock.lock()
        stored.append(data)
        lock.unlock()
    }

    func finish() {
        lock.lock()
        finished = true
        lock.unlock()
    }

    var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }

    var value: Data {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
