import Foundation
import Testing
import TestSupport

/// The built storesh, beside this test bundle — or `$STORESH_BINARY`, to run these tests
/// against another build (an older one, to see a test fail before its fix).
let storeshBinary: String = {
    if let chosen = ProcessInfo.processInfo.environment["STORESH_BINARY"] { return chosen }
    var url = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().deletingLastPathComponent()
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

/// Runs `executable` with `arguments` and `input` on standard input.
func run(_ executable: String, _ arguments: [String], input: Data, environment extra: [String: String] = [:]) throws -> Run {
    signal(SIGPIPE, SIG_IGN) // a program may stop reading before all input is written
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["STORESH_HISTORY"] = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-test-history-\(UUID())").path
    environment.merge(extra) { $1 }
    process.environment = environment
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Fed on a thread of its own: storesh may answer before it has read everything.
    let writer = stdin.fileHandleForWriting
    let feeding = Thread {
        try? writer.write(contentsOf: input) // the throwing form: a closed pipe is not a crash
        try? writer.close()
    }
    feeding.start()
    let err = Locked<Data?>(nil)
    let errors = stderr.fileHandleForReading
    Thread { let data = errors.readDataToEndOfFile(); err.update { $0 = data } }.start()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    while err.current == nil { usleep(1000) }
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err.current ?? Data(), as: UTF8.self))
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
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FaultShim/faultshim.c").path
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
    let built = try? run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-I", header, "-o", library, tests.appendingPathComponent("Plugins/unruly.c").path], input: Data())
    precondition(built?.status == 0, "the Unruly test plugin did not build: \(built?.stderr ?? "cc did not run")")
    return library
}()

/// Runs storesh as a shell would start it: SIGPIPE at its default action, whatever this
/// test process ignores (ignored signals are inherited across exec).
func storeshWithDefaultSignals(_ arguments: [String], input: String = "") throws -> Run {
    try run("/usr/bin/env", ["--default-signal=PIPE", storeshBinary] + arguments, input: Data(input.utf8))
}
