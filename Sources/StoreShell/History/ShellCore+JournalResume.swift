import Foundation
import StoreHost
import StoreValue

/// `--journal` and `--resume`: starting a journal, and rebuilding a session from one.
extension ShellCore {
    /// `storesh --journal PATH`: a new journal (PATH must not hold a session yet) that
    /// starts with the plugins loaded so far and the current model.
    package func startJournal(at path: String) throws(Journal.Problem) {
        let journal = try Journal(path: path, mode: .create)
        for plugin in host.plugins { try journal.append(.load(plugin: plugin.path, as: plugin.loadedAs)) }
        if let model = current?.model.qualifiedName { try journal.append(.use(model: model)) }
        recorder.journal = journal
    }

    /// What `resumeJournal` did.
    package struct Resumed: Sendable {
        package var records: Int
        /// Action records left out under `force` because the model no longer has them.
        package var skipped: Int
        package var warnings: [String]
    }

    /// `storesh --resume PATH`: rebuilds the session the journal at `path` describes
    /// (loads, model switches, actions replayed with their effects not re-run, jumps and
    /// skips, in order), then appends to it — or, with `continuingIn`, copies it to that
    /// new file and appends there, leaving `path` as it was. An action the model no
    /// longer has stops the resume with the journal's line, unless `force` leaves it out.
    /// Throws for a journal that cannot be read or written; returns nil when a record
    /// could not be replayed (the error has been reported).
    package func resumeJournal(from path: String, continuingIn target: String? = nil, force: Bool = false)
        async throws(Journal.Problem) -> Resumed?
    {
        // Claimed before it is read: a journal another storesh writes is refused before
        // anything is replayed.
        let claim = target == nil || target == path ? try Journal.Claim.forResuming(path) : nil
        // Checked whole before anything is replayed, then read again record by record as it
        // is replayed: a long journal is never held in memory. (One read from a pipe or a
        // device can be read once: it is held.)
        var records: JournalRecords
        let checked: (count: Int, warning: String?, validLength: Int)
        if Journal.isFile(path) {
            let check = try Journal.RecordReader(path: path)
            while try check.next() != nil {}
            checked = (check.count, check.warning, check.validLength)
            records = .file(try Journal.RecordReader(path: path))
        } else {
            let contents = try Journal.read(path)
            checked = (contents.records.count, contents.warning, contents.validLength)
            records = .held(contents.records[...])
        }
        var resumed = Resumed(records: checked.count, skipped: 0, warnings: checked.warning.map { [$0] } ?? [])
        // Continuing in a new file: the records kept are copied there as they are replayed.
        let copyFileExisted = target.map { FileManager.default.fileExists(atPath: $0) } ?? false
        let copy = try target.flatMap { target throws(Journal.Problem) in
            target == path ? nil : try Journal(path: target, mode: .create)
        }
        let kept = KeptRecords(copy: copy, madeCopyFile: !copyFileExisted)
        let savedOutput = output
        recorder.journal = nil
        // Rebuilding is quiet; only errors are shown.
        output = { item in if case .error = item { savedOutput(item) } }
        // The actions of the current model are replayed in batches (one request each for
        // a model in a worker); any other record replays the batch gathered before it.
        var queued: [QueuedReplay] = []
        var failed = false
        while !failed, let (record, line) = try records.next() {
            let origin = LineOrigin(file: path, line: line)
            if case .action(let model, let source, let text) = record, let session = current,
                session.model.qualifiedName == model
            {
                do throws(TextError) {
                    let bound = try ActionBinding.bind(ActionCall.parse(text), to: session.model)
                    queued.append(
                        QueuedReplay(
                            item: ReplayItem(action: bound.0, arguments: bound.1), source: source, text: text,
                            record: record, origin: origin))
                    if queued.count >= Self.replayBatchLimit { failed = !replayQueued(&queued, kept: kept) }
                } catch {
                    if force {
                        resumed.skipped += 1
                    } else {
                        // The actions before it go first: the error is the journal's first problem.
                        failed =
                            !replayQueued(&queued, kept: kept)
                            || !fail(
                                "\(model) does not accept '\(text)' any more (\(error.message)); the journal was recorded with another version of the plugin. --force leaves such actions out",
                                origin: origin)
                    }
                }
                continue
            }
            guard replayQueued(&queued, kept: kept) else {
                failed = true
                break
            }
            switch await replay(record, origin: origin, force: force, warnings: &resumed.warnings) {
            case .done: kept.keep(record)
            case .skipped: resumed.skipped += 1
            case .failed: failed = true
            }
        }
        if !failed { failed = !replayQueued(&queued, kept: kept) }
        output = savedOutput
        if failed {
            if let target { kept.abandonCopy(at: target) }
            return nil
        }
        if let problem = kept.copyProblem { throw problem }
        if resumed.skipped > 0 {
            resumed.warnings.append(
                "\(path): \(resumed.skipped) action records the model no longer has were left out (--force; --journal NEW --resume \(path) writes a copy without them)"
            )
        }
        // The reader's descriptor is closed before the journal names its writer: closing a
        // descriptor of the file drops this process's locks on it (see `Journal.Claim`).
        records = .held([])
        if let copy = kept.copy {
            recorder.journal = copy
        } else {
            do throws(Journal.Problem) {
                guard let claim else {
                    var status = stat()
                    _ = stat(path, &status)
                    throw Journal.Problem(message: Journal.Claim.notAJournal(path, mode: status.st_mode))
                }
                recorder.journal = try Journal(claim: claim, mode: .resume(validLength: checked.validLength))
            } catch {
                // Read from a pipe or a device, a session goes on in a file named for it.
                throw Journal.Problem(message: error.message + " (to go on from it, add --journal FILE)")
            }
        }
        try journalWhatTheCommandLineAdded(to: kept.loadsAndUses)
        return resumed
    }

