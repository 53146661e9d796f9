import Foundation
import StoreHost
import StoreShell

/// How `storesh test` reports: a line per transcript and a last 'N passed, M failed' line
/// for people, or (`--format json`) one JSON object per line for programs — a
/// `transcript` record per file, `error` records, and a `summary` last.
struct TestReporter {
    /// The result of one transcript, as reported.
    enum Verdict: String {
        case passed, failed, updated
    }

    let json: Bool

    /// One transcript's verdict, with what failed (`problems`), the unified diff of its
    /// output (failures and updates) and `note`, a reason shown after FAIL (text only:
    /// JSON has `problems`).
    func transcript(
        _ file: String, _ verdict: Verdict, seconds: Double, problems: [String] = [], diff: [String] = [],
        note: String = ""
    ) {
        if json {
            print(
                JSON.object([
                    ("kind", JSON.string("transcript")), ("file", JSON.string(file)),
                    ("result", JSON.string(verdict.rawValue)),
                    ("seconds", String(format: "%.3f", seconds)),
                    ("problems", problems.isEmpty ? nil : JSON.array(problems.map(JSON.string))),
                    ("diff", diff.isEmpty ? nil : JSON.array(diff.map(JSON.string))),
                ]))
            return
        }
        let word =
            switch verdict {
            case .passed: "PASS"
            case .failed: "FAIL"
            case .updated: "UPDATED"
            }
        print("\(word) \(file)\(note)")
        for problem in problems { print("  " + problem) }
        if !diff.isEmpty { print(diff.joined(separator: "\n")) }
    }

    /// A problem of the run rather than of one transcript: to standard error as
    /// 'storesh test: …' for people, an `error` record for programs.
    func error(_ message: String) {
        if json {
            print(JSON.object([("kind", JSON.string("error")), ("message", JSON.string(message))]))
        } else {
            StandardStreams.error("storesh test: \(message)\n")
        }
    }

    /// The last line: how many passed, failed and (with --update) were updated.
    func summary(passed: Int, failed: Int, updated: Int?) {
        if json {
            print(
                JSON.object([
                    ("kind", JSON.string("summary")), ("passed", String(passed)), ("failed", String(failed)),
                    ("updated", updated.map(String.init)),
                ]))
        } else {
            print("\(passed) passed, \(failed) failed" + (updated.map { ", \($0) updated" } ?? ""))
        }
    }
}
