import Dispatch
import Foundation
import StoreHost
import StoreValue

/// What identifies a version of a file: its modification time and size (nil: missing).
struct FileStamp: Equatable {
    let modified: Date
    let size: UInt64

    init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let modified = attributes[.modificationDate] as? Date, let size = attributes[.size] as? NSNumber
        else { return nil }
        self.modified = modified
        self.size = size.uint64Value
    }
}

/// `:reload`: a rebuilt plugin, loaded in a new worker, takes over the sessions of the old
/// one. Each session's history is bound to the new schema and replayed (updates only); the
/// old worker is kept, and nothing changes, when the new one fails to load or crashes or
/// refuses an action on the way.
extension ShellCore {
    /// Reloads the plugin named `name` (nil: the current model's). Returns false after
    /// reporting why nothing changed.
    @discardableResult
    package func reload(_ name: String?, origin: LineOrigin = .prompt) -> Bool {
        guard let old = namedPlugin(name, command: "reload", origin: origin) else { return false }
        let pluginName = old.name
        guard !old.runsInStoreshsProcess else {
            return fail(
                "\(pluginName) runs inside storesh (--in-process), where a library cannot be loaded again; start storesh without --in-process to reload",
                origin: origin)
        }
        let replacement: PluginReplacement
        do {
            replacement = try old.startAnew(in: host)
        } catch {
            return fail("cannot reload \(pluginName): \(error.description); the old build goes on", origin: origin)
        }
        guard replacement.registeredName == (old.registeredName ?? old.name) else {
            return fail(
                "\(old.path) is now the plugin '\(replacement.registeredName)', not '\(old.registeredName ?? old.name)'; the old build goes on",
                origin: origin)
        }
        let models = replacement.models
        var replaced: [(old: Session, fresh: Session, history: History)] = []
        var notes: [String] = []
        for oldModel in old.models {
            guard let session = sessions[oldModel.qualifiedName],
                let history = recorder.histories[oldModel.qualifiedName]
            else {
                continue
            }
            guard let model = models.first(where: { $0.name == oldModel.name }) else {
                return fail(
                    "the new build of \(pluginName) has no model '\(oldModel.name)', which has a session; the old build goes on",
                    origin: origin)
            }
            switch rebind(history, of: oldModel, to: model) {
            case .failure(let error): return fail(error.message + "; the old build goes on", origin: origin)
            case .success(let (fresh, rebuilt, left)):
                replaced.append((session, fresh, rebuilt))
                if !left.isEmpty {
                    notes.append(
                        "\(model.qualifiedName): left out \(left.count) action\(left.count == 1 ? "" : "s") the new build does not accept: "
                            + left.prefix(5).joined(separator: ", ") + (left.count > 5 ? ", …" : ""))
                }
            }
        }
        // Everything worked: the new worker takes over.
        let currentKey = current?.model.qualifiedName
        var lines = [
            "reloaded \(replacement.name) \(replacement.version) from \(replacement.resolvedPath) (was \(old.version)); replayed "
                + replaced.map { "\($0.fresh.model.qualifiedName) to \($0.history.position)" }.joined(separator: ", ")
        ]
        lines += notes
        for item in replaced {
            let key = item.fresh.model.qualifiedName
            for effect in inFlight(in: key) {
                item.old.receive(
                    EffectEventRecord(
                        kind: .cancelled, effect: effect.id, label: effect.label, action: nil,
                        message: "the plugin was reloaded", elapsedMilliseconds: item.old.elapsed))
            }
            let before = item.old.state
            recorder.histories[key] = item.history
            install(item.fresh, replacing: item.old)
            if key == currentKey {
                let changes = item.fresh.model.stateDiff.changes(from: before, to: item.fresh.state)
                lines += changes.isEmpty ? ["  (the state is the same)"] : changes.map { "  " + $0.description }
            }
        }
        host.adopt(replacement, replacing: old)
        output(.info(kind: "reload", lines: lines))
        // Said as a rebuild says it: the replayed state lacks what such an effect did.
        for item in replaced {
            let key = item.fresh.model.qualifiedName
            for lost in item.history.unreplayable(from: 0, to: item.history.position) {
                output(
                    .error(
                        ShellError(
                            "\(key): the state replayed in the new build lacks what an effect did after action \(item.history.shown(lost.position)): \(lost.note)",
                            origin: .prompt)))
            }
        }
        return true
    }

