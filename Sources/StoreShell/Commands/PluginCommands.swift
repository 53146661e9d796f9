import Foundation
import StoreHost
import StoreValue

/// `:plugins`: the loaded plugins and the ones in the search path.
struct PluginsCommand: ShellCommand {
    let name = "plugins"
    let readsOnly = true
    let usage = ":plugins"
    let summary = "loaded plugins, and the ones in the search path"
    let detail = [
        "The search path: --plugin-path directories, $STORESH_PLUGIN_PATH, ~/.local/share/storesh/plugins, and the directory storesh runs from."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let loaded = core.host.plugins
        // By the file itself: a plugin loaded through a link (.build/debug) is the file
        // the search path found under its real folder, not a second plugin.
        let loadedFiles = Set(loaded.map { URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path })
        let others = core.host.availablePlugins().filter {
            !loadedFiles.contains(URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path)
        }
        let lines =
            loaded.map {
                "\($0.name) \($0.version)  \($0.path)  (loaded: \($0.models.map(\.name).joined(separator: ", ")))"
            }
            + others.map { "\($0.name)  \($0.path)  (not loaded)" }
        let records: [Value] =
            loaded.map { plugin in
                .record([
                    "name": .string(plugin.name), "version": .string(plugin.version),
                    "path": .string(plugin.path), "loaded": .bool(true),
                    "models": .array(plugin.models.map { .string($0.qualifiedName) }),
                ])
            }
            + others.map {
                .record(["name": .string($0.name), "path": .string($0.path), "loaded": .bool(false)])
            }
        core.output(
            .report(
                kind: "plugins", lines: lines.isEmpty ? ["no plugins found"] : lines,
                data: .record(["plugins": .array(records)])))
        return true
    }
}

/// `:load PATH|NAME`: loads a plugin and makes its first model current.
struct LoadCommand: ShellCommand {
    let name = "load"
    let usage = ":load PATH|NAME [as ALIAS]"
    let summary = "load a plugin and make its first model current"
    let detail = [
        "NAME is looked up in the search path (see :plugins); a PATH has a '/' or ends in .so.",
        "With 'as ALIAS' its models are ALIAS.model: two builds of one plugin side by side (in workers), e.g. ':load old/libShop.so as shopBefore' then ':compare shopBefore.cart'.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard let target = args.first, args.count == 1 || (args.count == 3 && args[1] == "as") else {
            return core.fail("usage: :load PATH|NAME [as ALIAS]", origin: origin)
        }
        return core.load(target, as: args.count == 3 ? args[2] : nil, origin: origin)
    }
}

extension ShellCore {
    /// `:load`: loads the plugin `target` (a name on the search path, or a path), its
    /// models named `alias.model` when given, journals it, and makes its first model current.
    package func load(_ target: String, as alias: String?, origin: LineOrigin) -> Bool {
        do {
            let plugin = try host.load(PluginHost.isPath(target) ? resolvePath(target) : target, as: alias)
            // Its resolved path, so a resume from another directory finds it.
            guard journalDone(.load(plugin: plugin.path, as: plugin.loadedAs)) else { return false }
            output(.loaded(plugin: plugin.name, version: plugin.version, models: plugin.models.map(\.qualifiedName)))
            if let first = plugin.models.first { try use(first.qualifiedName) }
            return true
        } catch let error as PluginError {
            return fail(error.description, origin: origin)
        } catch let error as ShellError {
            return fail(error.message, origin: origin)
        } catch {
            return fail("\(error)", origin: origin)
        }
    }

    /// `:use`: makes the model `name` current (a model name, plugin.model or a plugin's).
    package func use(_ name: String, origin: LineOrigin) -> Bool {
        do throws(ShellError) {
            try use(name)
            return true
        } catch {
            return fail(error.message, origin: origin)
        }
    }

    /// `:reset`: the current model starts over from its initial state.
    package func reset(origin: LineOrigin) -> Bool {
        do throws(ShellError) {
            try reset()
            return true
        } catch {
            return fail(error.message, origin: origin)
        }
    }
}