    /// Plugins loaded and the model chosen on the command line (`--plugin`, `--model`)
    /// that the resumed journal does not name are written after its records: without
    /// them, a later resume would not find the model the new actions went to.
    private func journalWhatTheCommandLineAdded(to records: [JournalRecord]) throws(Journal.Problem) {
        guard let journal = recorder.journal else { return }
        var plugins: [String] = []
        var model: String?
        for record in records {
            if case .load(let plugin, _) = record { plugins.append(plugin) }
            if case .use(let chosen) = record { model = chosen }
        }
        for plugin in host.plugins where !plugins.contains(where: { Self.record($0, names: plugin) }) {
            try journal.append(.load(plugin: plugin.path, as: plugin.loadedAs))
        }
        if let current = current?.model.qualifiedName, current != model { try journal.append(.use(model: current)) }
    }

    private enum ReplayOutcome { case done, skipped, failed }

    /// A journal names its plugins by the file they were loaded from, which may not be
    /// there any more (a journal from CI, a build directory cleaned): the plugin of the
    /// same name is then taken from the search path (or as already loaded), with a warning
    /// that says which file stands in. Nil when the file is there, or no name can be had
    /// from it (the load then reports why).
    private func loadElsewhere(_ path: String, as alias: String?, origin: LineOrigin, warnings: inout [String])
        -> ReplayOutcome?
    {
        guard path.contains("/"), !FileManager.default.fileExists(atPath: path),
            let name = PluginHost.pluginName(fromFile: Self.fileName(path))
        else { return nil }
        let loaded: LoadedPlugin
        if let already = host.plugins.first(where: {
            if let alias { return $0.name == alias }
            return $0.name.caseInsensitiveCompare(name) == .orderedSame || Self.fileName($0.path) == Self.fileName(path)
        }) {
            loaded = already
        } else {
            do {
                loaded = try host.load(name, as: alias)
            } catch {
                fail(
                    "cannot resume: \(path) is not there, and no plugin named '\(name)' stands in for it: \(error.description)",
                    origin: origin)
                return .failed
            }
        }
        warnings.append(
            "\(origin.file ?? "journal"):\(origin.line): \(path) is not there; going on with \(loaded.name) \(loaded.version) from \(loaded.path)"
        )
        return .done
    }

    private static func fileName(_ path: String) -> String { (path as NSString).lastPathComponent }

    /// Whether a journal's load record (a plugin's file, or its name) is `plugin`.
    private static func record(_ loaded: String, names plugin: LoadedPlugin) -> Bool {
        loaded == plugin.path || plugin.name.caseInsensitiveCompare(loaded) == .orderedSame
    }

