package import Foundation
import StoreHost
package import StoreValue

/// One part of a search split across processes or machines (`--shard I/N`), as its
/// `--format json` report says it: what `storesh explore --merge` and `--jobs` combine.
package struct ExploreShardReport {
    package let file: String
    package let model: String
    package let seed: String
    package let shard: ExploreShard
    package let runs: Int
    package let steps: Int
    package let distinctStates: Int
    /// Its distinct states' keys, when it found nothing (a shard's report lists them; nil
    /// in the report of an earlier storesh, which did not).
    package let stateKeys: Set<Int>?
    package let stoppedByTimeLimit: Bool
    /// The failure's message and the run (of the whole search, 1-based) that found it.
    package let failure: String?
    package let foundInRun: Int?
    /// The shrunk run: each step's line and the changes it made.
    package let shrunk: [(line: String, changes: [String])]
    package let failingStep: Int?
    /// How many steps the failing run had when it failed, before shrinking.
    package let originalLength: Int
    /// The commands that make the shrunk run's schedule again (`:latency`, `:ties`).
    package let scheduleCommands: [String]
    /// Runs shrinking made.
    package let shrinkRuns: Int
    /// `--schedules`: the shrunk run's answers (service, latency) and picks among ties.
    package let schedule: [(service: String, latency: String)]
    package let ties: [Int]
    /// The transcript the shard wrote, as an absolute path.
    package let transcript: String?
    package let coverage: [(action: String, tried: Int, accepted: Int, refused: Int)]
    /// The failure's kind (`ExploreFailure.kindName`).
    package let failureKind: String?
    /// What guidance reached in this shard: runs kept and started from one, and the
    /// transitions and edges taken (their keys, so that shards count them together).
    package let guidance: (kept: Int, guidedRuns: Int, transitions: Set<Int>, edges: Set<UInt32>)?
    /// What the search was told, beyond the seed (`ExploreReport.settings`): shards of
    /// searches told different things do not make one search.
    package let settings: String
    /// The whole report, read as a value: a failure is reported as the shard that found it
    /// reported it.
    package let tree: Value

    package struct Unreadable: Error {
        package let message: String
    }

    /// Reads a report from `data` (what `file` holds).
    package init(data: Data, file: String) throws(Unreadable) {
        guard let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            record["kind"] as? String == "explore", let model = record["model"] as? String,
            let seed = record["seed"] as? String
        else { throw Unreadable(message: "\(file): not the JSON report of storesh explore --format json") }
        guard record["exhaustive"] == nil || record["exhaustive"] is NSNull else {
            throw Unreadable(message: "\(file): the report of an exhaustive search, which is not split into shards")
        }
        guard let shard = record["shard"] as? [String: Any], let index = shard["index"] as? Int,
            let count = shard["count"] as? Int
        else { throw Unreadable(message: "\(file): the report of a whole search, not of a --shard I/N") }
        guard (1...1024).contains(count), (0..<count).contains(index) else {
            throw Unreadable(
                message: "\(file): shard \(index)/\(count) is not a shard (I from 0 to N-1, N at most 1024)")
        }
        do throws(JSON.Unreadable) {
            tree = try JSON.value(of: Array(data))
        } catch {
            throw Unreadable(message: "\(file): not JSON: \(error.message)")
        }
        self.file = file
        self.model = model
        self.seed = seed
        self.shard = ExploreShard(index: index, count: count)
        // Counts from a file: never negative, and small enough that sums of 1,024 of them fit.
        let number = { (key: String) in min(max(0, record[key] as? Int ?? 0), Int(Int32.max)) }
        runs = number("runs")
        steps = number("steps")
        distinctStates = number("distinctStates")
        stateKeys = (record["stateKeys"] as? [String]).map { Set($0.compactMap { Int($0) }) }
        originalLength = number("originalLength")
        scheduleCommands = record["scheduleCommands"] as? [String] ?? []
        settings = record["settings"] as? String ?? ""
        stoppedByTimeLimit = record["stoppedByTimeLimit"] as? Bool ?? false
        let failureRecord = record["failure"] as? [String: Any]
        failure = failureRecord?["message"] as? String
        failureKind = failureRecord?["kind"] as? String
        failingStep = failureRecord?["step"] as? Int
        foundInRun = failure == nil ? nil : number("foundInRun")
        shrinkRuns = number("shrinkRuns")
        schedule = (record["schedule"] as? [[String: Any]] ?? []).map {
            ($0["service"] as? String ?? "", $0["latency"] as? String ?? "")
        }
        ties = (record["ties"] as? [Int] ?? []).map { min(max(0, $0), 1_000) }
        shrunk = (record["shrunk"] as? [[String: Any]] ?? []).map {
            ($0["line"] as? String ?? "", $0["changes"] as? [String] ?? [])
        }
        // Named by the path it was written at, on the machine that ran the shard; merged
        // elsewhere (a CI matrix's artifacts), it is found beside the report instead.
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        transcript = (record["transcript"] as? String).map { written in
            let path = written.hasPrefix("/") ? written : folder + "/" + written
            if FileManager.default.fileExists(atPath: path) { return path }
            return folder + "/" + URL(fileURLWithPath: written).lastPathComponent
        }
        guidance = (record["guidance"] as? [String: Any]).map { found in
            (
                min(max(0, found["kept"] as? Int ?? 0), Int(Int32.max)),
                min(max(0, found["guidedRuns"] as? Int ?? 0), Int(Int32.max)),
                Set(((found["transitionKeys"] as? [String]) ?? []).compactMap { Int($0) }),
                Set(((found["edgeIDs"] as? [Int]) ?? []).compactMap { UInt32(exactly: $0) })
            )
        }
        coverage = (record["coverage"] as? [[String: Any]] ?? []).map {
            let number = { (value: Any?) in min(max(0, value as? Int ?? 0), Int(Int32.max)) }
            return ($0["action"] as? String ?? "", number($0["tried"]), number($0["accepted"]), number($0["refused"]))
        }
    }
}

