import StoreHost

/// How a run's concurrent events are ordered (`storesh explore --schedules`): in the
/// documented order, as at the prompt; drawn from a seed, call by call and tie by tie; or
/// as an earlier run took them.
enum SchedulePlan {
    case atOnce
    case drawn(seed: UInt64)
    case replaying(ScheduleRecord)

    /// A fresh schedule for one run (a schedule's queues are used up as they are taken).
    @MainActor func schedule() -> EffectSchedule {
        switch self {
        case .atOnce: return EffectSchedule()
        case .replaying(let record): return EffectSchedule(replaying: record)
        case .drawn(let seed):
            let schedule = EffectSchedule()
            var random = ExploreRandom(seed: seed)
            schedule.draw = { _ in Self.draw(&random) }
            schedule.drawTie = { count in random.index(count) }
            return schedule
        }
    }

    /// One latency: at once two times in five; after the next action one in five; a wait
    /// on the clock one in three (1 ms to 1 s, the steps' own `:advance` sizes); never
    /// one in twenty.
    static func draw(_ random: inout ExploreRandom) -> AnswerLatency {
        let roll = random.index(100)
        switch roll {
        case ..<40: return .now
        case ..<60: return .nextAction
        case ..<95: return .after(milliseconds: random.pick([1, 10, 100, 250, 1_000]))
        default: return .never
        }
    }
}

extension ExploreDriver {
    /// The simpler schedules to try in place of `record` once a failing run's steps are
    /// shrunk: one answer or tie left out (the ones after it move up to earlier calls, as
    /// the steps that made them may have gone), then one changed at a time — an answer at
    /// once, then a shorter wait; a tie to the first scheduled.
    static func simplerSchedules(_ record: ScheduleRecord) -> [ScheduleRecord] {
        var candidates: [ScheduleRecord] = []
        for index in record.answers.indices {
            var candidate = record
            candidate.answers.remove(at: index)
            candidates.append(candidate)
        }
        for index in record.ties.indices {
            var candidate = record
            candidate.ties.remove(at: index)
            candidates.append(candidate)
        }
        for index in record.answers.indices {
            let simpler: [AnswerLatency]
            switch record.answers[index].latency {
            case .now: simpler = []
            case .after(let milliseconds): simpler = milliseconds > 1 ? [.now, .after(milliseconds: 1)] : [.now]
            case .nextAction: simpler = [.now]
            case .never: simpler = [.now, .nextAction]
            }
            for latency in simpler {
                var candidate = record
                candidate.answers[index].latency = latency
                candidates.append(candidate)
            }
        }
        for index in record.ties.indices where record.ties[index] != 0 {
            var candidate = record
            candidate.ties[index] = 0
            candidates.append(candidate)
        }
        return candidates
    }
}
