import Foundation
import StoreHost
import StoreShell
import StoreValue

/// Runs `storesh explore`; returns the exit status (0 nothing found, 1 found and its
/// transcript written, 2 usage, 3 found but its transcript not written, or the model ended
/// the search worker and the search made again did not meet it).
@MainActor
func runExplore(_ options: ExploreCommandOptions) async -> Int32 {
    if !options.merge.isEmpty { return mergeExploreReports(options) }
    let actionTimeout = options.isolation.actionTimeout == 0 ? nil : options.isolation.actionTimeout
    if options.searchWorker {
        SearchWorker.become()
    } else if options.usesSearchWorkers, options.jobCount == 1,
        let status = SearchWorker.delegate(actionTimeout: actionTimeout, realWorld: options.isolation.realWorld)
    {
        return status
    }
    let host = PluginHost(
        clock: VirtualClock(), searchPath: PluginHost.defaultSearchPath(extra: options.loading.pluginPath))
    options.isolation.apply(to: host)
    host.workerOutput = { StandardStreams.error($0) }
    var problems: [String] = []
    let core = ShellCore(host: host, showDiff: true, reportActions: false) { output in
        if case .error(let error) = output { problems.append(error.message) }
    }
    for name in options.loading.plugins.isEmpty ? ["Counter"] : options.loading.plugins {
        do {
            _ = try host.load(name)
        } catch {
            StandardStreams.error("storesh explore: \(error.description)\n")
            return 2
        }
    }
    do throws(ShellError) {
        try core.use(options.model ?? host.plugins.first?.models.first?.qualifiedName ?? "")
    } catch {
        StandardStreams.error("storesh explore: \(error.message)\n")
        return 2
    }
    guard let model = core.current?.model, let plugin = host.plugins.first(where: { $0.name == model.plugin }) else {
        return 2
    }
    // Watched once loaded: a slow load is not a hang.
    if options.watchModel, let actionTimeout { SearchWorker.watch(timeout: actionTimeout) }
    // A path that cannot be written is refused before the search, not after it.
    let target = OutputFile.exploreTranscript(options.out, model: model.name, overwrite: options.overwrite)
    do throws(OutputFile.Problem) {
        try target.check()
    } catch {
        StandardStreams.error("storesh explore: \(error.description)\n")
        return 2
    }
    let setup = options.stubs.map { ":stub " + $0 }
    for line in setup where !(await core.execute(line)) {
        StandardStreams.error("storesh explore: --stub '\(line.dropFirst(6))': \(problems.last ?? "refused")\n")
        return 2
    }
    var reference: ExploreReference?
    if let (pluginName, modelName) = options.againstParts {
        let host = PluginHost(
            clock: VirtualClock(), searchPath: PluginHost.defaultSearchPath(extra: options.loading.pluginPath))
        options.isolation.apply(to: host)
        host.workerOutput = { StandardStreams.error($0) }
        do {
            reference = try ExploreReference.load(
                pluginName, model: modelName, in: host, explored: model, plugin: plugin,
                comparison: try options.comparison())
            try await reference?.setUp(setup)
        } catch {
            let problem = (error as? ShellError)?.message ?? "\(error)"
            StandardStreams.error("storesh explore: --against \(options.against ?? ""): \(problem)\n")
            return 2
        }
    }
    let seed = options.seed ?? UInt64(DispatchTime.now().uptimeNanoseconds % 1_000_000_007)
    if options.jobCount > 1 { return await runExploreJobs(options, seed: seed, model: model, target: target) }
    var settings = ExploreOptions(seed: seed)
    settings.runs = options.runBudget
    settings.steps = options.steps
    settings.timeLimit = options.timeLimit
    settings.invariants = (try? options.conditions()) ?? []
    settings.postconditions = (try? options.postconditions()) ?? []
    settings.checkDeterminism = !options.noDeterminismCheck
    settings.guidance = !options.noGuidance
    settings.schedules = options.schedules
    settings.moreFailures = options.moreFailures
    settings.shard = options.shard.flatMap(ExploreShard.init(parsing:)) ?? .whole
    settings.partners = options.stopFile.map { ExploreStopFile(path: $0).partners }
    if options.exhaustive {
        settings.exhaustiveDepth = options.depth ?? 6
        settings.stateLimit = options.stateLimit ?? settings.stateLimit
    }
    settings.actions = options.actions.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    let progress = isatty(STDERR_FILENO) == 1
    var report: ExploreReport
    do {
        let explorer = try Explorer(core: core, options: settings, reference: reference)
        report = try await explorer.explore { line in if progress { StandardStreams.error("explore: \(line)\n") } }
        report.setup = setup
        report.shard = options.shard.flatMap(ExploreShard.init(parsing:))
        report.settings = [
            "runs \(settings.runs)", "steps \(settings.steps)",
            "time-limit \(settings.timeLimit.map { "\($0)" } ?? "none")",
            "invariants \(settings.invariants.map(\.description))",
            "after \(settings.postconditions.map { "\($0.action) \($0.condition)" })",
            "actions \(settings.actions ?? [])", "determinism \(settings.checkDeterminism)",
            "guidance \(settings.guidance)", "schedules \(settings.schedules)",
            "more-failures \(settings.moreFailures)", "against \(options.against ?? "none")",
            "compare \(options.comparePaths)", "stubs \(options.stubs)",
        ].joined(separator: "; ")
        report.referencePlugin = reference?.pluginPath
        report.referenceAlias = reference?.pluginAlias
    } catch {
        StandardStreams.error("storesh explore: \(error.message)\n")
        return 2
    }
    let rate = report.searchSeconds > 0 ? Int(Double(report.steps) / report.searchSeconds) : 0
    // A job's is said once for all of them, by the storesh that started them.
    if options.stopFile == nil {
        StandardStreams.error(
            "explore: searched \(report.runs) run\(report.runs == 1 ? "" : "s") in \(String(format: "%.2f", report.searchSeconds)) s (\(rate) steps/s)"
                + (report.failure == nil ? "" : "; shrank in \(String(format: "%.2f", report.shrinkSeconds)) s") + "\n")
    }
    var lines = report.lines(model: model)
    var record = report.record(model: model)
    var written = false
    if report.failure != nil {
        let file = target.path
        do throws(OutputFile.Problem) {
            try await ExploreTranscript.write(
                report, model: model, pluginPath: plugin.path, to: target, foundBy: "storesh explore",
                searchPath: host.searchPath
            ) { options.isolation.apply(to: $0) }
            written = true
            lines += ["wrote \(options.out ?? (file as NSString).lastPathComponent): run it with storesh test"]
            if case .record(let type, var fields) = record {
                fields.append(.init("transcript", .string(file)))
                record = .record(type: type, fields: fields)
            }
        } catch {
            StandardStreams.error("storesh explore: the transcript was not written: \(error.description)\n")
        }
    }
    let formatter = OutputFormatter(format: options.format == "json" ? .json : .tree, color: false)
    StandardStreams.write(
        formatter.lines(for: .report(kind: "explore", lines: lines, data: record)).joined(separator: "\n") + "\n",
        to: SearchWorker.reportDescriptor)
    if report.failure == nil, let ended = SearchWorker.fellBack {
        // The search worker ended in its model, and the search made again did not meet it
        // (a time limit reached sooner in a worker, a crash that comes and goes).
        StandardStreams.error(
            "storesh explore: the model \(ended) in the search's process, but the search made again with the model in a worker process found nothing: run it again with --no-search-worker (and without --time-limit) to look for it\n"
        )
        return 3
    }
    return report.failure == nil ? 0 : written ? 1 : 3
}
