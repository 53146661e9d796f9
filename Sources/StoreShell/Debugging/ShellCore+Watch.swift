import Dispatch
import Foundation
import StoreHost
import StoreValue

/// The timer's line after an action (the commands that set watches, breakpoints and the
/// timer are in `Commands/WatchCommands.swift`).
extension ShellCore {
    /// The timer's line after an action: the whole line's time, then each phase.
    static func timerReport(_ phases: SendPhases, total: UInt64) -> ShellOutput {
        var parts: [String] = []
        var record: [(String, Value)] = [("total_ns", .int(Int64(clamping: total)))]
        func add(_ name: String, _ key: String, _ nanoseconds: UInt64?) {
            guard let nanoseconds else { return }
            parts.append("\(name) \(HumanDuration.text(nanoseconds))")
            record.append((key, .int(Int64(clamping: nanoseconds))))
        }
        add("update", "update_ns", phases.update)
        add("state read", "read_ns", phases.read)
        add("worker round trip", "round_trip_ns", phases.roundTrip)
        add("apply and diff", "diff_ns", phases.apply)
        let accounted = (phases.update ?? 0) + (phases.read ?? 0) + (phases.roundTrip ?? 0) + (phases.apply ?? 0)
        add("shell", "shell_ns", total > accounted ? total - accounted : 0)
        return .report(
            kind: "timer", lines: ["time: \(HumanDuration.text(total)) (\(parts.joined(separator: ", ")))"],
            data: .record(type: nil, fields: record.map { Value.Field($0.0, $0.1) }))
    }
}
