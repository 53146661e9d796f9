import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreValue

/// `storesh explore --merge REPORT…`: the shards' reports as one search — one verdict, one
/// exit status, and the transcript of the lowest failing run written to `--out`.
@MainActor
func mergeExploreReports(_ options: ExploreCommandOptions) -> Int32 {
    var reports: [ExploreShardReport] = []
    for file in options.merge {
        guard let data = FileManager.default.contents(atPath: file) else {
            StandardStreams.error("storesh explore: --merge \(file): cannot be read\n")
            return 2
        }
        do throws(ExploreShardReport.Unreadable) {
            reports.append(try ExploreShardReport(data: data, file: file))
        } catch {
            StandardStreams.error("storesh explore: --merge: \(error.message)\n")
            return 2
        }
    }
    do throws(ExploreShardReport.Unreadable) {
        let merged = try MergedExplore(reports)
        let name = merged.reports[0].model.split(separator: ".").last.map(String.init) ?? "explore"
        let target = OutputFile.exploreTranscript(options.out, model: name, overwrite: options.overwrite)
        return finish(merged, target: target, format: options.format, shown: options.out)
    } catch {
        StandardStreams.error("storesh explore: --merge: \(error.message)\n")
        return 2
    }
}

/// `storesh explore --jobs N`: the same search in N child storesh processes, each making
/// every Nth run (`--shard I/N`) with the same seed, their reports merged as `--merge`
/// merges them, with a report that reads as one process's (`MergedExplore.byJobs`). The
/// jobs tell each other where one failed (`ExploreStopFile`), and make no run past it.
@MainActor
func runExploreJobs(_ options: ExploreCommandOptions, seed: UInt64, model: ModelDescriptor, target: OutputFile) async
    -> Int32
{
    // The jobs' reports, transcripts and stop file go to a folder of their own: only the
    // transcript kept is written at `target` (its :load made relative to it), and a job
    // that cannot write there leaves the error to the one write that counts.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-explore-\(UUID())").path
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
        StandardStreams.error("storesh explore: cannot make a folder for the jobs' reports: \(error)\n")
        return 2
    }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let stem = "job"
    let jobs = options.jobCount
    let stopFile = "\(folder)/stop"
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    // Each job is a search worker: its model in its own process, unless that ends it.
    let modelsInJobs = options.usesSearchWorkers
    let shared = childArguments(CommandLine.arguments.dropFirst(), seed: seed)
    let arguments = { (index: Int) in
        SearchWorker.withFlags(
            shared,
            [
                "--search-worker", "--shard", "\(index)/\(jobs)", "--out", "\(folder)/\(stem)-\(index)",
                "--overwrite", "--stop-file", stopFile,
            ])
    }
    let environment = SearchWorker.environment(realWorld: options.isolation.realWorld)
    let started = DispatchTime.now().uptimeNanoseconds
    let outcomes = await withTaskGroup(of: (Int, Data, Data, Spawn.Ending?).self) { group in
        for index in 0..<jobs {
            let arguments = SearchWorker.withFlags(
                arguments(index), modelsInJobs ? ["--in-process", SearchWorker.watchFlag] : [])
            group.addTask { await runChild(executable, arguments, environment: environment, index: index) }
        }
        var outcomes: [(Int, Data, Data, Spawn.Ending?)] = []
        for await outcome in group { outcomes.append(outcome) }
        return outcomes.sorted { $0.0 < $1.0 }
    }
    var reports: [ExploreShardReport] = []
    for (index, var output, _, var ending) in outcomes {
        var report = SearchWorker.report(in: output)?.report
        if report == nil, modelsInJobs, let ended = ending {
            // Its model ended it: that part again, with the model in a worker process.
            let timeout = options.isolation.actionTimeout == 0 ? nil : options.isolation.actionTimeout
            StandardStreams.error(
                "storesh explore: job \(index + 1) of \(jobs): the model \(SearchWorker.describe(ended, actionTimeout: timeout)) in the job's process; searching its part again with the model in a worker process\n"
            )
            (_, output, _, ending) = await runChild(
                executable, arguments(index), environment: environment, index: index)
            report = SearchWorker.report(in: output)?.report
        }
        do throws(ExploreShardReport.Unreadable) {
            reports.append(try ExploreShardReport(data: report ?? output, file: "\(folder)/\(stem)-\(index).json"))
        } catch {
            let how = ending.map { "\($0)" } ?? "could not start"
            StandardStreams.error(
                "storesh explore: job \(index + 1) of \(jobs) gave no report (\(how); what it printed is above)\n"
            )
            return 2
        }
    }
    do throws(ExploreShardReport.Unreadable) {
        let merged = try MergedExplore(reports, byJobs: true)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let steps = reports.reduce(0) { $0 + $1.steps }
        StandardStreams.error(
            "explore: \(jobs) jobs searched \(reports.reduce(0) { $0 + $1.runs }) runs in \(String(format: "%.2f", seconds)) s (\(seconds > 0 ? Int(Double(steps) / seconds) : 0) steps/s)\n"
        )
        return finish(merged, target: target, format: options.format, shown: options.out)
    } catch {
        StandardStreams.error("storesh explore: \(error.message)\n")
        return 2
    }
}

