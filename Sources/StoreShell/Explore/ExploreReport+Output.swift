import Foundation
package import StoreHost
package import StoreValue

extension ExploreReport {
    /// The report for people: what was searched, what failed, the shrunk run with the
    /// diff after each step, and the coverage table. Nothing in it depends on the
    /// machine's speed, so the same seed prints the same lines.
    package func lines(model descriptor: ModelDescriptor) -> [String] {
        var lines: [String] = []
        let searched =
            "\(runs) run\(runs == 1 ? "" : "s"), \(steps) step\(steps == 1 ? "" : "s"), \(distinctStates) distinct state\(distinctStates == 1 ? "" : "s")"
        lines.append(
            "explore \(model): seed \(seed)" + (exhaustive.map { ", every sequence up to depth \($0.depth)" } ?? "")
                + (prefix.isEmpty
                    ? "" : ", each run after the session's \(prefix.count) action\(prefix.count == 1 ? "" : "s")"))
        guard let failure else {
            if let exhaustive {
                lines.append(exhaustive.verdict(states: distinctStates))
                lines.append("\(runs) sequence\(runs == 1 ? "" : "s") run, \(steps) step\(steps == 1 ? "" : "s")")
            } else {
                lines.append("no failure in \(searched)" + (stoppedByTimeLimit ? " (stopped by the time limit)" : ""))
            }
            lines += coverageLines()
            return lines
        }
        // A model that is not deterministic reaches other states each time: not counted.
        var counted = searched
        if case .nondeterministic = failure.kind {
            counted = "\(runs) run\(runs == 1 ? "" : "s"), \(steps) step\(steps == 1 ? "" : "s")"
        }
        if exhaustive != nil {
            lines.append(
                "sequence \(max(1, foundInRun ?? 1)) failed after \(originalLength ?? 0) step\(originalLength == 1 ? "" : "s") (\(runs) sequence\(runs == 1 ? "" : "s"), \(steps) step\(steps == 1 ? "" : "s"), \(distinctStates) distinct state\(distinctStates == 1 ? "" : "s") in all)"
            )
            lines.append("failure: \(failure)")
            lines.append(
                "the shortest run, \(shrunk.count) step\(shrunk.count == 1 ? "" : "s") (breadth first: none shorter fails):"
            )
        } else {
            lines.append(
                "run \(foundInRun ?? 0) failed after \(originalLength ?? 0) step\(originalLength == 1 ? "" : "s") (\(counted) in all)"
            )
            lines.append("failure: \(failure)")
            lines.append(
                "shrunk to \(shrunk.count) step\(shrunk.count == 1 ? "" : "s") in \(shrinkRuns) run\(shrinkRuns == 1 ? "" : "s"):"
            )
        }
        // A model that is not deterministic shows other states each time: its steps alone,
        // so the report is the same bytes for the same seed.
        var deterministic = true
        if case .nondeterministic = failure.kind { deterministic = false }
        for (index, step) in shrunk.enumerated() {
            let marker = index == failure.step ? "  <- fails here" : ""
            lines.append(String(format: "%4d  ", index + 1) + step.line(in: descriptor) + marker)
            guard deterministic, index + 1 < shrunkStates.count else { continue }
            for change in descriptor.stateDiff.changes(from: shrunkStates[index], to: shrunkStates[index + 1]) {
                lines.append("        " + change.description)
            }
        }
        if failure.step < 0 { lines.append("      (the initial state already fails)") }
        let scheduled = scheduleCommands
        if !scheduled.isEmpty {
            lines.append("with this schedule (services not named answer at once; other ties fire in scheduled order):")
            lines += scheduled.map { "      " + $0 }
        }
        lines += coverageLines()
        return lines
    }

    /// The report's line on what guidance reached (a merged report's too).
    package static func guidanceLine(_ guidance: ExploreGuidanceSummary) -> String {
        let code = guidance.edges > 0 ? ", \(guidance.edges) edge\(guidance.edges == 1 ? "" : "s") of plugin code" : ""
        return
            "guidance: \(guidance.transitions) transition\(guidance.transitions == 1 ? "" : "s") taken\(code); \(guidance.kept) run\(guidance.kept == 1 ? "" : "s") kept for reaching something new, \(guidance.guidedRuns) started from one"
    }

