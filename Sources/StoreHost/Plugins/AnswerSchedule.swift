/// When the answer of one asynchronous service call arrives (storeplugin.h's
/// `service_answer`).
package enum AnswerLatency: Hashable, Sendable {
    /// Once what the store is doing has settled (the default).
    case now
    /// After this many milliseconds on the host clock.
    case after(milliseconds: Int64)
    /// After the next action the shell sends on its own.
    case nextAction
    /// Never, unless the call is cancelled.
    case never

    /// The longest wait: a year of milliseconds (as `:advance` takes).
    package static let longest: Int64 = 365 * 24 * 3_600_000

    /// `now`, `next`, `never`, or a duration such as `250ms` or `2s`: the word `:latency`
    /// takes and explore's transcripts write.
    package var word: String {
        switch self {
        case .now: "now"
        case .after(let milliseconds): "\(milliseconds)ms"
        case .nextAction: "next"
        case .never: "never"
        }
    }

    /// The latency a word names, or nil. `milliseconds` reads a duration (the shell's
    /// `500ms`, `2s`, `1m`, bare seconds).
    package init?(word: String, milliseconds: (String) -> Int64?) {
        switch word {
        case "now": self = .now
        case "next": self = .nextAction
        case "never": self = .never
        default:
            guard let duration = milliseconds(word), duration <= Self.longest else { return nil }
            self = duration == 0 ? .now : .after(milliseconds: duration)
        }
    }
}

/// One call's answer and when it arrived: what a schedule took, and what makes it again.
package struct ScheduledAnswer: Hashable, Sendable {
    package let service: String
    package var latency: AnswerLatency

    package init(service: String, latency: AnswerLatency) {
        self.service = service
        self.latency = latency
    }
}

/// When the answers of a clock's service calls arrive: per service, a queue of latencies
/// the calls take in order, the last repeating (`:latency`, as `:stub` queues results);
/// or, for a service with none, one drawn per call (`storesh explore --schedules`); else
/// at once. Every latency given out is noted in `taken`, so a run's schedule can be
/// written down and made again.
@MainActor
package final class AnswerSchedule {
    /// Queued latencies, per service.
    package private(set) var queues: [String: [AnswerLatency]] = [:]
    /// Draws the latency of a call to a service no queue covers.
    package var draw: ((String) -> AnswerLatency)?
    /// The latency of each call so far, in the order of the calls.
    package private(set) var taken: [ScheduledAnswer] = []

    package init() {}

    /// A schedule that gives `service`'s calls the latencies of `queues` in order; after
    /// a queue's end, the last repeats.
    package init(queues: [String: [AnswerLatency]]) {
        self.queues = queues.filter { !$0.value.isEmpty }
    }

    /// The schedule that makes `taken` again: each service's latencies in the order its
    /// calls took them.
    package convenience init(replaying taken: [ScheduledAnswer]) {
        self.init(queues: Self.queues(of: taken))
    }

    /// Each service's latencies in `taken`, in order.
    nonisolated package static func queues(of taken: [ScheduledAnswer]) -> [String: [AnswerLatency]] {
        taken.reduce(into: [:]) { $0[$1.service, default: []].append($1.latency) }
    }

    /// Replaces `service`'s queue (an empty one removes it).
    package func set(_ latencies: [AnswerLatency], for service: String) {
        queues[service] = latencies.isEmpty ? nil : latencies
    }

    /// The latency of the next call to `service`.
    package func latency(for service: String) -> AnswerLatency {
        let latency: AnswerLatency
        if var queue = queues[service], let first = queue.first {
            latency = first
            if queue.count > 1 {
                queue.removeFirst()
                queues[service] = queue
            }
        } else {
            latency = draw?(service) ?? .now
        }
        taken.append(ScheduledAnswer(service: service, latency: latency))
        return latency
    }
}