    private func replay(_ entry: JournalRecord, origin: LineOrigin, force: Bool, warnings: inout [String]) async
        -> ReplayOutcome
    {
        switch entry {
        case .load(let plugin, let alias):
            // A plugin loaded as another name is that name's (the same file may be loaded twice).
            if host.plugins.contains(where: { loaded in
                if let alias { return loaded.name == alias }
                return Self.record(plugin, names: loaded)
            }) {
                return .done
            }
            if let elsewhere = loadElsewhere(plugin, as: alias, origin: origin, warnings: &warnings) {
                return elsewhere
            }
            do {
                try host.load(plugin, as: alias)
                return .done
            } catch {
                fail("cannot resume: \(error.description)", origin: origin)
                return .failed
            }
        case .use(let model):
            return switchModel(to: model, origin: origin) ? .done : .failed
        case .reset:
            do throws(ShellError) {
                try reset()
                return .done
            } catch {
                fail(error.message, origin: origin)
                return .failed
            }
        case .action(let model, let source, let text):
            guard switchModel(to: model, origin: origin), let session = current else { return .failed }
            let bound: (ActionDescriptor, [Value])
            do {
                bound = try ActionBinding.bind(ActionCall.parse(text), to: session.model)
            } catch {
                if force { return .skipped }
                fail(
                    "\(model) does not accept '\(text)' any more (\(error.message)); the journal was recorded with another version of the plugin. --force leaves such actions out",
                    origin: origin)
                return .failed
            }
            do {
                let changed = try session.replay(bound.0.name, arguments: bound.1)
                record(bound.0, bound.1, source: source, changed: changed, in: session)
                return .done
            } catch {
                fail("cannot resume '\(text)': \(error.message)", origin: origin)
                return .failed
            }
        case .goto(let model, let position):
            guard switchModel(to: model, origin: origin) else { return .failed }
            return await execute(":goto \(position)", origin: origin) ? .done : .failed
        case .branch(let model, let number):
            guard switchModel(to: model, origin: origin) else { return .failed }
            return await execute(":branch \(number)", origin: origin) ? .done : .failed
        case .skip(let model, let index), .unskip(let model, let index):
            guard switchModel(to: model, origin: origin) else { return .failed }
            let skip = if case .skip = entry { true } else { false }
            return await execute(":\(skip ? "skip" : "unskip") \(index)", origin: origin) ? .done : .failed
        }
    }

    private func switchModel(to model: String, origin: LineOrigin) -> Bool {
        guard current?.model.qualifiedName != model else { return true }
        do throws(ShellError) {
            try use(model)
            return true
        } catch {
            return fail("cannot resume: \(error.message)", origin: origin)
        }
    }

    /// An action record of a journal, bound and waiting to be replayed.
    struct QueuedReplay {
        let item: ReplayItem
        let source: ActionSource
        let text: String
        let record: JournalRecord
        let origin: LineOrigin
    }

    /// Actions gathered at most before they are replayed (a journal's records are read
    /// whole; what is gathered is bound, and bound values take more room than text).
    static let replayBatchLimit = 4096

    /// Replays the gathered actions into the current session and records them; false
    /// (having said why) when one could not be replayed. When the model's worker is lost
    /// on the way, it is started again with what was recorded, and the rest go one by one
    /// so the error names the action that killed it.
    private func replayQueued(_ queued: inout [QueuedReplay], kept: KeptRecords) -> Bool {
        let items = queued
        queued.removeAll(keepingCapacity: true)
        guard !items.isEmpty, let session = current else { return true }
        let history = recorder.history(of: session)
        var replayed = 0
        do throws(SessionError) {
            let refused = try session.replayInBatches(
                items.map(\.item), position: history?.position ?? 0, interval: history?.interval ?? 64
            ) { index, changed, endsBatch in
                let entry = items[index]
                record(
                    entry.item.action, entry.item.arguments, source: entry.source, changed: changed, in: session,
                    snapshot: endsBatch)
                kept.keep(entry.record)
                replayed += 1
            }
            guard let refused else { return true }
            return fail(
                "cannot resume '\(items[refused.index].text)': \(refused.error.message)",
                origin: items[refused.index].origin)
        } catch {
            guard error.workerLoss != nil else {
                return fail("cannot resume '\(items[replayed].text)': \(error.message)", origin: items[replayed].origin)
            }
            recoverLostWorkers(announce: false)
            for entry in items[replayed...] {
                guard let session = current else { return false }
                do throws(SessionError) {
                    let changed = try session.replay(entry.item.action.name, arguments: entry.item.arguments)
                    record(entry.item.action, entry.item.arguments, source: entry.source, changed: changed, in: session)
                    kept.keep(entry.record)
                } catch {
                    return fail("cannot resume '\(entry.text)': \(error.message)", origin: entry.origin)
                }
            }
            return true
        }
    }
}
