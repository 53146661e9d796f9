import Foundation
package import StoreHost

/// `storesh test --from-journal JOURNAL --out FILE`: a journal (a session that crashed
/// overnight, say) as a transcript that passes as written, its output recorded.
extension ShellCore {
    /// The transcript for `journal` to be written at `file`: its loads (by a path relative
    /// to `file`), model switches, the typed and scripted actions (an effect's actions
    /// are left to the effect, with a `:wait` where they came), jumps, skips, branches and
    /// resets, in order; the output recorded by running it in a fresh session set up as
    /// `host` is, and checked by running it again.
    package static func transcript(fromJournal journal: String, file: String, like host: PluginHost) async -> Result<
        String, TranscriptWriter.Problem
    > {
        let contents: Journal.Contents
        do throws(Journal.Problem) {
            contents = try Journal.read(journal)
        } catch {
            return .failure(TranscriptWriter.Problem(description: error.message))
        }
        var writer = TranscriptWriter(file: file)
        writer.comment("Recorded by storesh test --from-journal from \(journal).")
        writer.comment("Run it with: storesh test \(file)")
        var current: String?
        var effectsPending = false
        func input(_ line: String, model: String? = nil) {
            if let model, model != current {
                writer.input(":use \(model)")
                current = model
            }
            if effectsPending { writer.input(":wait") }
            effectsPending = false
            writer.input(line)
        }
        for (record, _) in contents.records {
            switch record {
            case .load(let plugin, let alias):
                // storesh test loads Counter itself.
                let name =
                    PluginHost.isPath(plugin)
                    ? PluginHost.pluginName(fromFile: (plugin as NSString).lastPathComponent) ?? "" : plugin
                guard alias != nil || name.caseInsensitiveCompare("Counter") != .orderedSame else { continue }
                input(
                    PluginHost.isPath(plugin)
                        ? writer.loadCommand(plugin: plugin, as: alias)
                        : TranscriptWriter.loadCommand(plugin, as: alias))
                current = nil
            case .use(let model):
                if model != current { input(":use \(model)") }
                current = model
            case .reset: input(":reset")
            case .action(let model, let source, let text):
                if source == .effect {
                    effectsPending = true
                } else {
                    input(text, model: model)
                }
            case .goto(let model, let position): input(":goto \(position)", model: model)
            case .branch(let model, let number): input(":branch \(number)", model: model)
            case .skip(let model, let index): input(":skip \(index)", model: model)
            case .unskip(let model, let index): input(":unskip \(index)", model: model)
            }
        }
        if effectsPending { writer.input(":wait") }
        return await TranscriptWriter.recorded(writer.text, file: file, like: host)
    }
}
