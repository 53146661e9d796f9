import Foundation
import StoreValue

/// `:export` and `:import`: an action log with a fingerprint of the model that produced
/// it (plugin, model, ABI version, and the action schema with a hash), so a log from a
/// model whose actions changed is refused with an explanation instead of replaying wrong.
extension ShellCore {
    static let exportHeader = "# storesh export 1"

    func schemaLines(_ model: ModelDescriptor) -> [String] {
        model.actions.map { ActionBinding.signature(of: $0) }
    }

    func export(_ args: [String], origin: LineOrigin) -> Bool {
        guard let session = current, let history = histories[session.model.qualifiedName] else { return fail("no model is loaded", origin: origin) }
        guard let path = args.first, args.count == 1 else { return fail("usage: :export FILE", origin: origin) }
        let model = session.model
        let plugin = host.plugins.first { $0.name == model.plugin }
        let schema = schemaLines(model)
        var lines = [
            Self.exportHeader,
            "# plugin: \(model.plugin) \(plugin?.version ?? "?")",
            "# model: \(model.qualifiedName)",
            "# abi: \(PluginHost.abiVersion)",
            "# schema: " + String(format: "%08x", CRC32.checksum(schema.joined(separator: "\n"))),
        ]
        lines += schema.map { "# action: " + $0 }
        for entry in history.entries.prefix(history.position) where !entry.skipped {
            lines.append(entry.source.rawValue + " " + text(of: entry, in: model))
        }
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            return fail("cannot write \(path): \(error.localizedDescription)", origin: origin)
        }
        output(.info(kind: "export", lines: ["exported \(history.position) actions of \(model.qualifiedName) to \(path)"]))
        return true
    }

    func importLog(_ args: [String], origin: LineOrigin) -> Bool {
        guard let session = current else { return fail("no model is loaded", origin: origin) }
        let force = args.contains("--force")
        guard let path = args.first(where: { $0 != "--force" }) else { return fail("usage: :import FILE [--force]", origin: origin) }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return fail("cannot read \(path)", origin: origin) }
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.first == Self.exportHeader else { return fail("\(path) is not a storesh export (its first line should be '\(Self.exportHeader)')", origin: origin) }
        let model = session.model
        let exportedModel = lines.first { $0.hasPrefix("# model: ") }.map { String($0.dropFirst(9)) } ?? "?"
        let exportedSchema = lines.filter { $0.hasPrefix("# action: ") }.map { String($0.dropFirst(10)) }
        let currentSchema = schemaLines(model)
        var problems: [String] = []
        if exportedModel != model.qualifiedName {
            problems.append("the log is from \(exportedModel), the current model is \(model.qualifiedName)")
        }
        let gone = exportedSchema.filter { !currentSchema.contains($0) }
        let new = currentSchema.filter { !exportedSchema.contains($0) }
        if !gone.isEmpty { problems.append("actions the log knows that the model no longer has: \(gone.joined(separator: ", "))") }
        if !new.isEmpty { problems.append("actions the model has that the log does not know: \(new.joined(separator: ", "))") }
        if !problems.isEmpty && !force {
            return fail("\(path) was recorded with a different schema: " + problems.joined(separator: "; ") + ". Use :import \(path) --force to replay it anyway", origin: origin)
        }
        let entries = lines.filter { !$0.hasPrefix("#") }
        do {
            let fresh = try freshSession(for: session)
            histories[model.qualifiedName] = History(initial: fresh.state)
            journal?.append(.reset)
            var skipped = 0
            for (index, line) in entries.enumerated() {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, let source = ActionSource(rawValue: parts[0]),
                      let bound = try? ActionBinding.bind(ActionCall.parse(parts[1]), to: model)
                else {
                    guard force else { return fail("\(path): entry \(index + 1) (\(line)) does not fit \(model.qualifiedName)", origin: origin) }
                    skipped += 1
                    continue
                }
                let changed = try fresh.replay(bound.0.name, arguments: bound.1)
                record(bound.0, bound.1, source: source, changed: changed, in: fresh)
            }
            output(.info(kind: "import", lines: ["imported \(entries.count - skipped) actions into \(model.qualifiedName)" + (skipped > 0 ? "; \(skipped) did not fit and were left out" : "")]))
            return true
        } catch let error as ShellError {
            return fail(error.message, origin: origin)
        } catch let error as SessionError {
            return fail(error.message, origin: origin)
        } catch {
            return fail("\(error)", origin: origin)
        }
    }

    /// Rebuilds a session from journal records (`storesh --resume`): loads, model
    /// switches, actions (replayed, effects not re-run), jumps and skips, in order.
    public func resume(_ records: [JournalRecord]) async -> Bool {
        let saved = journal
        let savedOutput = output
        journal = nil
        // Rebuilding is quiet; only errors are shown.
        output = { item in if case .error = item { savedOutput(item) } }
        defer {
            journal = saved
            output = savedOutput
        }
        for entry in records {
            switch entry {
            case .load(let plugin):
                if host.plugins.contains(where: { $0.path.hasSuffix(plugin) || $0.name.caseInsensitiveCompare(plugin) == .orderedSame }) { continue }
                if await !execute(":load \(plugin)") { return false }
            case .use(let model):
                if await !execute(":use \(model)") { return false }
            case .reset:
                if await !execute(":reset") { return false }
            case .action(let model, let source, let text):
                if current?.model.qualifiedName != model, await !execute(":use \(model)") { return false }
                guard let session = current else { return false }
                do {
                    let bound = try ActionBinding.bind(ActionCall.parse(text), to: session.model)
                    let changed = try session.replay(bound.0.name, arguments: bound.1)
                    record(bound.0, bound.1, source: source, changed: changed, in: session)
                } catch {
                    return fail("cannot resume: \(text): \(error)", origin: .prompt)
                }
            case .goto(let model, let position):
                if current?.model.qualifiedName != model, await !execute(":use \(model)") { return false }
                if await !execute(":goto \(position)") { return false }
            case .skip(let model, let index), .unskip(let model, let index):
                if current?.model.qualifiedName != model, await !execute(":use \(model)") { return false }
                let skip = if case .skip = entry { true } else { false }
                if await !execute(":\(skip ? "skip" : "unskip") \(index)") { return false }
            }
        }
        return true
    }
}
