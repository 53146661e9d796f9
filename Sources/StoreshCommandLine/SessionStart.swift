package import StoreHost
package import StoreShell

/// How a session starts, for the shell and for `storesh mcp` alike: the host its options
/// make, then plugins loaded, a model chosen, the journal resumed or started, `--watch`.
@MainActor
package enum SessionStart {
    /// What the start came to.
    package enum Outcome: Equatable {
        /// The session is ready; `failed`: a plugin or the model could not be loaded (the
        /// run goes on, and exits 1).
        case ready(failed: Bool)
        /// The session cannot start: exit with this status (the error was written).
        case exit(Int32)
    }

    /// A host on the clock, search path and isolation `options` ask for.
    package static func host(for options: SessionOptions) -> PluginHost {
        let clock: any ShellClock = options.virtualClock ? VirtualClock() : RealClock()
        let host = PluginHost(clock: clock, searchPath: PluginHost.defaultSearchPath(extra: options.pluginPath))
        options.isolation.apply(to: host)
        return host
    }

    /// Starts `core`'s session as `options` say. `announce`: report each plugin loaded;
    /// `quiet`: no note of a resume. Errors go to `emit`, warnings to `warn`, refusals
    /// to standard error.
    package static func prepare(
        _ core: ShellCore, _ options: SessionOptions, announce: Bool, quiet: Bool, emit: (ShellOutput) -> Void,
        warn: (String) -> Void
    ) async -> Outcome {
        if options.watch, options.isolation.inProcess {
            StandardStreams.error("storesh: --watch reloads plugins in workers, so it cannot go with --in-process\n")
            return .exit(2)
        }
        let host = core.host
        var failed = false
        // A resumed session loads what its journal says; otherwise the named plugins, or Counter.
        let startupPlugins =
            options.resume != nil && options.plugins.isEmpty
            ? [] : (options.plugins.isEmpty ? ["Counter"] : options.plugins)
        for name in startupPlugins {
            do {
                let plugin = try host.load(name)
                if announce {
                    emit(
                        .loaded(
                            plugin: plugin.name, version: plugin.version, models: plugin.models.map(\.qualifiedName)))
                }
            } catch {
                emit(.error(ShellError(error.description, origin: .prompt)))
                failed = true
            }
        }
        do throws(ShellError) {
            if let model = options.model {
                try core.use(model)
            } else if let first = host.plugins.first?.models.first {
                try core.use(first.qualifiedName)
            }
        } catch {
            emit(.error(error))
            failed = true
        }
        if let path = options.resume {
            do {
                guard
                    let resumed = try await core.resumeJournal(
                        from: path, continuingIn: options.journal, force: options.force)
                else { return .exit(1) }
                // --model says where to go on, after the journal's own switches (journaled).
                if let model = options.model, core.current?.model.qualifiedName != model {
                    do throws(ShellError) { try core.use(model) } catch {
                        emit(.error(error))
                        failed = true
                    }
                }
                for warning in resumed.warnings { warn("storesh: warning: \(warning)\n") }
                if !quiet {
                    let count =
                        core.current.flatMap { core.recorder.histories[$0.model.qualifiedName]?.entries.count } ?? 0
                    emit(
                        .info(
                            kind: "resumed",
                            lines: [
                                "resumed \(path): \(resumed.records) records, \(count) actions in \(core.current?.model.qualifiedName ?? "no model")"
                            ]))
                }
            } catch {
                StandardStreams.error("storesh: \(error.message)\n")
                return .exit(2)
            }
        } else if let path = options.journal {
            do {
                try core.startJournal(at: path)
            } catch {
                StandardStreams.error("storesh: \(error.message)\n")
                return .exit(2)
            }
        }
        if options.watch { core.watchPluginFiles() }
        return .ready(failed: failed)
    }

    /// Ends `core`'s session: what workers still have to say is forwarded, and the
    /// journal synced. False when the sync failed (said on standard error).
    package static func finish(_ core: ShellCore) -> Bool {
        core.host.forwardWorkerOutput()
        guard let journal = core.recorder.journal else { return true }
        do throws(Journal.Problem) {
            try journal.sync()
            return true
        } catch {
            StandardStreams.error("storesh: \(error.message)\n")
            return false
        }
    }
}
