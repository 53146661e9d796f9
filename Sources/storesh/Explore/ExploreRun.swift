import Foundation
import StoreHost
import StoreShell
import StoreValue

/// Runs `storesh explore`; returns the exit status (0 nothing found, 1 found, 2 usage).
@MainActor
func runExplore(_ options: ExploreCommandOptions) async -> Int32 {
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
    let setup = options.stubs.map { ":stub " + $0 }
    for line in setup where !(await core.execute(line)) {
        StandardStreams.error("storesh explore: --stub '\(line.dropFirst(6))': \(problems.last ?? "refused")\n")
        return 2
    }
    let seed = options.seed ?? UInt64(DispatchTime.now().uptimeNanoseconds % 1_000_000_007)
    var settings = ExploreOptions(seed: seed)
    settings.runs = options.runs
    settings.steps = options.steps
    settings.timeLimit = options.timeLimit
    settings.invariants = (try? options.conditions()) ?? []
    settings.checkDeterminism = !options.noDeterminismCheck
    settings.actions = options.actions.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    let progress = isatty(STDERR_FILENO) == 1
    var report: ExploreReport
    do {
        let explorer = try Explorer(core: core, options: settings)
        report = try await explorer.explore { line in if progress { StandardStreams.error("explore: \(line)\n") } }
        report.setup = setup
    } catch {
        StandardStreams.error("storesh explore: \(error.message)\n")
        return 2
    }
    let rate = report.searchSeconds > 0 ? Int(Double(report.steps) / report.searchSeconds) : 0
    StandardStreams.error(
        "explore: searched \(report.runs) runs in \(String(format: "%.2f", report.searchSeconds)) s (\(rate) steps/s)"
            + (report.failure == nil ? "" : "; shrank in \(String(format: "%.2f", report.shrinkSeconds)) s") + "\n")
    var lines = report.lines(model: model)
    var record = report.record(model: model)
    if report.failure != nil {
        let file = URL(fileURLWithPath: options.out ?? "\(model.name).transcript").standardizedFileURL.path
        do throws(TranscriptWriter.Problem) {
            try await ExploreTranscript.write(
                report, model: model, pluginPath: plugin.path, to: file, foundBy: "storesh explore",
                searchPath: host.searchPath
            ) { options.isolation.apply(to: $0) }
            lines += ["wrote \(options.out ?? (file as NSString).lastPathComponent): run it with storesh test"]
            if case .record(let type, var fields) = record {
                fields.append(.init("transcript", .string(file)))
                record = .record(type: type, fields: fields)
            }
        } catch {
            StandardStreams.error("storesh explore: \(error.description)\n")
        }
    }
    let formatter = OutputFormatter(format: options.format == "json" ? .json : .tree, color: false)
    StandardStreams.write(
        formatter.lines(for: .report(kind: "explore", lines: lines, data: record)).joined(separator: "\n") + "\n",
        to: STDOUT_FILENO)
    return report.failure == nil ? 0 : 1
}