/// Prints the merged report and writes the kept transcript; the exit status.
@MainActor
private func finish(_ merged: MergedExplore, target: OutputFile, format: String, shown: String?) -> Int32 {
    var lines = merged.lines
    var record = merged.record
    var status: Int32 = merged.chosen == nil ? 0 : 1
    if merged.chosen != nil {
        let folder = URL(fileURLWithPath: target.path).deletingLastPathComponent().path
        do {
            if let text = try merged.transcript(for: folder) { try target.write(text) }
            lines.append(
                "wrote \(shown ?? URL(fileURLWithPath: target.path).lastPathComponent): run it with storesh test")
            if case .record(let type, var fields) = record {
                fields.append(.init("transcript", .string(target.path)))
                record = .record(type: type, fields: fields)
            }
        } catch {
            let problem =
                (error as? ExploreShardReport.Unreadable)?.message ?? (error as? OutputFile.Problem)?.description
                ?? "\(error)"
            StandardStreams.error("storesh explore: the transcript was not written: \(problem)\n")
            status = 3
        }
    }
    let formatter = OutputFormatter(format: format == "json" ? .json : .tree, color: false)
    StandardStreams.write(
        formatter.lines(for: .report(kind: "explore", lines: lines, data: record)).joined(separator: "\n") + "\n",
        to: SearchWorker.reportDescriptor)
    return status
}

/// The command line a job gets: this one without the options the parent keeps (`--jobs`,
/// `--out`, `--overwrite`, `--format`, `--seed`), with the seed chosen and JSON out.
private func childArguments(_ arguments: ArraySlice<String>, seed: UInt64) -> [String] {
    let withValue: Set = ["--jobs", "--out", "--format", "--seed"]
    var kept: [String] = []
    var skipNext = false
    for argument in arguments {
        if skipNext {
            skipNext = false
            continue
        }
        if withValue.contains(argument) {
            skipNext = true
            continue
        }
        if argument == "--overwrite" || withValue.contains(where: { argument.hasPrefix($0 + "=") }) { continue }
        kept.append(argument)
    }
    return SearchWorker.withFlags(kept, ["--seed", String(seed), "--format", "json"])
}

/// Runs one job to its end: what it printed, and how it ended.
private func runChild(_ executable: String, _ arguments: [String], environment: [String: String], index: Int) async
    -> (
        Int, Data, Data, Spawn.Ending?
    )
{
    await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            guard let child = try? ChildProcess.start(executable, arguments, environment: environment) else {
                continuation.resume(returning: (index, Data(), Data(), nil))
                return
            }
            let output = ReadBytes()
            let errors = ReadBytes()
            ChildProcess.drain(child.output, into: output)
            // What a job prints (its progress, its model's output) is the user's to see.
            ChildProcess.drain(child.errors, into: errors, forwardingTo: STDERR_FILENO)
            let ending = child.wait()
            let grace = DispatchTime.now().uptimeNanoseconds + 2_000_000_000
            while !(output.isFinished && errors.isFinished), DispatchTime.now().uptimeNanoseconds < grace {
                usleep(1000)
            }
            continuation.resume(returning: (index, output.value, errors.value, ending))
        }
    }
}
