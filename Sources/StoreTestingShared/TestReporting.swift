import CustomDump
import Dispatch
import Testing
import XCTest

/// How strictly a test store makes the test account for what happens.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change, every received action and every effect must be asserted.
    case on
    /// Only what the test states is checked: an assertion closure's assignments must
    /// hold, received actions the test does not ask for are skipped, and effects may
    /// still run at the end.
    case off
}

/// Where in a test a test store call was made, so a failure is reported at that line.
package struct TestLocation: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Records a failure here with the test framework running the test: Swift Testing
    /// when it runs one, XCTest otherwise. `headline` says what failed in one line;
    /// `details` (a diff and its legend) follow it.
    package func fail(_ headline: String, _ details: String = "") {
        if Test.current != nil {
            Issue.record(
                TestStoreFailure(description: headline),
                details.isEmpty ? nil : Comment(rawValue: details),
                sourceLocation: SourceLocation(
                    fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
            )
        } else {
            XCTFail(details.isEmpty ? headline : headline + "\n\n" + details, file: filePath, line: line)
        }
    }
}

/// A test store's failure, recorded with Swift Testing as an issue's error. Swift Testing
/// heads an issue with its kind: "Issue recorded" for `Issue.record(_ comment:)`, the
/// comment only on the lines after; "Caught error: " and the error's description for an
/// error. No public API heads an issue with its comment, so the failure is an error, and
/// the first line of `swift test`'s report says what failed.
package struct TestStoreFailure: Error, CustomStringConvertible {
    package let description: String
}

/// Words test stores share in their failure messages.
package enum TestWording {
    /// An action on one line, as customDump writes it (`Counter.Action.increment`), its
    /// lines joined as code is written: `Library.Action.book("b1", .checkout(member: "ann"))`,
    /// with no space inside the brackets.
    package static func describe(_ action: Any) -> String {
        var text = ""
        customDump(action, to: &text, maxDepth: 2)
        var line = ""
        for part in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let opens = line.last.map { "([".contains($0) } ?? true
            let closes = part.first.map { ")]".contains($0) } ?? false
            line += (opens || closes ? "" : " ") + part
        }
        return line
    }

    /// "1 action" / "2 actions".
    package static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Why `finish` failed with effects still running.
    package static func stillRunning(_ effects: Int, after limit: Duration) -> String {
        "\(effects) effect\(effects == 1 ? " is" : "s are") still running after \(limit); wait longer (finish(timeout:)), cancel \(effects == 1 ? "it" : "them") in the model, or make the store non-exhaustive"
    }

    /// Why `finish` failed with actions effects sent that no `receive` checked.
    package static func notReceived(_ actions: [String]) -> String {
        "\(actions.count) received action\(actions.count == 1 ? " was" : "s were") not checked with receive: \(actions.joined(separator: ", "))"
    }

    /// Why `send` failed while actions effects sent wait for `receive`.
    package static func mustReceive(_ actions: [String], beforeSending action: String) -> String {
        "must receive \(count(actions.count, "action")) before sending \(action); not received: \(actions.joined(separator: ", "))"
    }

    /// Why `receive` failed: nothing (or not the expected action) arrived in time.
    package static func didNotArrive(_ expected: String, within limit: Duration, arrived: [String], running: Int)
        -> String
    {
        "expected to receive \(expected) within \(limit), but \(arrived.isEmpty ? "no action arrived" : "only \(arrived.joined(separator: ", ")) arrived") (\(count(running, "effect")) still running)"
    }

    /// Why a test ended badly: it never called `finish` and left work behind.
    package static func leftBehind(effects: Int, actions: Int) -> String {
        "the test ended with \(count(effects, "effect")) running and \(count(actions, "received action")) not checked; end it with await store.finish()"
    }

    /// What the test did, for a failure's headline: "sending Counter.Action.increment".
    package static func sending(_ action: Any) -> String {
        "sending \(describe(action))"
    }

    /// What the test did, for a failure's headline: "receiving Counter.Action.increment".
    package static func receiving(_ action: Any) -> String {
        "receiving \(describe(action))"
    }

    /// Why a check failed: the state after `what` ("sending …") differs from the one
    /// the test stated.
    package static func notAsExpected(_ what: String) -> String {
        "the state \(what) is not what was expected"
    }

    /// Why a check failed: the state changed in `what`, and the test stated no change.
    package static func changedUnexpectedly(_ what: String) -> String {
        "the state changed \(what), but no change was expected"
    }

    /// The diff of two values with a legend, or "" when customDump sees no difference:
    /// a failure's details.
    package static func difference<T>(_ expected: T, _ actual: T, legend: String = "(expected: −, actual: +)") -> String
    {
        diff(expected, actual, format: .proportional).map { "\($0)\n\n\(legend)" } ?? ""
    }
}

/// Waiting for effects in a test store.
package enum EffectTurns {
    /// One turn of the main queue and a moment for effects on other threads.
    package static func next() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
        try? await Task.sleep(for: .milliseconds(1))
    }

    /// Lets effects run while `condition` holds, for at most `limit` of real time.
    @MainActor
    package static func wait(atMost limit: Duration, while condition: @MainActor () -> Bool) async {
        let deadline = ContinuousClock.now + limit
        while condition(), ContinuousClock.now < deadline {
            await next()
        }
    }
}