    private func coverageLines() -> [String] {
        let width = max(6, coverage.map(\.action.count).max() ?? 0)
        var lines: [String] = []
        // What guidance reached depends on the states a model shows: counted only for a
        // model that gives the same states each time.
        var deterministic = true
        if case .nondeterministic = failure?.kind { deterministic = false }
        if let guidance, deterministic { lines.append(Self.guidanceLine(guidance)) }
        lines += [
            "coverage:",
            "  " + "action".padding(toLength: width, withPad: " ", startingAt: 0) + "  tried  accepted  refused",
        ]
        for entry in coverage {
            let name = entry.action.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(name)  " + String(format: "%5d  %8d  %7d", entry.tried, entry.accepted, entry.refused))
        }
        let never = neverAccepted
        if !never.isEmpty { lines.append("never accepted: \(never.joined(separator: ", "))") }
        return lines
    }

    /// The same facts as a record, for `--format json`.
    package func record(model descriptor: ModelDescriptor) -> Value {
        var fields: [Value.Field] = [
            .init("model", .string(model)), .init("seed", .string(String(seed))), .init("runs", .int(Int64(runs))),
            .init("steps", .int(Int64(steps))), .init("distinctStates", .int(Int64(distinctStates))),
            .init("stoppedByTimeLimit", .bool(stoppedByTimeLimit)),
            .init(
                "shard",
                shard.map { .record(["index": .int(Int64($0.index)), "count": .int(Int64($0.count))]) } ?? .null),
            .init("settings", .string(settings)),
            .init("scheduleCommands", .array(scheduleCommands.map(Value.string))),
            .init("exhaustive", exhaustive.map(Self.record) ?? .null),
            .init(
                "guidance",
                guidance.map {
                    var fields: [Value.Field] = [
                        .init("kept", .int(Int64($0.kept))), .init("transitions", .int(Int64($0.transitions))),
                        .init("guidedRuns", .int(Int64($0.guidedRuns))), .init("edges", .int(Int64($0.edges))),
                    ]
                    // A shard's: what --merge counts the union of. Keys as text: JSON readers
                    // take numbers past 2^53 as doubles, and lose them.
                    if shard != nil {
                        fields.append(.init("transitionKeys", .array($0.transitionKeys.map { .string(String($0)) })))
                        fields.append(.init("edgeIDs", .array($0.edgeIDs.map { .int(Int64($0)) })))
                    }
                    return .record(type: nil, fields: fields)
                } ?? .null),
            .init(
                "coverage",
                .array(
                    coverage.map { entry in
                        .record(
                            type: nil,
                            fields: [
                                .init("action", .string(entry.action)), .init("tried", .int(Int64(entry.tried))),
                                .init("accepted", .int(Int64(entry.accepted))),
                                .init("refused", .int(Int64(entry.refused))),
                            ])
                    })),
            .init("neverAccepted", .array(neverAccepted.map(Value.string))),
        ]
        guard let failure else {
            // A shard's: what --merge counts the union of (as text, as transitionKeys).
            if shard != nil { fields.append(.init("stateKeys", .array(stateKeys.map { .string(String($0)) }))) }
            fields.append(.init("failure", .null))
            return .record(type: nil, fields: fields)
        }
        var failureFields: [Value.Field] = [
            .init("kind", .string(failure.kindName)), .init("message", .string(failure.description)),
            .init("step", .int(Int64(failure.step + 1))),
        ]
        if case .invariant(let condition, _) = failure.kind {
            failureFields.append(.init("invariant", .string(condition.description)))
        }
        if case .differs(let reference, let paths, _) = failure.kind {
            failureFields.append(.init("reference", .string(reference)))
            failureFields.append(.init("compare", .array(paths.map(Value.string))))
        }
        if case .postcondition(let action, let condition, _) = failure.kind {
            failureFields.append(.init("action", .string(action)))
            failureFields.append(.init("postcondition", .string(condition.description)))
        }
        if case .modelCheck(let check, _) = failure.kind {
            failureFields.append(.init("check", .string(check.name)))
            failureFields.append(.init("checkKind", .string(check.kind)))
        }
        fields.append(.init("failure", .record(type: nil, fields: failureFields)))
        fields.append(.init("foundInRun", .int(Int64(foundInRun ?? 0))))
        fields.append(.init("originalLength", .int(Int64(originalLength ?? 0))))
        fields.append(.init("shrinkRuns", .int(Int64(shrinkRuns))))
        fields.append(
            .init(
                "schedule",
                .array(
                    schedule.answers.map { answer in
                        .record(["service": .string(answer.service), "latency": .string(answer.latency.word)])
                    })))
        fields.append(.init("ties", .array(schedule.ties.map { .int(Int64($0 + 1)) })))
        fields.append(
            .init(
                "shrunk",
                .array(
                    shrunk.enumerated().map { index, step in
                        let changes =
                            index + 1 < shrunkStates.count
                            ? descriptor.stateDiff.changes(from: shrunkStates[index], to: shrunkStates[index + 1]) : []
                        return .record(
                            type: nil,
                            fields: [
                                .init("step", .int(Int64(index + 1))),
                                .init("line", .string(step.line(in: descriptor))),
                                .init("changes", .array(changes.map { .string($0.description) })),
                            ])
                    })))
        return .record(type: nil, fields: fields)
    }

