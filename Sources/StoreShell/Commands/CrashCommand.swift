import StoreHost
import StoreValue

/// `:crash [PLUGIN]`: how a plugin's last worker died.
struct CrashCommand: ShellCommand {
    let name = "crash"
    let readsOnly = true
    let usage = ":crash [PLUGIN]"
    let summary = "how a plugin's last worker died, with its whole crash report"
    let detail = [
        "The error at the time gives the signal, the runtime's message and the source line; this shows everything the worker wrote at the end, the backtrace of the crashed thread included."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return core.fail("usage: :crash [PLUGIN]", origin: origin) }
        return showCrash(args.first, origin: origin, in: core)
    }

    /// `:crash [PLUGIN]`: how the plugin's last worker died, and everything it wrote to
    /// stderr at the end (Swift's crash report, with the backtrace of the crashed thread).
    @MainActor private func showCrash(_ name: String?, origin: LineOrigin, in context: some CommandContext) -> Bool {
        guard let plugin = context.namedPlugin(name, command: "crash", origin: origin) else { return false }
        let pluginName = plugin.name
        guard !plugin.runsInStoreshsProcess else {
            return context.fail(
                "\(pluginName) runs inside storesh (--in-process): a crash there ends storesh, so there is no report to show",
                origin: origin)
        }
        guard let loss = plugin.lastLoss else {
            context.output(.info(kind: "crash", lines: ["\(pluginName)'s workers have not crashed"]))
            return true
        }
        let report = loss.lastWords.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        context.output(
            .report(
                kind: "crash", lines: ["\(pluginName)'s last worker ended: \(loss)"] + report,
                data: .record([
                    "plugin": .string(pluginName), "ended": .string(loss.description),
                    "report": .string(loss.lastWords),
                ])))
        return true
    }
}
