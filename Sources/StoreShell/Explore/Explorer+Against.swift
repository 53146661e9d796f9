package import StoreHost
import StoreValue

/// `storesh explore --against PLUGIN[:MODEL]`: a reference model, in a host of its own,
/// that gets the same steps as the explored model; after every step the two states are
/// compared (`StateComparison`), and a step one takes and the other refuses differs too.
@MainActor
package struct ExploreReference {
    /// A core whose current model is the reference.
    package let core: ShellCore
    package let comparison: StateComparison
    /// The reference's plugin file, for the transcript's `:load` when it is not the
    /// explored model's plugin.
    package let pluginPath: String?
    /// The name the reference's plugin is loaded as, when it is another build of the
    /// explored plugin (`classics-reference`): the transcript loads both side by side.
    package let pluginAlias: String?

    package init(core: ShellCore, comparison: StateComparison, pluginPath: String?, pluginAlias: String? = nil) {
        self.core = core
        self.comparison = comparison
        self.pluginPath = pluginPath
        self.pluginAlias = pluginAlias
    }

    /// The explored model's `:stub` lines (`--stub`, or the session's stubs at the prompt)
    /// made in the reference too, so that both models' services answer alike and only
    /// their update functions are compared; a reference that refuses one (it has no such
    /// service) is an error naming it.
    package func setUp(_ lines: [String]) async throws(ShellError) {
        for line in lines where !(await core.execute(line)) {
            throw ShellError(
                "\(line.dropFirst()): the reference \(core.current?.model.qualifiedName ?? "model") refused it: it needs the same services as the explored model",
                origin: .prompt)
        }
    }

    /// The reference of `--against PLUGIN[:MODEL]`: PLUGIN loaded in `host` (a host of its
    /// own, set up as the explored model's), with MODEL current — else the explored model's
    /// name when the plugin has it, else its first model. Throws a sentence saying why not.
    package static func load(
        _ pluginName: String, model modelName: String?, in host: PluginHost, explored: ModelDescriptor,
        plugin: LoadedPlugin, comparison: StateComparison
    ) throws(ShellError) -> ExploreReference {
        var loaded: LoadedPlugin
        var referenceHost = host
        do {
            loaded = try host.load(pluginName)
        } catch {
            throw ShellError(error.description, origin: .prompt)
        }
        // Another build of the explored plugin (the one before a refactor): loaded under
        // another name, in a host of its own, so the transcript's :compare can load both.
        var alias: String?
        if (loaded.registeredName ?? loaded.name) == (plugin.registeredName ?? plugin.name), loaded.path != plugin.path
        {
            guard host.isolation == .workers else {
                throw ShellError(
                    "\(loaded.path) is another build of \(plugin.name), which runs beside it only in workers (without --in-process): two builds in one process would share their types",
                    origin: .prompt)
            }
            alias = (plugin.registeredName ?? plugin.name) + "-reference"
            referenceHost = host.sibling()
            do {
                loaded = try referenceHost.load(loaded.path, as: alias)
            } catch {
                throw ShellError(error.description, origin: .prompt)
            }
        }
        let core = ShellCore(host: referenceHost, showDiff: false, reportActions: false) { _ in }
        let chosen =
            modelName.map { name in
                alias.map { name.replacingPrefix((plugin.registeredName ?? plugin.name) + ".", with: $0 + ".") } ?? name
            }
            ?? (loaded.models.first { $0.name == explored.name } ?? loaded.models.first)?.qualifiedName ?? ""
        try core.use(chosen)
        return ExploreReference(
            core: core, comparison: comparison, pluginPath: loaded.name == plugin.name ? nil : loaded.path,
            pluginAlias: alias)
    }
}

/// Replays explored runs in the reference and finds the first step after which they differ.
@MainActor
final class ExploreDifferential {
    let reference: ExploreReference
    private let driver: ExploreDriver
    private let name: String

    init(reference: ExploreReference, prefix: [ExploreStep]) {
        self.reference = reference
        name = reference.core.current?.model.qualifiedName ?? "the reference"
        driver = ExploreDriver(core: reference.core, invariants: [], postconditions: [], prefix: prefix)
    }

    /// The first step after which `run` (made with its states kept) and the same steps in
    /// the reference (from the same world seed) differ, as a failure at that step; nil when
    /// they agree as far as `run` went.
    func firstDifference(in run: ExploreDriver.Run, worldSeed: UInt64?, identity: StateDiff)
        async throws(ShellError) -> ExploreFailure?
    {
        driver.worldSeed = worldSeed
        let other = try await driver.run(
            length: run.steps.count, keepStates: true, next: Explorer.replaying(run.steps))
        let comparison = reference.comparison
        func failure(_ step: Int, _ explanation: String) -> ExploreFailure {
            ExploreFailure(
                kind: .differs(reference: name, paths: comparison.paths, explanation: explanation), step: step)
        }
        for index in 0..<min(run.states.count, other.states.count) {
            let step = index - 1
            if step >= 0, step < run.accepted.count, step < other.accepted.count,
                let taken = run.accepted[step], let referenceTook = other.accepted[step], taken != referenceTook
            {
                return failure(
                    step,
                    taken
                        ? "the model took step \(step + 1), the reference refused it"
                        : "the model refused step \(step + 1), the reference took it")
            }
            if let explanation = comparison.difference(run.states[index], other.states[index], identity: identity) {
                return failure(step, explanation)
            }
        }
        if let broken = other.failure, broken.step < (run.failure?.step ?? Int.max) {
            return failure(broken.step, "the reference failed where the model did not: \(broken)")
        }
        return nil
    }
}

extension Explorer {
    /// `run` compared with the reference (when there is one): a difference before the
    /// failure it ended with, if any, becomes its failure, and the steps after it are cut.
    func compareWithReference(_ run: inout ExploreDriver.Run) async throws(ShellError) {
        guard let differential else { return }
        let identity = core.current?.model.stateDiff ?? StateDiff()
        guard
            let found = try await differential.firstDifference(
                in: run, worldSeed: driver.worldSeed, identity: identity),
            found.step < (run.failure?.step ?? Int.max)
        else { return }
        run.failure = found
        run.steps = Array(run.steps.prefix(found.step + 1))
        run.accepted = Array(run.accepted.prefix(found.step + 1))
        run.states = Array(run.states.prefix(found.step + 2))
    }
}

extension String {
    /// This string with `prefix` replaced by `replacement`, when it begins with it.
    fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
