import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end through `posix_spawn`, its standard output read to the end
/// through a pipe, and times it with `waitpid`. Foundation's `Process.waitUntilExit()` on
/// Linux notices the exit by running the run loop in 50 ms steps: a timing through it
/// gains up to 50 ms (measured: `/bin/true` takes 1–2 ms to start and 50 ms to be seen
/// ending), more than a whole Todos script takes.
///
/// Output nobody checks is read and dropped, as `| cat > /dev/null` would. Kept, the 13 MB
/// of JSON records of 100,000 Counter actions grew an array here, whose copies and page
/// faults took time from the two cores storesh and its worker were using: the JSON run
/// measured 1.87–2.03× the quiet run that way, 1.71–1.76× with the output dropped (median
/// of 7 paired rounds, same binaries). A run in process, one busy thread, is unaffected.
enum Spawn {
    struct Run {
        var seconds: Double
        var output: [UInt8]
        /// The exit status; nil when the program did not exit (a signal).
        var status: Int32?
        /// How many lines it wrote to standard output (`output` holds them all only when kept).
        var outputLines: Int
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `executable` to its end; `keepOutput` false keeps only the first 4 KiB of its
    /// standard output (for an error message) and reads the rest to drop it.
    static func run(_ executable: String, _ arguments: [String], keepOutput: Bool = true) throws(Failure) -> Run {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw Failure(description: "\(executable): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var outputLines = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                outputLines += buffer[0..<count].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                if keepOutput {
                    output += buffer[0..<count]
                } else if output.count < 4096 {
                    output += buffer[0..<min(count, 4096 - output.count)]
                }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(pipeEnds[0])
        var waitStatus: Int32 = 0
        while waitpid(pid, &waitStatus, 0) == -1, errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
        let exited = waitStatus & 0x7F == 0
        return Run(
            seconds: seconds, output: output, status: exited ? (waitStatus >> 8) & 0xFF : nil, outputLines: outputLines)
    }
}
