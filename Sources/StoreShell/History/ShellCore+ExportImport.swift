import Foundation
import StoreHost
import StoreValue

/// `:import`: a log `:export` wrote, checked against the model's fingerprint (its plugin,
/// ABI version and action schema), so a log from a model whose actions changed is refused
/// with an explanation instead of replaying wrong; then replayed into a new store.
extension ShellCore {
    func importLog(_ args: [String], origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        let force = args.contains("--force")
        let files = args.filter { $0 != "--force" }
        guard let written = files.first, files.count == 1 else {
            return fail("usage: :import FILE [--force]", origin: origin)
        }
        let path = resolvePath(written)
        let data: Data
        switch readWholeFile(path) {
        case .success(let bytes): data = Data(bytes)
        case .failure(let error): return fail("cannot read \(written): \(error.reason)", origin: origin)
        }
        let log: ExportedLog
        do throws(ExportedLog.Problem) {
            log = try ExportedLog.parse(data, name: written)
        } catch {
            return fail(error.message, origin: origin)
        }
        let model = session.model
        let currentSchema = ExportedLog.schemaLines(of: model)
        if log.model != model.qualifiedName, !force {
            // Another model's log: which one, and how to get there, not two lists of actions.
            let loaded = host.models.contains { $0.qualifiedName == log.model }
            let plugin = log.model.split(separator: ".").first.map(String.init) ?? log.model
            let reach = loaded ? "':use \(log.model)'" : "':load' its plugin (\(plugin)), ':use \(log.model)'"
            return fail(
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
            return fail(
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
                    return fail(
                        "\(written):\(entry.line): entry \(index + 1) (\(entry.text)) does not fit \(model.qualifiedName); nothing was imported",
                        origin: origin)
                }
                continue
            }
            fitting.append((bound.0, bound.1, source))
        }
        let entries = log.entries
        if fitting.isEmpty, !entries.isEmpty {
            return fail(
                "\(written): none of its \(entries.count) actions fit \(model.qualifiedName); nothing was imported",
                origin: origin)
        }
        let fresh: Session
        do throws(ShellError) {
            fresh = try detachedSession(of: model)
        } catch {
            return fail(error.message, origin: origin)
        }
        let history = recorder.newHistory(initial: fresh.state)
        let refused: (index: Int, error: SessionError)?
        do throws(SessionError) {
            refused = try replayInBatches(
                fitting.map { ReplayItem(action: $0.action, arguments: $0.arguments) }, into: fresh, position: 0,
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
            return fail(
                "\(written): its actions could not be replayed: \(error.message); nothing was imported", origin: origin)
        }
        if let refused {
            let entry = fitting[refused.index]
            return fail(
                "\(written): action \(refused.index + 1) (\(entry.action.text(with: entry.arguments))) failed: \(refused.error.message); nothing was imported",
                origin: origin)
        }
        guard journalAhead(.reset, origin: origin) else { return false }
        recorder.histories[model.qualifiedName] = history
        install(fresh, replacing: session)
        for entry in fitting {
            journalDone(
                .action(
                    model: model.qualifiedName, source: entry.source, text: entry.action.text(with: entry.arguments)))
        }
        let left = entries.count - fitting.count
        let leftOut = left == 1 ? "; 1 did not fit and was left out" : "; \(left) did not fit and were left out"
        output(
            .info(
                kind: "import",
                lines: [
                    "imported \(ExportedLog.actions(fitting.count)) into \(model.qualifiedName)"
                        + (left > 0 ? leftOut : "")
                ]))
        return true
    }
}