    /// `--watch`: checks the files of plugins in workers every `interval` seconds and
    /// reloads one whose file changed and has stopped changing (a build is writing it).
    package func watchPluginFiles(every interval: Double = 0.5) {
        var seen: [String: FileStamp] = [:]
        for plugin in host.plugins { seen[plugin.path] = FileStamp(path: plugin.path) }
        var settling: [String: FileStamp] = [:]
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak route] in
            MainActor.assumeIsolated {
                guard let self = route?.target else { return }
                for plugin in self.host.plugins where !plugin.runsInStoreshsProcess {
                    let now = FileStamp(path: plugin.path)
                    guard let known = seen[plugin.path] else {
                        seen[plugin.path] = now
                        continue
                    }
                    guard now != known, now != nil else {
                        settling[plugin.path] = nil
                        continue
                    }
                    if settling[plugin.path] == now {
                        settling[plugin.path] = nil
                        seen[plugin.path] = now
                        self.reload(plugin.name)
                    } else {
                        settling[plugin.path] = now
                    }
                }
            }
        }
        timer.resume()
        watchTimer = timer
    }

    /// A new session of `model` with `history` (recorded against `oldModel`) bound to its
    /// schema and replayed up to the same position. Actions it no longer accepts are left
    /// out (their text is returned).
    private func rebind(_ history: History, of oldModel: ModelDescriptor, to model: ModelDescriptor) -> Result<
        (Session, History, [String]), ShellError
    > {
        let fresh: Session
        do throws(ShellError) {
            fresh = try detachedSession(of: model)
        } catch {
            return .failure(error)
        }
        // A history whose oldest actions were dropped starts from its oldest snapshot.
        if history.dropped > 0, (try? fresh.restore(history.initial)) != true {
            return .failure(
                ShellError(
                    "the first \(history.dropped) actions of \(model.qualifiedName) were dropped (--history-limit), and the new build cannot restore the oldest state kept",
                    origin: .prompt))
        }
        let rebuilt = History(initial: fresh.state, limit: history.limit, dropped: history.dropped)
        var left: [String] = []
        var position = 0
        // How many of the first n entries the rebuilt history has, for n from 0.
        var keptCounts = [0]
        for (index, entry) in history.entries.enumerated() {
            defer { keptCounts.append(rebuilt.entries.count) }
            let text = entry.text(in: oldModel)
            guard let bound = try? ActionBinding.bind(ActionCall.parse(text), to: model) else {
                left.append(text)
                continue
            }
            rebuilt.record(
                HistoryEntry(
                    action: Int32(bound.0.index), arguments: bound.1, source: entry.source,
                    changed: entry.changed, skipped: entry.skipped))
            if index < history.position { position = rebuilt.position }
        }
        rebuilt.move(to: position)
        history.carryUnreplayable(to: rebuilt) { keptCounts[$0] }
        guard model.supportsTimeTravel || position == 0 else {
            return .failure(
                ShellError(
                    "the new build of \(model.qualifiedName) cannot replay actions (no replay entry point), so its history cannot be carried over",
                    origin: .prompt))
        }
        do {
            try rebuilt.replay(into: fresh, from: 0, to: position)
        } catch {
            let entry = rebuilt.entries[error.index]
            let text = entry.text(in: model)
            let which =
                error.count == 1
                ? "action \(error.index + 1) (\(text))" : "actions \(error.index + 1) to \(error.index + error.count)"
            return .failure(
                ShellError(
                    "replaying \(which) in the new build of \(model.qualifiedName) failed: \(error.message)",
                    origin: .prompt))
        }
        return .success((fresh, rebuilt, left))
    }
}
