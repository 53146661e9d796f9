import Dispatch
import Foundation
import StoreHost
import StoreShell

/// Time travel over a long history, in process: storesh's own core, the Counter plugin.
@MainActor
package enum HistoryWorkloads {
    package struct Figures {
        package let recordSeconds: Double
        /// Milliseconds per `:goto`, for each target.
        package let gotoMilliseconds: [(target: Int, milliseconds: Double)]
        package let residentMegabytes: Double
    }

    /// Sends `count` increments, then jumps around the history.
    package static func run(count: Int, from directory: String) async throws -> Figures {
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory])
        try host.load("Counter")
        var errors: [String] = []
        let core = ShellCore(host: host, showDiff: false, reportActions: false) { output in
            if case .error(let error) = output { errors.append(error.message) }
        }
        try core.use("counter")
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { await core.execute("increment") }
        let recordSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var gotos: [(Int, Double)] = []
        var generator = SystemRandomNumberGenerator()
        let targets =
            [count / 2 + 1, 1, count - 1, count] + (0..<6).map { _ in Int.random(in: 0...count, using: &generator) }
        for target in targets {
            let begin = DispatchTime.now().uptimeNanoseconds
            await core.execute(":goto \(target)")
            gotos.append((target, Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6))
            guard case .int(let value)? = core.current?.state["count"], value == target else {
                throw Failure(
                    message:
                        "after :goto \(target) the count is \(String(describing: core.current?.state["count"])); errors: \(errors)"
                )
            }
        }
        return Figures(recordSeconds: recordSeconds, gotoMilliseconds: gotos, residentMegabytes: residentMegabytes())
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// This process's resident set size (VmRSS), in MB.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return -1 }
        return kilobytes / 1024
    }
}