/// Several shards' reports as one search: every shard of one model and seed, once each;
/// the failure of the lowest run that failed, which is the failure the whole search in one
/// process finds first (its runs are the same runs: `Explorer.runSeed`).
package struct MergedExplore {
    package let reports: [ExploreShardReport]
    /// The shard whose failure is the search's, nil when none failed.
    package let chosen: ExploreShardReport?
    /// The parts were `--jobs` of one command, not shards merged (`--merge`): the report
    /// reads as one process's, and names the job, not the shard, that failed.
    package let byJobs: Bool

    package init(_ reports: [ExploreShardReport], byJobs: Bool = false) throws(ExploreShardReport.Unreadable) {
        self.byJobs = byJobs
        guard let first = reports.first else { throw .init(message: "no reports to merge") }
        for report in reports where report.model != first.model || report.seed != first.seed {
            throw .init(
                message:
                    "\(report.file) is a search of \(report.model) with seed \(report.seed); \(first.file) of \(first.model) with seed \(first.seed)"
            )
        }
        for report in reports where report.settings != first.settings {
            throw .init(
                message:
                    "\(report.file) searched with other options than \(first.file) (\(report.settings) against \(first.settings)): shards of one search are told the same"
            )
        }
        let count = first.shard.count
        var byIndex: [Int: ExploreShardReport] = [:]
        for report in reports {
            guard report.shard.count == count else {
                throw .init(
                    message: "\(report.file) is shard \(report.shard.index)/\(report.shard.count), not of \(count)")
            }
            if let other = byIndex[report.shard.index] {
                throw .init(message: "\(report.file) and \(other.file) are both shard \(report.shard.index)/\(count)")
            }
            byIndex[report.shard.index] = report
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw .init(
                message:
                    "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: a verdict needs every shard"
            )
        }
        self.reports = (0..<count).compactMap { byIndex[$0] }
        chosen = self.reports.filter { $0.foundInRun != nil }.min { ($0.foundInRun ?? 0) < ($1.foundInRun ?? 0) }
    }

    /// The merged report for people, in the lines one process prints. Nothing found: the
    /// shards' runs, steps and coverage add up and their states and transitions are
    /// counted once, as one process counts them. A failure: the counts are those of the
    /// part that found it, which stopped there (the others stop once told, at a run that
    /// depends on timing), so the same search prints the same lines.
    package var lines: [String] {
        let first = reports[0]
        let shards = "\(reports.count) shard\(reports.count == 1 ? "" : "s")"
        var lines = ["explore \(first.model): seed \(first.seed)" + (byJobs ? "" : ", \(shards)")]
        guard let chosen, let run = chosen.foundInRun, let failure = chosen.failure else {
            let stopped = reports.contains(where: \.stoppedByTimeLimit) ? " (stopped by the time limit)" : ""
            let runs = reports.reduce(0) { $0 + $1.runs }
            let steps = reports.reduce(0) { $0 + $1.steps }
            lines.append(
                "no failure in \(Self.counted(runs: runs, steps: steps, states: distinctStates))\(stopped)")
            return lines + Self.coverageLines(coverage, guidance: guidance)
        }
        // A model that is not deterministic shows other states each time: its steps alone,
        // and no count of states.
        let deterministic = chosen.failureKind != "nondeterministic"
        let part =
            byJobs
            ? "job \(chosen.shard.index + 1) of \(chosen.shard.count)"
            : "shard \(chosen.shard.index)/\(chosen.shard.count)"
        let counted = Self.counted(
            runs: chosen.runs, steps: chosen.steps, states: deterministic ? chosen.distinctStates : nil)
        let length = chosen.originalLength
        lines.append("run \(run) failed after \(length) step\(length == 1 ? "" : "s") (\(part): \(counted))")
        lines.append("failure: \(failure)")
        lines.append(
            "shrunk to \(chosen.shrunk.count) step\(chosen.shrunk.count == 1 ? "" : "s") in \(chosen.shrinkRuns) run\(chosen.shrinkRuns == 1 ? "" : "s"):"
        )
        for (index, step) in chosen.shrunk.enumerated() {
            let marker = index + 1 == chosen.failingStep ? "  <- fails here" : ""
            lines.append(String(format: "%4d  ", index + 1) + step.line + marker)
            if deterministic { lines += step.changes.map { "        " + $0 } }
        }
        if (chosen.failingStep ?? 1) <= 0 { lines.append("      (the initial state already fails)") }
        if !chosen.scheduleCommands.isEmpty {
            lines.append("with this schedule (services not named answer at once; other ties fire in scheduled order):")
            lines += chosen.scheduleCommands.map { "      " + $0 }
        }
        return lines + Self.coverageLines(coverage, guidance: deterministic ? guidance : nil)
    }

    private static func counted(runs: Int, steps: Int, states: Int?) -> String {
        "\(runs) run\(runs == 1 ? "" : "s"), \(steps) step\(steps == 1 ? "" : "s")"
            + (states.map { ", \($0) distinct state\($0 == 1 ? "" : "s")" } ?? "")
    }

    /// The parts whose counts the report gives: all of them, or the one that failed.
    private var counted: [ExploreShardReport] { chosen.map { [$0] } ?? reports }

    /// Distinct states: the union of the shards' (each lists its keys when it found
    /// nothing); nil when a report does not list them.
    package var distinctStates: Int? {
        if let chosen { return chosen.distinctStates }
        var union = Set<Int>()
        for report in reports {
            guard let keys = report.stateKeys else { return nil }
            union.formUnion(keys)
        }
        return union.count
    }

    /// What guidance reached, as one process says it: runs kept and started from one add
    /// up (each lane is one shard's), transitions and edges are counted once however many
    /// shards took them. Nil when a shard was not guided.
    package var guidance: ExploreGuidanceSummary? {
        let all = counted.compactMap(\.guidance)
        guard all.count == counted.count else { return nil }
        return ExploreGuidanceSummary(
            kept: all.reduce(0) { $0 + $1.kept },
            transitions: all.reduce(into: Set<Int>()) { $0.formUnion($1.transitions) }.count,
            guidedRuns: all.reduce(0) { $0 + $1.guidedRuns },
            edges: all.reduce(into: Set<UInt32>()) { $0.formUnion($1.edges) }.count)
    }

    /// Each action's tries, acceptances and refusals, added up.
    package var coverage: [(action: String, tried: Int, accepted: Int, refused: Int)] {
        var totals = counted[0].coverage
        for report in counted.dropFirst() {
            for (index, entry) in report.coverage.enumerated() where index < totals.count {
                totals[index].tried += entry.tried
                totals[index].accepted += entry.accepted
                totals[index].refused += entry.refused
            }
        }
        return totals
    }

    private static func coverageLines(
        _ totals: [(action: String, tried: Int, accepted: Int, refused: Int)], guidance: ExploreGuidanceSummary?
    ) -> [String] {
        let width = max(6, totals.map(\.action.count).max() ?? 0)
        let never = totals.filter { $0.accepted == 0 }.map(\.action)
        return (guidance.map { [ExploreReport.guidanceLine($0)] } ?? []) + [
            "coverage:",
            "  " + "action".padding(toLength: width, withPad: " ", startingAt: 0) + "  tried  accepted  refused",
        ]
            + totals.map {
                "  \($0.action.padding(toLength: width, withPad: " ", startingAt: 0))  "
                    + String(format: "%5d  %8d  %7d", $0.tried, $0.accepted, $0.refused)
            } + (never.isEmpty ? [] : ["never accepted: \(never.joined(separator: ", "))"])
    }

    /// The merged report as one JSON record: the fields of one process's, with the counts
    /// the text gives; a failure's is the record of the part that found it.
    package var record: Value {
        if let chosen, chosen.foundInRun != nil { return Self.failureRecord(of: chosen, shards: reports.count) }
        let first = reports[0]
        let totals = coverage
        // One process's fields, in its order (`ExploreReport.record`), and `shards`.
        var fields: [Value.Field] = [
            .init("model", .string(first.model)), .init("seed", .string(first.seed)),
            .init("runs", .int(Int64(reports.reduce(0) { $0 + $1.runs }))),
            .init("steps", .int(Int64(reports.reduce(0) { $0 + $1.steps }))),
            .init("distinctStates", distinctStates.map { .int(Int64($0)) } ?? .null),
            .init("stoppedByTimeLimit", .bool(reports.contains(where: \.stoppedByTimeLimit))),
            .init("shard", .null), .init("shards", .int(Int64(reports.count))),
            .init("settings", .string(first.settings)), .init("scheduleCommands", .array([])),
            .init("exhaustive", .null),
        ]
        fields.append(
            .init(
                "guidance",
                guidance.map {
                    .record([
                        "kept": .int(Int64($0.kept)), "transitions": .int(Int64($0.transitions)),
                        "guidedRuns": .int(Int64($0.guidedRuns)), "edges": .int(Int64($0.edges)),
                    ])
                } ?? .null))
        fields.append(
            .init(
                "coverage",
                .array(
                    totals.map {
                        .record([
                            "action": .string($0.action), "tried": .int(Int64($0.tried)),
                            "accepted": .int(Int64($0.accepted)), "refused": .int(Int64($0.refused)),
                        ])
                    })))
        fields.append(.init("neverAccepted", .array(totals.filter { $0.accepted == 0 }.map { .string($0.action) })))
        fields.append(.init("failure", .null))
        return .record(type: nil, fields: fields)
    }

    /// A failure's record: the one the shard that found it wrote, which gives the counts
    /// the text gives, in the order of one process's (`ExploreReport.record`), without
    /// what was there for merging only (the keys of what guidance reached) and with how
    /// many shards there were.
    private static func failureRecord(of chosen: ExploreShardReport, shards: Int) -> Value {
        guard case .record(_, let fields) = chosen.tree else { return .null }
        // Not a shard's report (--merge refuses it): the whole search's. The formatter
        // writes the report's kind and lines in front of it.
        let dropped = ["transcript", "stateKeys", "shard", "kind", "lines"]
        var kept = fields.filter { !dropped.contains($0.label ?? "") }.map { field in
            guard field.label == "guidance", case .record(let type, let inner) = field.value else { return field }
            let counts = inner.filter { $0.label != "transitionKeys" && $0.label != "edgeIDs" }
            return Value.Field("guidance", .record(type: type, fields: counts))
        }
        kept += [.init("shard", .null), .init("shards", .int(Int64(shards)))]
        let order = [
            "model", "seed", "runs", "steps", "distinctStates", "stoppedByTimeLimit", "shard", "shards", "settings",
            "scheduleCommands", "exhaustive", "guidance", "coverage", "neverAccepted", "failure", "foundInRun",
            "originalLength", "shrinkRuns", "schedule", "ties", "shrunk",
        ]
        let rank = { (field: Value.Field) in order.firstIndex(of: field.label ?? "") ?? order.count }
        let sorted = kept.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        return .record(type: nil, fields: sorted.map(\.element))
    }

    /// The chosen shard's transcript, its `:load` lines made relative to `folder` (where
    /// it is to be written) instead of the folder the shard wrote it in.
    package func transcript(for folder: String) throws(ExploreShardReport.Unreadable) -> String? {
        guard let chosen else { return nil }
        guard let path = chosen.transcript, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .init(message: "\(chosen.file): its transcript \(chosen.transcript ?? "(none named)") cannot be read")
        }
        let from = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("> :load ") else { return String(line) }
            let words = CommandWords.unquoted(String(line.dropFirst(2))).map(\.text)
            guard words.count == 2 || (words.count == 4 && words[2] == "as") else { return String(line) }
            let target = words[1]
            // A name (no slash) is found on the search path: nothing to move.
            guard target.contains("/") else { return String(line) }
            let absolute = target.hasPrefix("/") ? target : URL(fileURLWithPath: from + "/" + target).standardized.path
            return "> "
                + TranscriptWriter.loadCommand(
                    TranscriptWriter.relativePath(to: absolute, from: folder), as: words.count == 4 ? words[3] : nil)
        }.joined(separator: "\n")
    }
}
