import ObservableStore
import Synchronization
import Testing

/// What `StoreDiagnostics` was told, from any thread.
private final class Reports: Sendable {
    private let messages = Mutex<[String]>([])
    func add(_ message: String) { messages.withLock { $0.append(message) } }
    var all: [String] { messages.withLock { $0 } }
}

/// An action for a keyed child whose key is missing, or for a nil optional child, did
/// nothing and said nothing: a typo'd key in a test recorded "no change" and passed.
/// (Other suites' updates may report too while these run: they look for their own.)
@Suite("StoreDiagnostics: actions for children that are not there", .serialized)
struct StoreDiagnosticsTests {
    private func listening(_ body: () -> Void) -> [String] {
        let reports = Reports()
        StoreDiagnostics.report = { reports.add($0) }
        defer { StoreDiagnostics.report = nil }
        body()
        return reports.all
    }

    @Test func aMissingKeyIsReportedWithTheKeyAndAPresentOneIsNot() {
        var parent = Parent()
        parent.counters = ["present-4b1f": Counter(count: 1)]
        let reports = listening {
            _ = CounterCursor.update(state: parent, action: .increment, key: "missing-4b1f", environment: ())
            _ = CounterCursor.update(state: parent, action: .increment, key: "present-4b1f", environment: ())
        }
        #expect(
            reports.contains(#"no Counter has the key "missing-4b1f", so the action for it did nothing"#), "\(reports)")
        #expect(!reports.contains { $0.contains("present-4b1f") })
    }

    @Test func aNilOptionalChildIsReported() {
        var parent = Parent()
        parent.child = nil
        let reports = listening {
            _ = Parent.update(
                get: { $0.child },
                set: {
                    var next = $0
                    next.child = $1
                    return next
                },
                tag: Parent.Action.child, state: parent, action: .increment, environment: ())
        }
        #expect(reports.contains("there is no Counter (it is nil), so the action for it did nothing"), "\(reports)")
    }

    /// A listener taken away hears nothing more, and the update still does nothing.
    @Test func aListenerTakenAwayHearsNothingMore() {
        let reports = Reports()
        StoreDiagnostics.report = { reports.add($0) }
        StoreDiagnostics.report = nil
        let update = CounterCursor.update(state: Parent(), action: .increment, key: "removed-4b1f", environment: ())
        #expect(!reports.all.contains { $0.contains("removed-4b1f") }, "\(reports.all)")
        #expect(update.state == Parent())
        #expect(update.effects.items.isEmpty && update.effects.cancellations.isEmpty)
    }
}
