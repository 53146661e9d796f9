import ArgumentParser
import CEditLine
import Dispatch
import Foundation
import StoreHost
import StoreShell
import StoreshCommandLine

/// Runs the shell: plugins, scripts, the prompt. Returns the exit status.
@MainActor
func runShell(_ options: Options) async -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let steps = Options.scriptSteps(arguments)
    for case .file(let path) in steps {
        if let problem = ScriptReader.check(path) {
            StandardStreams.error("storesh: \(problem.message)\n")
            return 2
        }
    }
    let interactive = options.interactive || (steps.isEmpty && Terminal.stdinIsTerminal)
    if interactive {
        // Ctrl-C stops what is running (a script, :wait, a :goto replay) and keeps the
        // session; at the prompt it drops the line.
        cel_catch_interrupts()
    }
    let format = OutputFormatter.Format(rawValue: options.format) ?? .tree
    let printer = Printer(
        formatter: OutputFormatter(
            format: format, color: format == .tree && Terminal.wantsColor(disabled: options.noColor)))
    let host = SessionStart.host(for: options.session)
    // What plugins in workers print goes out as storesh's own output does: after the
    // results written before it, above the prompt at the prompt.
    host.workerOutput = { printer.writePluginOutput($0) }
    // The diff is on at a terminal and for programs that asked for JSON.
    let core = ShellCore(
        host: host, showDiff: Terminal.stdoutIsTerminal || format == .json, reportActions: !options.quiet
    ) { printer.emit($0) }
    core.recorder.historyLimit = options.session.historyLimit == 0 ? nil : options.session.historyLimit
    if interactive { core.takeInterrupt = { cel_take_interrupt() != 0 } }
    core.watchesStateWhenQuiet = format == .json

    var failed = false
    switch await SessionStart.prepare(
        core, options.session, announce: (interactive || !options.session.plugins.isEmpty) && !options.quiet,
        quiet: options.quiet,
        emit: { printer.emit($0) }, warn: { printer.write($0, toStderr: true) })
    {
    case .exit(let status): return status
    case .ready(let startFailed): failed = startFailed
    }
    // The inspector's address goes to standard error: standard output is the session's.
    let inspector = InspectorLauncher(core: core) { printer.write($0, toStderr: true) }
    if await !inspector.startFromOptions(options.inspect) { return 2 }
    let runner = ScriptRunner(core: core, printer: printer, echo: options.echo, bail: options.bail)
    runner.inspector = inspector
    var stopped = false
    var unreadable = false
    var counter = 0
    for step in steps + (steps.isEmpty && !interactive ? [.file("-")] : []) where !stopped {
        let outcome: ScriptRunner.Outcome
        switch step {
        case .file(let path):
            outcome = await runner.run(file: path)
        case .line(let line):
            counter += 1
            outcome = await runner.run(line, file: "-c#\(counter)")
        }
        failed = failed || outcome.failures > 0
        unreadable = unreadable || outcome.unreadable
        stopped = outcome.stop
    }
    // A run that ends with effects in flight has not shown what they do (TCA's TestStore
    // fails the same way); the prompt is exempt, where the user sees them land.
    if !interactive, let unfinished = core.unfinishedEffects() {
        printer.emit(.error(ShellError(unfinished, origin: .prompt)))
        failed = true
    }
    if interactive, !(stopped && (options.bail || core.quitRequested)) {
        await Prompt(core: core, printer: printer, inspector: inspector).run()
    }
    if !SessionStart.finish(core) { failed = true }
    if unreadable { return 2 }
    return failed || core.recorder.journalFailures > 0 || core.recovery.crashes > 0 || core.hostErrors > 0 ? 1 : 0
}
