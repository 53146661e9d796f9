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

/// What a run's schedule gave out: each service call's latency, in the order of the calls,
/// and each pick among timers due at the same instant (0: the first scheduled), in order.
package struct ScheduleRecord: Hashable, Sendable {
    package var answers: [ScheduledAnswer]
    package var ties: [Int]

    package init(answers: [ScheduledAnswer] = [], ties: [Int] = []) {
        self.answers = answers
        self.ties = ties
    }
}

/// The order of a clock's concurrent events, where more than one is possible:
///   - when the answers of service calls arrive: per service, a queue of latencies the
///     calls take in order, the last repeating (`:latency`, as `:stub` queues results);
///     or, for a service with none, one drawn per call (`storesh explore --schedules`);
///     else at once;
///   - which of the timers due at the same instant fires first: a queue of picks
///     (`:ties`), or one drawn per tie; else the first scheduled.
/// Everything given out is noted in `taken`, so a run's schedule can be written down and
/// made again.
@MainActor
package final class EffectSchedule {
    /// Queued latencies, per service.
    package private(set) var queues: [String: [AnswerLatency]] = [:]
    /// Draws the latency of a call to a service no queue covers.
    package var draw: ((String) -> AnswerLatency)?
    /// Queued picks among timers due together (0: the first scheduled), each taken once.
    package private(set) var tieQueue: [Int] = []
    /// Draws a pick among `count` timers due together once the queue is used up.
    package var drawTie: ((Int) -> Int)?
    /// What was given out so far.
    package private(set) var taken = ScheduleRecord()

    package init() {}

    /// A schedule that gives `service`'s calls the latencies of `queues` in order (after a
    /// queue's end, the last repeats), and ties the picks of `ties`.
    package init(queues: [String: [AnswerLatency]], ties: [Int] = []) {
        self.queues = queues.filter { !$0.value.isEmpty }
        self.tieQueue = ties
    }

    /// The schedule that makes `record` again: each service's latencies in the order its
    /// calls took them, and the same picks among ties.
    package convenience init(replaying record: ScheduleRecord) {
        self.init(queues: Self.queues(of: record.answers), ties: record.ties)
    }

    /// Each service's latencies in `answers`, in order.
    nonisolated package static func queues(of answers: [ScheduledAnswer]) -> [String: [AnswerLatency]] {
        answers.reduce(into: [:]) { $0[$1.service, default: []].append($1.latency) }
    }

    /// Replaces `service`'s queue (an empty one removes it).
    package func set(_ latencies: [AnswerLatency], for service: String) {
        queues[service] = latencies.isEmpty ? nil : latencies
    }

    /// Replaces the queue of picks among ties.
    package func setTies(_ picks: [Int]) {
        tieQueue = picks
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
        taken.answers.append(ScheduledAnswer(service: service, latency: latency))
        return latency
    }

    /// Which of `count` (2 or more) timers due at the same instant fires first, as an
    /// index in the order they were scheduled.
    package func pick(amongTied count: Int) -> Int {
        let pick: Int
        if !tieQueue.isEmpty {
            pick = tieQueue.removeFirst()
        } else {
            pick = drawTie?(count) ?? 0
        }
        let bounded = min(max(0, pick), count - 1)
        taken.ties.append(bounded)
        return bounded
    }
}
