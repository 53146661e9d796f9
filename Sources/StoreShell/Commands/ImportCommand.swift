import Foundation
import StoreHost
import StoreValue

/// What `:import` needs beyond a timeline's context: the new session installed in place of
/// the old, and each imported action journalled once it is in. `ShellCore` is the one
/// conformer.
@MainActor
protocol ImportContext: TimelineContext {
    /// Makes `session` its model's session (and the current one if `old` was).
    func install(_ session: Session, replacing old: Session?)
    /// Writes `record` to the journal once what it describes is done; false (reported)
    /// when it could not be written.
    @discardableResult
    func journalDone(_ record: JournalRecord) -> Bool
}

/// `:import FILE [--force]`: a log `:export` wrote, checked against the model's
/// fingerprint (its plugin, ABI version and action schema), so a log from a model whose
/// actions changed is refused with an explanation instead of replaying wrong; then
/// replayed into a new store.
struct ImportCommand: ShellCommand {
    let name = "import"
    let usage = ":import FILE [--force]"
    let summary = "replay an exported log into a new store of the current model"
    let detail = ["A log from a model whose schema changed is refused with what changed, unless --force."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        importLog(arguments.words, origin: origin, in: core)
    }

    /// Checks the log against the current model, replays what fits into a new store, and
    /// makes it the session, with the journal written ahead.
    @MainActor private func importLog(_ args: [String], origin: LineOrigin, in context: some ImportContext) -> Bool {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let force = args.contains("--force")
        let files = args.filter { $0 != "--force" }
        guard let written = files.first, files.count == 1 else {
            return context.fail("usage: :import FILE [--force]", origin: origin)
        }
        let path = context.resolvePath(written)
        let data: Data
        switch readWholeFile(path) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let error): return context.fail("cannot read \(written): \(error.reason)", origin: origin)
        }
        let log: ExportedLog
        do throws(ExportedLog.Problem) {
            log = try ExportedLog.parse(data, name: written)
        } catch {
            return context.fail(error.message, origin: origin)
        }
        let model = session.model
        let currentSchema = ExportedLog.schemaLines(of: model)
        if log.model != model.qualifiedName, !force {
            // Another model's log: which one, and how to get there, not two lists of actions.
            let loaded = context.host.models.contains { $0.qualifiedName == log.model }
            let plugin = log.model.split(separator: ".").first.map(String.init) ?? log.model
            let reach = loaded ? "':use \(log.model)'" : "':load' its plugin (\(plugin)), ':use \(log.model)'"
            return context.fail(
                "\(written) is a log of \(log.model), and the current model is \(model.qualifiedName): \(reach), then ':import \(written)' (--force replays what fits into \(model.qualifiedName) anyway)",
                origin: origin)
        }
        var problems: [String] = []
        let exportedSet = Set(log.schema)
        let currentSet = Set(currentSchema)
        let gone = log.schema.filter { !currentSet.contains($0) }
        let new = currentSchema.filter { !exportedSet.contains($0) }
        if !gone.isEmpty {
            problems.append("actions the log knows that the model no longer has: \(gone.joined(separator: ", "))")
        }
        if !new.isEmpty {
            problems.append("actions the model has that the log does not know: \(new.joined(separator: ", "))")
        }
        if !problems.isEmpty && !force {
            return context.fail(
                "\(written) was recorded with a different schema: " + problems.joined(separator: "; ")
                    + ". Use :import \(written) --force to replay it anyway", origin: origin)
        }
        // Validate everything, then replace: a refusal leaves the session as it was.
        var fitting: [(action: ActionDescriptor, arguments: [Value], source: ActionSource)] = []
        for (index, entry) in log.entries.enumerated() {
            guard let source = entry.source,
                let bound = try? ActionBinding.bind(ActionCall.parse(entry.text), to: model)
            else {
                guard force else {
                    return context.fail(
                        "\(written):\(entry.line): entry \(index + 1) (\(entry.text)) does not fit \(model.qualifiedName); nothing was imported",
                        origin: origin)
                }
                continue
            }
            fitting.append((bound.0, bound.1, source))
        }
        let entries = log.entries
        if fitting.isEmpty, !entries.isEmpty {
            return context.fail(
                "\(written): none of its \(entries.count) actions fit \(model.qualifiedName); nothing was imported",
                origin: origin)
        }
        let fresh: Session
        do throws(ShellError) {
            fresh = try context.detachedSession(of: model)
        } catch {
            return context.fail(error.message, origin: origin)
        }
        let history = context.recorder.newHistory(initial: fresh.state)
        let refused: (index: Int, error: SessionError)?
        do throws(SessionError) {
            refused = try fresh.replayInBatches(
                fitting.map { ReplayItem(action: $0.action, arguments: $0.arguments) }, position: 0,
                interval: history.interval
            ) { index, changed, endsBatch in
                let entry = fitting[index]
                history.record(
                    HistoryEntry(
                        action: Int32(entry.action.index), arguments: entry.arguments, source: entry.source,
                        changed: changed, skipped: false))
                if endsBatch, history.wantsSnapshot { history.rememberState(of: fresh, at: history.position) }
            }
        } catch {
            return context.fail(
                "\(written): its actions could not be replayed: \(error.message); nothing was imported", origin: origin)
        }
        if let refused {
            let entry = fitting[refused.index]
            return context.fail(
                "\(written): action \(refused.index + 1) (\(entry.action.text(with: entry.arguments))) failed: \(refused.error.message); nothing was imported",
                origin: origin)
        }
        guard context.journalAhead(.reset, origin: origin, text: nil) else { return false }
        context.recorder.histories[model.qualifiedName] = history
        context.install(fresh, replacing: session)
        for entry in fitting {
            context.journalDone(
                .action(
                    model: model.qualifiedName, source: entry.source, text: entry.action.text(with: entry.arguments)))
        }
        let left = entries.count - fitting.count
        let leftOut = left == 1 ? "; 1 did not fit and was left out" : "; \(left) did not fit and were left out"
        context.output(
            .info(
                kind: "import",
                lines: [
                    "imported \(ExportedLog.actions(fitting.count)) into \(model.qualifiedName)"
                        + (left > 0 ? leftOut : "")
                ]))
        return true
    }
}
