import CStorePlugin
import Foundation
import StoreValue

/// Loads plugins, checks them before running any of their code, and keeps the models they
/// register. Plugins stay loaded for the host's lifetime (unloading Swift code is unsafe).
@MainActor
package final class PluginHost {
    /// Whether sessions ask plugins for what changed since their last report instead of
    /// the whole state (`snapshot_changes`); off only to compare the two in tests.
    package var readsChanges = true
    /// Whether every read of what changed is checked against a whole snapshot
    /// (`--check-changes`): a plugin whose changes do not give its state is an error
    /// naming the first place they differ. For testing a plugin's `snapshot_changes`.
    package var checksChanges = false

    /// The clock plugins see: real at the prompt, virtual under tests.
    package let clock: any ShellClock
    /// Directories searched, in order, when a plugin is named rather than given by path.
    package var searchPath: [String]
    /// Receives plugins' log messages.
    package var log: ((LogLevel, String) -> Void)?
    package private(set) var plugins: [LoadedPlugin] = []
    /// The models' world (docs/decisions/0002): on a virtual clock, in a worker, every
    /// clock, entropy source, delay and task sleep of the model is the session's, its
    /// entropy drawn from `seed`; `realWorld` (`--real-world`) leaves models the real one.
    package var realWorld = false
    /// Where the world's entropy starts (`:seed N`); a worker starts from it, and `reseed`
    /// restarts every loaded worker's.
    package private(set) var seed: UInt64 = 0
    /// True when models in workers get the deterministic world.
    package var worldIsOn: Bool { clock.isVirtual && !realWorld }
    /// Models used in place of others (`storesh test --substitute MODEL=OTHER`): a session
    /// asked for MODEL (by its name or `plugin.model`) gets OTHER, so a transcript runs
    /// unchanged against a fixed or refactored model.
    package var modelSubstitutes: [(model: String, other: String)] = []

    /// Takes `other`'s settings for where and how models run (isolation, time limit,
    /// checks, world and seed): a host made to search or record beside it.
    package func adoptSettings(of other: PluginHost) {
        (isolation, actionTimeout, checksChanges, realWorld, seed) = (
            other.isolation, other.actionTimeout, other.checksChanges, other.realWorld, other.seed
        )
    }

    /// A host of its own beside this one, on a virtual clock of its own, set up as this one:
    /// its search path, its settings (`adoptSettings`) and where workers' output goes.
    /// What explore searches in and loads its reference in, and `:bisect` probes with.
    package func sibling() -> PluginHost {
        let host = PluginHost(clock: VirtualClock(), searchPath: searchPath)
        host.adoptSettings(of: self)
        host.workerOutput = workerOutput
        return host
    }

    /// Restarts every worker's entropy from `seed` (and starts later workers from it).
    package func reseed(_ seed: UInt64, waiting: Bool = true) {
        self.seed = seed
        for plugin in plugins { plugin.worker?.sendWorld(waiting: waiting) }
        driveInProcessWorld(reseeding: true)
    }

    /// Where plugins run: each in a worker process of its own (a crash or hang in a model
    /// is reported and recovered from), or in this process (`--in-process`: fastest).
    package var isolation: Isolation = .inProcess
    /// Seconds a model in a worker may take to answer one request before it counts as
    /// hung and its worker is stopped; nil: no limit.
    package var actionTimeout: Double? = 5
    /// Asked while waiting for a worker: true when the user pressed Ctrl-C.
    package var takeInterrupt: () -> Bool = { false }
    /// A plugin's process died while nobody was waiting for it (an effect crashed it).
    package var pluginLost: ((LoadedPlugin, WorkerLoss) -> Void)?
    /// What plugins in workers print (their stdout and stderr), as it arrives.
    package var workerOutput: ((String) -> Void)? = { text in
        StandardStreams.error(text)
    }

    /// Where plugin code runs.
    package enum Isolation: Sendable {
        case inProcess
        case workers
    }

    /// The plugin ABI version this host speaks.
    package nonisolated static let abiVersion = STOREPLUGIN_ABI_VERSION

    /// The Swift toolchain this host was built with; Swift plugins must match it.
    package nonisolated static let toolchain = String(cString: storeplugin_compiler_tag())

    package init(clock: any ShellClock = RealClock(), searchPath: [String]) {
        self.clock = clock
        self.searchPath = searchPath
    }

    /// The search path storesh uses: `extra` directories (`--plugin-path`), then
    /// `$STORESH_PLUGIN_PATH` (colon-separated), then `~/.local/share/storesh/plugins`,
    /// then the directory of the running executable, where this package builds its
    /// example plugins.
    package static func defaultSearchPath(extra: [String] = [], environment: [String: String]? = nil) -> [String] {
        let environment = environment ?? ProcessInfo.processInfo.environment
        var path = extra
        if let fromEnvironment = environment["STORESH_PLUGIN_PATH"] {
            path += fromEnvironment.split(separator: ":").map(String.init)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        path.append(home + "/.local/share/storesh/plugins")
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path {
            path.append(executable)
        }
        var seen = Set<String>()
        return path.filter { seen.insert($0).inserted }
    }

    /// Every model of every loaded plugin, in load order.
    package var models: [ModelDescriptor] { plugins.flatMap(\.models) }

    /// Shared libraries in the search path, by plugin name (file name without `lib` and
    /// extension), first directory first. Nothing is loaded to list them. Within one
    /// directory an example's library (`libStoreshExampleCounter.so`) comes before a plain
    /// one of the same name: a build folder may still hold the examples' libraries from
    /// before they were renamed.
    package func availablePlugins() -> [(name: String, path: String)] {
        var found: [(String, String)] = []
        var names = Set<String>()
        for directory in searchPath {
            // The libraries only, then sorted: a build directory holds hundreds of other
            // entries, and sorting them all was most of loading a plugin by name again.
            let libraries = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .compactMap { file in Self.pluginName(fromFile: file).map { (file: file, name: $0) } }
                .sorted { $0.file < $1.file }
            let isExample = { (library: (file: String, name: String)) in
                library.file.hasPrefix("lib" + Self.examplePrefix)
            }
            for library in libraries.filter(isExample) + libraries.filter({ !isExample($0) })
            where names.insert(library.name.lowercased()).inserted {
                found.append((library.name, directory + "/" + library.file))
            }
        }
        return found
    }

    /// The prefix of the bundled example plugins' libraries: `libStoreshExampleCounter.so`
    /// is the plugin `Counter`. A user's own package may then name its plugin `Counter`
    /// (SwiftPM wants product and target names unique across the package graph), and its
    /// library, found earlier in the search path, is the one `Counter` loads.
    package nonisolated static let examplePrefix = "StoreshExample"

    /// `libCounter.so` → `Counter`, `libStoreshExampleCounter.so` → `Counter`; nil for
    /// files that are not shared libraries.
    package static func pluginName(fromFile file: String) -> String? {
        // Two suffix checks, not a split at the last dot: a build directory holds hundreds
        // of other files, and this is asked of each when a plugin is loaded by name.
        let suffix: String
        if file.hasSuffix(".so") {
            suffix = ".so"
        } else if file.hasSuffix(".dylib") {
            suffix = ".dylib"
        } else {
            return nil
        }
        var name = Substring(file).dropLast(suffix.count)
        if name.hasPrefix("lib") { name = name.dropFirst(3) }
        if name.hasPrefix(examplePrefix), name.count > examplePrefix.count {
            name = name.dropFirst(examplePrefix.count)
        }
        return name.isEmpty ? nil : String(name)
    }

    /// Whether `load` takes `nameOrPath` as a path (it has a '/' or a library extension).
    package static func isPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || pluginName(fromFile: nameOrPath) != nil
    }

    /// Loads a plugin given by path (anything with a '/' or a library extension) or by
    /// name (looked up in the search path, case-insensitively). A library's bare file name
    /// (`libCart.so`) not in the current directory is looked up in the search path too.
    /// With `alias` its models are named `alias.model` rather than by the plugin's own
    /// name: how two builds of one plugin are loaded side by side (`:load PATH as NAME`,
    /// `explore --against` the previous build).
    @discardableResult
    package func load(_ nameOrPath: String, as alias: String? = nil) throws(PluginError) -> LoadedPlugin {
        if let alias, let problem = Self.aliasProblem(alias) { throw .badAlias(alias: alias, reason: problem) }
        let path: String
        if !nameOrPath.contains("/"), Self.pluginName(fromFile: nameOrPath) != nil,
            !FileManager.default.fileExists(atPath: nameOrPath)
        {
            guard
                let directory = searchPath.first(where: {
                    FileManager.default.fileExists(atPath: $0 + "/" + nameOrPath)
                })
            else {
                throw .notFound(name: nameOrPath, searched: ["."] + searchPath)
            }
            path = directory + "/" + nameOrPath
        } else if Self.isPath(nameOrPath) {
            path = nameOrPath
        } else if let match = availablePlugins().first(where: {
            $0.name.caseInsensitiveCompare(nameOrPath) == .orderedSame
        }) {
            path = match.path
        } else {
            throw .notFound(name: nameOrPath, searched: searchPath)
        }
        return try load(path: path, alias: alias)
    }

    /// Why `alias` cannot name a plugin (a model's qualified name is `alias.model`), or nil.
    nonisolated package static func aliasProblem(_ alias: String) -> String? {
        guard let first = alias.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return "a plugin's name begins with a letter or '_'"
        }
        let allowed = alias.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return allowed ? nil : "a plugin's name has letters, digits, '_' and '-' only"
    }

    /// Forwards what plugins in workers have written and storesh has not shown yet (a last
    /// line without its newline too): called before storesh exits.
    package func forwardWorkerOutput() {
        for plugin in plugins { plugin.worker?.process?.forwardOutput() }
    }

    private func load(path: String, alias: String?) throws(PluginError) -> LoadedPlugin {
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: resolved) else { throw .fileMissing(path: path) }
        if plugins.contains(where: { $0.path == resolved }) { throw .alreadyLoaded(path: path) }
        if isolation == .workers { return try loadInWorker(path: path, alias: alias) }
        guard let handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw .notASharedLibrary(path: path, reason: reason.replacingOccurrences(of: resolved + ": ", with: ""))
        }
        guard let infoSymbol = dlsym(handle, STOREPLUGIN_INFO_SYMBOL) else {
            throw .missingSymbol(path: path, symbol: STOREPLUGIN_INFO_SYMBOL)
        }
        guard let entrySymbol = dlsym(handle, STOREPLUGIN_ENTRY_SYMBOL) else {
            throw .missingSymbol(path: path, symbol: STOREPLUGIN_ENTRY_SYMBOL)
        }
        let info = try checkInfo(unsafeBitCast(infoSymbol, to: storeplugin_info_fn.self), path: path)
        // Two builds of one plugin registered in one process would share its Swift types'
        // runtime metadata: another build of a loaded plugin is not registered here (its
        // image stays mapped, as a Swift image does once opened); it runs in a worker.
        if let twin = plugins.first(where: { $0.name == (alias ?? info.name) }) {
            throw .nameTaken(path: path, name: twin.name, loadedFrom: twin.path)
        }
        if let twin = plugins.first(where: { ($0.registeredName ?? $0.name) == info.name }) {
            throw .anotherBuildInProcess(path: path, name: info.name, loadedFrom: twin.path)
        }
        let name = alias ?? info.name
        let context = PluginContext(host: self, plugin: name, path: path)
        // The model's own code: what the in-process world answers (and drives from here).
        Self.modelImageLoaded?(UnsafeRawPointer(infoSymbol), info.name)
        driveInProcessWorld()
        let table = context.makeTable()
        var error = sp_error.empty()
        let register = unsafeBitCast(entrySymbol, to: storeplugin_register_fn.self)
        let status = register(table, &error)
        context.isRegistering = false
        if let problem = context.registrationProblem {
            throw .registrationFailed(path: path, code: Int32(SP_ERR_REGISTRATION), message: problem)
        }
        guard status == Int32(SP_OK) else {
            throw .registrationFailed(path: path, code: status, message: error.text)
        }
        let plugin = LoadedPlugin(
            name: name, version: info.version, path: resolved, toolchain: info.toolchain, models: context.models,
            context: context, worker: nil, registeredName: info.name)
        plugins.append(plugin)
        return plugin
    }

    /// Loads a plugin in a worker process of its own.
    private func loadInWorker(path: String, alias: String?) throws(PluginError) -> LoadedPlugin {
        let worker = WorkerPlugin(host: self, path: path, alias: alias)
        let registered = try worker.start()
        let name = alias ?? registered.name
        if let twin = plugins.first(where: { $0.name == name }) {
            throw .nameTaken(path: path, name: name, loadedFrom: twin.path)
        }
        let plugin = LoadedPlugin(
            name: name, version: registered.version, path: registered.resolvedPath,
            toolchain: registered.toolchain,
            models: worker.descriptors(of: registered), context: nil, worker: worker, registeredName: registered.name
        )
        plugins.append(plugin)
        return plugin
    }

    /// Lists a plugin made elsewhere (scripted models).
    func add(_ plugin: LoadedPlugin) {
        plugins.append(plugin)
    }

    /// Puts `plugin` in the place of the loaded plugin with the same path (`:reload`).
    package func replace(_ plugin: LoadedPlugin) {
        guard let index = plugins.firstIndex(where: { $0.path == plugin.path }) else { return }
        plugins[index] = plugin
    }

    private func checkInfo(_ infoFunction: storeplugin_info_fn, path: String) throws(PluginError) -> (
        name: String, version: String, toolchain: String?
    ) {
        guard let info = infoFunction() else {
            throw .notAPlugin(path: path, reason: "\(STOREPLUGIN_INFO_SYMBOL)() returned NULL")
        }
        let minimum = MemoryLayout<storeplugin_info>.offset(of: \.toolchain)!
        guard info.pointee.struct_size >= UInt32(minimum) else {
            throw .notAPlugin(
                path: path,
                reason: "storeplugin_info.struct_size is \(info.pointee.struct_size), expected at least \(minimum)")
        }
        guard info.pointee.magic == STOREPLUGIN_MAGIC else {
            throw .notAPlugin(
                path: path,
                reason:
                    "bad magic 0x\(String(info.pointee.magic, radix: 16)) (expected 0x\(String(STOREPLUGIN_MAGIC, radix: 16)))"
            )
        }
        guard info.pointee.abi_version == STOREPLUGIN_ABI_VERSION else {
            throw .abiMismatch(path: path, plugin: info.pointee.abi_version, host: STOREPLUGIN_ABI_VERSION)
        }
        let hasToolchainField = info.pointee.struct_size >= UInt32(MemoryLayout<storeplugin_info>.size)
        let toolchain = hasToolchainField ? info.pointee.toolchain.map { String(cString: $0) } : nil
        if let toolchain, toolchain != Self.toolchain {
            throw .toolchainMismatch(path: path, plugin: toolchain, host: Self.toolchain)
        }
        guard let name = info.pointee.name.map({ String(cString: $0) }), Registration.isIdentifier(name) else {
            throw .notAPlugin(path: path, reason: "its name must match [A-Za-z_][A-Za-z0-9_-]*")
        }
        let version = info.pointee.version.map { String(cString: $0) } ?? "?"
        return (name, version, toolchain)
    }

    /// The model called `name`: either `plugin.model`, or a bare model name that only one
    /// plugin registers.
    package func model(named name: String) throws(PluginError) -> ModelDescriptor {
        if let qualified = models.first(where: { $0.qualifiedName == name }) { return qualified }
        let matches = models.filter { $0.name == name }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw .unknownModel(name: name, known: models.map(\.qualifiedName)) }
        throw .ambiguousModel(name: name, candidates: matches.map(\.qualifiedName))
    }
}

/// Log levels, as in storeplugin.h.
package enum LogLevel: Int32, Sendable {
    case debug = 0, info, warning, error
}

/// A plugin that loaded and registered its models.
package struct LoadedPlugin: @unchecked Sendable {
    package let name: String
    package let version: String
    package let path: String
    /// The toolchain tag the plugin reported, nil for language-neutral plugins.
    package let toolchain: String?
    package let models: [ModelDescriptor]
    /// The plugin's services table, when it runs in this process.
    let context: PluginContext?
    /// The worker process it runs in, when it runs in one (the shell goes through
    /// `LoadedPlugin+Process`, never to the worker).
    let worker: WorkerPlugin?
    /// The name the plugin registered itself by; `name` differs when it was loaded `as`
    /// another (nil: the same).
    package var registeredName: String? = nil

    /// The name it was loaded as (`:load PATH as NAME`), nil when it goes by its own: what
    /// loading it again elsewhere (a resumed journal, a probe, explore's host) passes on.
    package var loadedAs: String? { registeredName.flatMap { $0 == name ? nil : name } }
}