/// `:models`: the models of the loaded plugins, the current one marked.
struct ModelsCommand: ShellCommand {
    let name = "models"
    let readsOnly = true
    let usage = ":models"
    let summary = "models of the loaded plugins; * marks the current one"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let current = core.current?.model.qualifiedName
        let lines = core.host.models.map {
            ($0.qualifiedName == current ? "* " : "  ") + "\($0.qualifiedName)  \($0.doc ?? "")"
        }
        let records: [Value] = core.host.models.map { model in
            .record([
                "name": .string(model.name), "plugin": .string(model.plugin),
                "qualified_name": .string(model.qualifiedName),
                "current": .bool(model.qualifiedName == current), "doc": model.doc.map(Value.string) ?? .null,
            ])
        }
        core.output(
            .report(
                kind: "models", lines: lines.isEmpty ? ["no models are loaded"] : lines,
                data: .record(["models": .array(records)])))
        return true
    }
}

/// `:use MODEL`: switches to another model.
struct UseCommand: ShellCommand {
    let name = "use"
    let usage = ":use MODEL"
    let summary = "switch to another model (its state is kept)"
    let detail = ["MODEL is a model name, plugin.model when two plugins share a name, or a plugin name."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard let name = args.first, args.count == 1 else {
            return core.fail("usage: :use MODEL", origin: origin)
        }
        return core.use(name, origin: origin)
    }
}

/// `:actions`: the current model's actions, with their parameters and docs.
struct ActionsCommand: ShellCommand {
    let name = "actions"
    let readsOnly = true
    let usage = ":actions"
    let summary = "the current model's actions, with parameters and docs"
    let detail: [String] = []

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        guard let model = core.current?.model else { return core.fail(core.noCurrentModel, origin: origin) }
        let width = model.actions.map { ActionBinding.signature(of: $0).count }.max() ?? 0
        let lines = model.actions.flatMap { action in
            let signature = ActionBinding.signature(of: action)
            // No padding after an action without a doc (none, or empty, as glue-built
            // models give): a line never ends in spaces.
            let doc = action.doc ?? ""
            let line =
                doc.isEmpty ? signature : signature.padding(toLength: width + 2, withPad: " ", startingAt: 0) + doc
            return [line]
                + ActionBinding.shapeLines(of: action).map { "    " + $0 }
        }
        let records = model.actions.map(Self.record(of:))
        core.output(
            .report(
                kind: "actions", lines: lines,
                data: .record(["model": .string(model.qualifiedName), "actions": .array(records)])))
        return true
    }

    /// An action as programs read it (JSON output): name, signature, doc, an example line
    /// (`:help ACTION`'s), and each parameter's label, kind, doc, shape and default.
    static func record(of action: ActionDescriptor) -> Value {
        let params: [Value] = action.params.map { param in
            var fields: [Value.Field] = [
                .init("label", param.label.map(Value.string) ?? .null),
                .init("kind", .string(param.type.rawValue)),
                .init("doc", param.doc.map(Value.string) ?? .null),
            ]
            if let shape = param.declaredShape { fields.append(.init("shape", shape.literal)) }
            if let value = param.defaultValue { fields.append(.init("default", value)) }
            return .record(type: nil, fields: fields)
        }
        return .record([
            "name": .string(action.name), "signature": .string(ActionBinding.signature(of: action)),
            "params": .array(params), "doc": action.doc.map(Value.string) ?? .null,
            "example": .string(ActionHelp.example(of: action)),
        ])
    }
}

/// `:reload [PLUGIN]`: a rebuilt plugin in a new worker, the history replayed into it.
struct ReloadCommand: ShellCommand {
    let name = "reload"
    let usage = ":reload [PLUGIN]"
    let summary = "load a rebuilt plugin in a new worker and replay the history into it"
    let detail = [
        "The plugin is the current model's unless named. Each session's actions are replayed (updates only) in the new build and the state's diff is shown; actions the new build does not accept are left out and listed.",
        "If the new build fails to load, crashes or refuses an action while replaying, the old one goes on and the error says where. --watch reloads when the file changes.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return core.fail("usage: :reload [PLUGIN]", origin: origin) }
        return core.reload(args.first, origin: origin)
    }
}
