package import StoreHost
package import StoreValue

/// `:latency [SERVICE LATENCY[, LATENCY…]]`: when the answers of a service's calls arrive.
struct LatencyCommand: ShellCommand {
    let name = "latency"
    let usage = ":latency [SERVICE LATENCY[, LATENCY…]]"
    let summary = "when the answers of a service's asynchronous calls arrive (virtual clock)"
    let detail = [
        "A model that calls a service asynchronously (service_answer in storeplugin.h) gets each answer at once by default: once the store has settled, in the order of the calls. :latency SERVICE makes its next calls' answers wait, in order, the last repeating: now; a duration such as 250ms or 2s on the virtual clock (:advance delivers it); next (after the next action sent; a script sends a run of action lines as one batch, which counts as one); never (until the model cancels the call). :latency SERVICE now restores the default; :latency alone lists the current model's services.",
        "storesh explore --schedules chooses latencies from its seed and writes the ones a failure needs as :latency lines, so its transcript replays the same late answer.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        latency(arguments, origin: origin, in: core)
    }

    /// `:latency` lists; `:latency SERVICE L, …` sets a service's queue of latencies.
    @MainActor private func latency(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        guard let clock = context.host.clock as? VirtualClock else {
            return context.fail(
                "latencies need a virtual clock (storesh --virtual-clock; transcripts and explore have one)",
                origin: origin)
        }
        let words = arguments.typedWords
        guard let first = words.first else { return listLatencies(of: session.model, on: clock, in: context) }
        guard let service = session.model.services.first(where: { $0.name == first.text }) else {
            let known = session.model.services.map(\.name)
            return context.fail(
                "\(session.model.qualifiedName) has no service '\(first.text)'"
                    + (known.isEmpty ? " (it declares none)" : "; its services: \(known.joined(separator: ", "))"),
                origin: origin, in: arguments, at: first.offset)
        }
        let latencies: [AnswerLatency]
        do throws(TextError) {
            latencies = try ScheduleWords.latencies(Array(words.dropFirst()))
        } catch {
            return context.fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        guard !latencies.isEmpty else {
            return context.fail(
                "usage: \(LatencyCommand().usage) (give \(service.name) at least one latency; now is the default)",
                origin: origin, in: arguments, at: first.offset)
        }
        clock.schedule.set(latencies == [.now] ? [] : latencies, for: service.name)
        return true
    }

    @MainActor private func listLatencies(
        of model: ModelDescriptor, on clock: VirtualClock, in context: some CommandContext
    ) -> Bool {
        let queues = clock.schedule.queues
        let lines = model.services.map { service in
            let queue = queues[service.name] ?? []
            return queue.isEmpty
                ? "\(service.name): answers at once"
                : "\(service.name): \(queue.map(\.word).joined(separator: ", "))\(queue.count > 1 ? " (then the last repeats)" : "")"
        }
        let records: [Value] = model.services.map { service in
            .record([
                "name": .string(service.name),
                "latencies": .array((queues[service.name] ?? []).map { .string($0.word) }),
            ])
        }
        context.output(
            .report(
                kind: "latency", lines: lines.isEmpty ? ["\(model.qualifiedName) declares no services"] : lines,
                data: .record(["model": .string(model.qualifiedName), "services": .array(records)])))
        return true
    }
}

/// `:ties [N[, N…]]`: which of the timers due at the same instant fires first.
struct TiesCommand: ShellCommand {
    let name = "ties"
    let usage = ":ties [N[, N…]]"
    let summary = "which of the timers due at the same instant fires first (virtual clock)"
    let detail = [
        "By default timers due at the same instant fire in the order they were scheduled. :ties 2, 1 makes the next moment where several are due fire the second scheduled first, and the one after it the first; after the list, the first scheduled again. Each pick is among the timers still due at that instant. :ties alone shows what is left of the list.",
        "storesh explore --schedules picks from its seed and writes this line when a failure needs another order.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        ties(arguments, origin: origin, in: core)
    }

    /// `:ties` lists what is queued; `:ties N, …` replaces it (1-based, in scheduled order).
    @MainActor private func ties(_ arguments: CommandArguments, origin: LineOrigin, in context: some CommandContext)
        -> Bool
    {
        guard let clock = context.host.clock as? VirtualClock else {
            return context.fail(
                "the order of timers due together is the virtual clock's (storesh --virtual-clock; transcripts and explore have one)",
                origin: origin)
        }
        let words = arguments.typedWords
        guard !words.isEmpty else {
            let queued = clock.schedule.tieQueue.map { String($0 + 1) }
            context.output(
                .report(
                    kind: "ties",
                    lines: [
                        queued.isEmpty
                            ? "timers due together fire in the order they were scheduled"
                            : "the next ties pick: \(queued.joined(separator: ", ")) (then the first scheduled)"
                    ],
                    data: .record(["ties": .array(clock.schedule.tieQueue.map { .int(Int64($0 + 1)) })])))
            return true
        }
        do throws(TextError) {
            clock.schedule.setTies(try ScheduleWords.ties(words))
        } catch {
            return context.fail(error.message, origin: origin, in: arguments, at: error.offset)
        }
        return true
    }
}

/// The words of `:latency` and `:ties` read into a schedule's queues, each mistake at the
/// byte it starts (words as `CommandWords.asTyped` splits them; commas separate too).
package enum ScheduleWords {
    /// `now`, `next`, `never` or a duration, per word or comma-separated part.
    package static func latencies(_ words: [CommandWord]) throws(TextError) -> [AnswerLatency] {
        var latencies: [AnswerLatency] = []
        for (part, offset) in commaSeparated(words) {
            guard let latency = AnswerLatency(word: part, milliseconds: Duration.milliseconds) else {
                throw TextError(
                    "'\(part)' is not a latency; write now, next, never, or a duration such as 250ms or 2s (at most 365 days)",
                    at: offset)
            }
            latencies.append(latency)
        }
        return latencies
    }

    /// Picks counted from 1 (1 to 1000), returned from 0.
    package static func ties(_ words: [CommandWord]) throws(TextError) -> [Int] {
        var picks: [Int] = []
        for (part, offset) in commaSeparated(words) {
            guard part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let pick = Int(part), (1...1_000).contains(pick)
            else {
                throw TextError(
                    "'\(part)' is not a pick; write which of the timers due together fires first, counting from 1 in the order they were scheduled (at most 1000)",
                    at: offset)
            }
            picks.append(pick - 1)
        }
        return picks
    }

    /// The parts of typed words split at commas, each with where it starts.
    static func commaSeparated(_ words: [CommandWord]) -> [(String, Int)] {
        var parts: [(String, Int)] = []
        for word in words {
            var offset = word.offset
            for part in word.text.split(separator: ",", omittingEmptySubsequences: false) {
                if !part.isEmpty { parts.append((String(part), offset)) }
                offset += part.utf8.count + 1
            }
        }
        return parts
    }
}
