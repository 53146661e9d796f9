import Foundation
import Testing

/// The built storesh, beside this test bundle.
let storeshBinary: String = {
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: storeshBinary)
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
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
}

/// A file in a fresh temporary directory.
func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