    /// The shrunk run as a transcript's inputs, to be recorded (`ExploreTranscript`):
    /// `:load` by `pluginPath` (relative to the transcript), the steps, and what pins the
    /// failure — the invariant as a `:check` after the failing step, a postcondition as a
    /// `:check-after`, a check in the model's code as `:check-model NAME` (all skip a path that names nothing, as explore does); a crash or a
    /// hang fails the step itself. No step's output is compared, and any step may be
    /// refused: a fix changes earlier states as often as not, and the transcript pins the
    /// property, not what was printed on the way. The pin must print nothing (its error
    /// is what fails the transcript); for a model that is not deterministic
    /// `:replay-check` is the pin.
    /// A difference from the reference (`--against`) is pinned with `:compare`, which
    /// replays the session's actions in a fresh store of the reference (loaded from
    /// `referencePluginPath` when it is another plugin's) and compares the states.
    package func transcriptInputs(
        model descriptor: ModelDescriptor, pluginPath: String, referencePluginPath: String? = nil,
        referenceAlias: String? = nil
    ) -> [ExploreTranscript.Input] {
        guard let failure else { return [] }
        var inputs: [ExploreTranscript.Input] =
            (worldSeed.map { [.init(":seed \($0)")] } ?? [])
            + [.init(TranscriptWriter.loadCommand(pluginPath, as: pluginAlias))]
            + (referencePluginPath.map { [.init(TranscriptWriter.loadCommand($0, as: referenceAlias))] } ?? [])
            + [.init(":use \(descriptor.qualifiedName)")] + setup.map { .init($0) } + scheduleCommands.map { .init($0) }
            + (holdsAnswers ? [.init(":fx leave-running")] : [])
        for step in prefix + shrunk {
            inputs.append(.init(step.line(in: descriptor), output: .notCompared))
        }
        switch failure.kind {
        case .invariant(let condition, _):
            inputs.append(.init(":check \(condition)", output: .none))
        case .postcondition(let action, let condition, _):
            inputs.append(.init(":check-after \(action) \(condition)", output: .none))
        case .modelCheck(let check, _):
            inputs.append(.init(":check-model \(CommandWords.quoted(check.name))", output: .none))
        case .nondeterministic:
            inputs.append(.init(":replay-check", output: .none))
        case .differs(let reference, let paths, _):
            inputs.append(.init(([":compare", reference] + paths).joined(separator: " "), output: .none))
        case .effectFailed:
            inputs.append(.init(":fx none-failed", output: .none))
        case .crash, .hang:
            break
        }
        return inputs
    }
}

extension ExploreReport {
    /// `--exhaustive`'s summary for `--format json`.
    fileprivate static func record(_ summary: ExhaustiveSummary) -> Value {
        let end =
            switch summary.end {
            case .depth: "depth"
            case .everyState: "everyState"
            case .stateLimit: "stateLimit"
            case .timeLimit: "timeLimit"
            case .failure: "failure"
            }
        return .record([
            "depth": .int(Int64(summary.depth)), "completedDepth": .int(Int64(summary.completedDepth)),
            "end": .string(end), "argumentsCut": .bool(summary.argumentsCut),
            "keptBytes": .int(Int64(summary.keptBytes)),
        ])
    }
}
