package import StoreShell

/// The last things that happened in a session, in order: actions and their results,
/// effects as they start, emit and end, actions effects applied, errors. The history
/// (`:log`) keeps every action for time travel; this keeps what a client watching the
/// session wants to see next to it, effects included, and only the newest `capacity`.
package struct Timeline: Sendable {
    /// How many entries are kept; older ones are dropped.
    package static let capacity = 1_000

    /// One entry: its number in the session (from 1) and what the shell reported.
    package struct Entry: Sendable, Equatable {
        /// Its number in the session, from 1.
        package let number: Int
        /// What the shell reported.
        package let output: ShellOutput
        /// When, in milliseconds on the session's clock (virtual under `--virtual-clock`).
        package let milliseconds: Int64
    }

    /// The kept entries, oldest first.
    package private(set) var entries: [Entry] = []
    /// How many entries there have been, kept or not.
    package private(set) var count = 0

    /// Whether `output` belongs on a timeline.
    static func records(_ output: ShellOutput) -> Bool {
        switch output {
        case .action, .applied, .effect, .error: true
        default: false
        }
    }

    mutating func append(_ output: ShellOutput, at milliseconds: Int64) {
        guard Self.records(output) else { return }
        count += 1
        entries.append(Entry(number: count, output: output, milliseconds: milliseconds))
        if entries.count > Self.capacity + Self.capacity / 4 { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// The entries as a JSON object: `count`, `kept` and `entries` (each the
    /// `--format json` record of its output with its `number` and `time`, in milliseconds
    /// on the session's clock), the newest `last` at most, and only those numbered after
    /// `after`.
    package func json(last: Int = Timeline.capacity, after: Int = 0) -> String {
        let formatter = OutputFormatter(format: .json)
        let shown = entries.suffix(min(last, Self.capacity)).filter { $0.number > after }
        let items = shown.map { entry in
            let record = formatter.lines(for: entry.output).joined()
            return "{\"number\":\(entry.number),\"time\":\(entry.milliseconds)," + record.dropFirst()
        }
        return JSON.object([("count", String(count)), ("kept", String(shown.count)), ("entries", JSON.array(items))])
    }
}
