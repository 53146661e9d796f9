import Foundation
import StoreHost
import TestSupport
import Testing

/// The built storesh, beside this test bundle — or `$STORESH_BINARY`, to run these tests
/// against another build (an older one, to see a test fail before its fix).
let storeshBinary: String = {
    if let chosen = ProcessInfo.processInfo.environment["STORESH_BINARY"] { return chosen }
    var url = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
        .deletingLastPathComponent()
    while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("storesh").path) {
        url.deleteLastPathComponent()
    }
    return url.appendingPathComponent("storesh").path
}()

struct Run {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs storesh with `arguments`, feeding `input` on standard input (a pipe, so not a
/// terminal), with history kept away from the user's.
func storesh(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Run {
    try run(storeshBinary, arguments, input: Data(input.utf8), environment: extra)
}

/// Runs `executable` (a path) with `arguments` and `input` on standard input, started
/// with `posix_spawn` and reaped with `waitpid` (storesh's own `Spawn`). Foundation's
/// `Process` learns of a child's end from a socket every process started meanwhile may
/// inherit: with tests starting processes in parallel, a wait for a child long gone hung
/// the whole suite.
func run(_ executable: String, _ arguments: [String], input: Data, environment extra: [String: String] = [:]) throws
    -> Run
{
    signal(SIGPIPE, SIG_IGN)  // a program may stop reading before all input is written
    var environment = ProcessInfo.processInfo.environment
    environment["STORESH_HISTORY"] =
        FileManager.default.temporaryDirectory.appendingPathComponent("storesh-test-history-\(UUID())").path
    environment.merge(extra) { $1 }
    let (stdin, stdout, stderr) = (try Spawn.pipe(), try Spawn.pipe(), try Spawn.pipe())
    let child: pid_t
    do {
        child = try Spawn.start(
            executable, arguments: arguments, environment: environment,
            descriptors: [.copy(of: stdin.read), .copy(of: stdout.write), .copy(of: stderr.write)])
    } catch {
        for fd in [stdin.read, stdin.write, stdout.read, stdout.write, stderr.read, stderr.write] { close(fd) }
        throw error
    }
    for fd in [stdin.read, stdout.write, stderr.write] { close(fd) }
    // Fed on a thread of its own: the program may answer before it has read everything.
    let feeding = Thread {
        input.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(stdin.write, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { break }
            }
        }
        close(stdin.write)
    }
    feeding.start()
    let errors = Locked<Data?>(nil)
    Thread {
        let data = readAll(stderr.read)
        errors.update { $0 = data }
    }.start()
    let out = readAll(stdout.read)
    while errors.current == nil { usleep(1000) }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0, errno == EINTR {}
    let code: Int32 =
        switch Spawn.Ending(waitStatus: status) {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
    return Run(
        status: code, stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: errors.current ?? Data(), as: UTF8.self))
}

/// Everything readable from `fd` until its writers close it; then closes it.
private func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        data.append(contentsOf: buffer[0..<count])
    }
    close(fd)
    return data
}

/// A file in a fresh temporary directory.
func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The fault-injection library (Tests/FaultShim/faultshim.c), built once per test run
/// with the system's C compiler: loaded with LD_PRELOAD, it makes writes to the files
/// whose path holds STORESH_FAULT_PATH fail (a full disk, a failing device).
let faultShim: String = {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FaultShim/faultshim.c").path
    let library = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-faultshim-\(getpid()).so").path
    let built = try? run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-o", library, source, "-ldl"], input: Data())
    precondition(built?.status == 0, "the fault shim did not build: \(built?.stderr ?? "cc did not run")")
    return library
}()

/// Tests/Plugins/unruly.c, a C model that misbehaves at the process boundary (it exits
/// mid-request, floods and withholds output, grows a large state), built once per test
/// run with the system's C compiler against storeplugin.h alone.
let unrulyPlugin: String = {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let header = tests.deletingLastPathComponent().appendingPathComponent("Sources/CStorePlugin/include").path
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-unruly-\(getpid())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let library = directory.appendingPathComponent("libUnruly.so").path
    let built = try? run(
        "/usr/bin/env",
        ["cc", "-shared", "-fPIC", "-I", header, "-o", library, tests.appendingPathComponent("Plugins/unruly.c").path],
        input: Data())
    precondition(built?.status == 0, "the Unruly test plugin did not build: \(built?.stderr ?? "cc did not run")")
    return library
}()

/// Runs storesh as a shell would start it: SIGPIPE at its default action, whatever this
/// test process ignores (ignored signals are inherited across exec).
func storeshWithDefaultSignals(_ arguments: [String], input: String = "") throws -> Run {
    try run("/usr/bin/env", ["--default-signal=PIPE", storeshBinary] + arguments, input: Data(input.utf8))
}

/// Tests/Plugins/planted.c, models with bugs on purpose for `storesh explore`, built with
/// the system's C compiler into `directory`/libplanted.so: as written, or with every bug
/// fixed (`-DFIXED`).
func buildPlanted(into directory: String, fixed: Bool) throws -> String {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let header = tests.deletingLastPathComponent().appendingPathComponent("Sources/CStorePlugin/include").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let library = directory + "/libplanted.so"
    let built = try run(
        "/usr/bin/env",
        ["cc", "-shared", "-fPIC", "-I", header] + (fixed ? ["-DFIXED"] : []) + [
            "-o", library, tests.appendingPathComponent("Plugins/planted.c").path,
        ], input: Data())
    guard built.status == 0 else { throw CompileFailure(message: built.stderr) }
    return library
}

struct CompileFailure: Error { let message: String }
