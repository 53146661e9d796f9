import Foundation
import StoreHost
import StoreValue

/// `:export FILE [--force]`: the action log, written with the model's fingerprint (plugin,
/// model, ABI version, and the action schema with a hash) that `:import` checks.
struct ExportCommand: ShellCommand {
    let name = "export"
    let readsOnly = true
    let usage = ":export FILE [--force]"
    let summary = "write the action log, with a fingerprint of the model it came from"
    let detail = ["An existing FILE is replaced only with --force."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        export(arguments.words, origin: origin, in: core)
    }

    /// Writes the current model's timeline, with the fingerprint `:import` checks.
    @MainActor private func export(_ args: [String], origin: LineOrigin, in context: some CommandContext) -> Bool {
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        let force = args.contains("--force")
        let files = args.filter { $0 != "--force" }
        guard let written = files.first, files.count == 1 else {
            return context.fail("usage: :export FILE [--force]", origin: origin)
        }
        guard history.dropped == 0 else {
            return context.fail(
                "the first \(history.dropped) actions were dropped (--history-limit \(history.limit ?? 0)), so an export could not rebuild the state; a journal (--journal) keeps every action",
                origin: origin)
        }
        // The log would rebuild another state than the session's.
        if let lost = history.unreplayable(replayingUpTo: history.position).first {
            return context.fail(
                "cannot export \(session.model.qualifiedName): after action \(history.shown(lost.position)) \(lost.note), so an import of the log would give a state without it; \(written) was not written",
                origin: origin)
        }
        // An export replaced a file without a word: say so first, and replace only when told.
        let target = OutputFile(
            path: context.resolvePath(written), named: written, kind: .export, force: force,
            hint: "':export \(written) --force'")
        let model = session.model
        let plugin = context.host.plugins.first { $0.name == model.plugin }
        let schema = ExportedLog.schemaLines(of: model)
        var lines = [
            ExportedLog.header,
            "# plugin: \(model.plugin) \(plugin?.version ?? "?")",
            "# model: \(model.qualifiedName)",
            "# abi: \(PluginHost.abiVersion)",
            "# schema: " + String(format: "%08x", CRC32.checksum(schema.joined(separator: "\n"))),
        ]
        lines += schema.map { "# action: " + $0 }
        for entry in history.entries.prefix(history.position) where !entry.skipped {
            lines.append(entry.source.rawValue + " " + entry.text(in: model))
        }
        do throws(OutputFile.Problem) {
            try target.write(lines.joined(separator: "\n") + "\n")
        } catch {
            return context.fail(error.description, origin: origin)
        }
        context.output(
            .info(
                kind: "export",
                lines: ["exported \(ExportedLog.actions(history.position)) of \(model.qualifiedName) to \(written)"]
            ))
        return true
    }
}
