import Foundation
import StoreHost
import StoreValue

/// One `:command`: its syntax, a line of help, more detail, and what it does.
struct ShellCommand {
    let name: String
    let usage: String
    let summary: String
    let detail: [String]
    let run: @MainActor (ShellCore, [String], LineOrigin) async -> Bool

    /// Whether the usage names no argument (`:reset`), so any word after the name is an error.
    var takesNoArguments: Bool { !usage.contains(" ") }
}

extension ShellCore {
    /// Every command, in the order `:help` lists them.
    static let commands: [ShellCommand] =
        [
            ShellCommand(
                name: "help", usage: ":help [COMMAND]", summary: "list commands, or explain one",
                detail: ["Actions are typed as text; see ':help actions' for the grammar."]
            ) { core, args, origin in
                guard args.count <= 1 else { return core.fail("usage: :help [COMMAND]", origin: origin) }
                return core.help(args.first, origin: origin)
            },
            ShellCommand(
                name: "plugins", usage: ":plugins", summary: "loaded plugins, and the ones in the search path",
                detail: [
                    "The search path: --plugin-path directories, $STORESH_PLUGIN_PATH, ~/.local/share/storesh/plugins, and the directory storesh runs from."
                ]
            ) { core, _, _ in
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
            },
            ShellCommand(
                name: "load", usage: ":load PATH|NAME", summary: "load a plugin and make its first model current",
                detail: ["NAME is looked up in the search path (see :plugins); a PATH has a '/' or ends in .so."]
            ) { core, args, origin in
                guard let target = args.first, args.count == 1 else {
                    return core.fail("usage: :load PATH|NAME", origin: origin)
                }
                do {
                    let plugin = try core.host.load(PluginHost.isPath(target) ? core.resolvePath(target) : target)
                    // Its resolved path, so a resume from another directory finds it.
                    guard core.journalDone(.load(plugin: plugin.path)) else { return false }
                    core.output(
                        .loaded(
                            plugin: plugin.name, version: plugin.version, models: plugin.models.map(\.qualifiedName)))
                    if let first = plugin.models.first { try core.use(first.qualifiedName) }
                    return true
                } catch let error as PluginError {
                    return core.fail(error.description, origin: origin)
                } catch let error as ShellError {
                    return core.fail(error.message, origin: origin)
                } catch {
                    return core.fail("\(error)", origin: origin)
                }
            },
            ShellCommand(
                name: "models", usage: ":models", summary: "models of the loaded plugins; * marks the current one",
                detail: []
            ) { core, _, _ in
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
            },
            ShellCommand(
                name: "use", usage: ":use MODEL", summary: "switch to another model (its state is kept)",
                detail: ["MODEL is a model name, plugin.model when two plugins share a name, or a plugin name."]
            ) { core, args, origin in
                guard let name = args.first, args.count == 1 else {
                    return core.fail("usage: :use MODEL", origin: origin)
                }
                do throws(ShellError) {
                    try core.use(name)
                    return true
                } catch {
                    return core.fail(error.message, origin: origin)
                }
            },
            ShellCommand(
                name: "actions", usage: ":actions", summary: "the current model's actions, with parameters and docs",
                detail: []
            ) { core, _, origin in
                guard let model = core.current?.model else { return core.fail(core.noCurrentModel, origin: origin) }
                let width = model.actions.map { ActionBinding.signature(of: $0).count }.max() ?? 0
                let lines = model.actions.flatMap { action in
                    let signature = ActionBinding.signature(of: action)
                    return [signature.padding(toLength: width + 2, withPad: " ", startingAt: 0) + (action.doc ?? "")]
                        + ActionBinding.shapeLines(of: action).map { "    " + $0 }
                }
                let records: [Value] = model.actions.map { action in
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
                    ])
                }
                core.output(
                    .report(
                        kind: "actions", lines: lines,
                        data: .record(["model": .string(model.qualifiedName), "actions": .array(records)])))
                return true
            },
            ShellCommand(
                name: "state", usage: ":state [PATH] [--depth N] [--all]", summary: "the state, or the part at PATH",
                detail: [
                    "PATH looks like todos[0].title, todos[\"t1\"] (the element whose id is t1) or counters[\"a\"]; --depth N stops N levels down.",
                    "Lists and records show their first 100 entries and how many more there are, strings their first 500 characters; --all shows everything.",
                ]
            ) { core, args, origin in
                core.showState(args, origin: origin)
            },
            ShellCommand(
                name: "diff", usage: ":diff [on|off]",
                summary: "show the state diff after each action, or say whether it is shown",
                detail: []
            ) { core, args, origin in
                guard args.count <= 1 else { return core.fail("usage: :diff [on|off]", origin: origin) }
                switch args.first {
                case nil: core.output(.info(kind: "diff", lines: ["diff is \(core.showDiff ? "on" : "off")"]))
                case "on": core.showDiff = true
                case "off": core.showDiff = false
                default: return core.fail("usage: :diff [on|off]", origin: origin)
                }
                return true
            },
            ShellCommand(
                name: "fx", usage: ":fx [leave-running | none-failed]",
                summary: "effects in flight in the current model",
                detail: [
                    "A script or transcript that ends with effects in flight fails, as TCA's TestStore does; ':fx leave-running' says that is expected.",
                    "':fx none-failed' is a check: an error when an effect of the current model failed since its store was made (storesh explore pins a failed effect with it).",
                ]
            ) { core, args, origin in
                switch args.first {
                case nil: break
                case "leave-running" where args.count == 1:
                    core.effectsMayOutlive = true
                    return true
                case "none-failed" where args.count == 1:
                    guard let model = core.current?.model.qualifiedName else {
                        return core.fail(core.noCurrentModel, origin: origin)
                    }
                    let failed = core.failedEffects[model] ?? []
                    guard failed.isEmpty else {
                        return core.fail(
                            "\(failed.count) effect\(failed.count == 1 ? "" : "s") failed: \(failed.joined(separator: "; "))",
                            origin: origin)
                    }
                    return true
                default: return core.fail("usage: :fx [leave-running | none-failed]", origin: origin)
                }
                let running = core.inFlight()
                let lines = running.map { "fx #\($0.id) \($0.label ?? "effect") running for \($0.milliseconds)ms" }
                let records: [Value] = running.map { effect in
                    .record([
                        "id": .int(Int64(effect.id)), "label": effect.label.map(Value.string) ?? .null,
                        "running_ms": .int(effect.milliseconds),
                    ])
                }
                core.output(
                    .report(
                        kind: "fx", lines: lines.isEmpty ? ["no effects in flight"] : lines,
                        data: .record([
                            "model": core.current.map { .string($0.model.qualifiedName) } ?? .null,
                            "effects": .array(records),
                        ])))
                return true
            },
            ShellCommand(
                name: "wait", usage: ":wait [TIMEOUT]", summary: "wait until the current model's effects settle",
                detail: [
                    "TIMEOUT is seconds (5), or like 500ms, 2s or 1m (default 10s). Under a virtual clock, time is advanced to each next wake-up instead."
                ]
            ) { core, args, origin in
                await core.wait(args, origin: origin)
            },
            ShellCommand(
                name: "advance", usage: ":advance DURATION",
                summary: "move the virtual clock forward (storesh --virtual-clock)",
                detail: [
                    "DURATION is seconds (5), or like 500ms, 2s or 1m. Effects due by then fire in deadline order; ties in the order they were scheduled."
                ]
            ) { core, args, origin in
                await core.advance(args, origin: origin)
            },
            ShellCommand(
                name: "seed", usage: ":seed [N]",
                summary: "the seed of the models' ids, dates and random numbers (virtual clock)",
                detail: [
                    "Under a virtual clock, models in workers run in a deterministic world: Date(), UUID(), Int.random, Set order, Task.sleep and DispatchQueue.asyncAfter follow the session's clock and N (default 0). :seed N restarts every worker's entropy from N; :seed alone says the seed and the world. Transcripts and explore write the seed they ran with. storesh --real-world leaves models the real world."
                ]
            ) { core, args, origin in
                core.seed(args, origin: origin)
            },
            ShellCommand(
                name: "stub", usage: ":stub SERVICE RESULT[, RESULT…] | fail \"MESSAGE\"",
                summary: "replace one of the model's environment services",
                detail: [
                    "Answers come in order, the last one repeating; fail \"…\" makes the service fail. The stub is a libffi closure of the service's C signature, so it works for plugins in any language. A result that does not fit the signature is refused."
                ]
            ) { core, args, origin in
                core.stub(origin: origin)
            },
            ShellCommand(
                name: "stubs", usage: ":stubs", summary: "the current model's services and their stubs", detail: []
            ) { core, _, origin in
                core.listStubs(origin: origin)
            },
            ShellCommand(
                name: "unstub", usage: ":unstub SERVICE", summary: "give a service back its own implementation",
                detail: []
            ) { core, args, origin in
                core.unstub(args, origin: origin)
            },
            ShellCommand(
                name: "expect", usage: ":expect EXPR",
                summary: "check the state (e.g. balance >= 0, size == count(items)); a failed check is an error",
                detail: [
                    "EXPR is the property language (docs/explore.md): PATH OP VALUE as before (VALUE a literal: 3, \"text\", true, null, [1, 2], {x: 1}), and paths, [*], + - * / %, && || !, count(…), sum(…), min(…), contains(…), ….",
                    "== compares structurally (records and dictionaries by keys and values); < <= > >= compare numbers with numbers and strings with strings; a path that names nothing fails the check (:check skips it).",
                ]
            ) { core, _, origin in
                core.expect(origin: origin)
            },
            ShellCommand(
                name: "log", usage: ":log [N | FROM-TO | all]",
                summary:
                    "the last N actions (default 20), or actions FROM to TO: source, and whether each changed the state",
                detail: [
                    "Sources: typed (at the prompt), script (-f, -c, stdin), effect (sent by an effect).",
                    "A long history is shown a page at a time: a line says how many actions come before (and after) the ones shown.",
                ]
            ) { core, args, origin in
                core.log(args, origin: origin)
            },
            ShellCommand(
                name: "goto", usage: ":goto N [--with-effects]",
                summary: "show and continue from the state after action N (0: the initial state)",
                detail: [
                    "Replays run the update function only. --with-effects starts a new store and sends the typed and scripted actions among the first N again, so their effects run and send their actions anew (the history becomes those). A new action after a jump sets the undone ones aside as a branch (see :branches)."
                ]
            ) { core, args, origin in
                core.jump(args, origin: origin) { _, wanted in wanted }
            },
            ShellCommand(
                name: "undo", usage: ":undo [--with-effects]", summary: "go back one action",
                detail: ["--with-effects: as for :goto."]
            ) { core, args, origin in
                guard args.allSatisfy({ $0 == "--with-effects" }) else {
                    return core.fail("usage: :undo [--with-effects]", origin: origin)
                }
                return core.jump(["."] + args, origin: origin) { position, _ in position - 1 }
            },
            ShellCommand(
                name: "redo", usage: ":redo [--with-effects]", summary: "go forward one undone action",
                detail: ["--with-effects: as for :goto."]
            ) { core, args, origin in
                guard args.allSatisfy({ $0 == "--with-effects" }) else {
                    return core.fail("usage: :redo [--with-effects]", origin: origin)
                }
                return core.jump(["."] + args, origin: origin) { position, _ in position + 1 }
            },
            ShellCommand(
                name: "branches", usage: ":branches",
                summary: "timelines set aside when a new action replaced undone ones",
                detail: [
                    "After :goto or :undo, a new action starts a new timeline; the old one, with its undone actions, is kept as a branch (an undo tree)."
                ]
            ) { core, _, origin in
                core.listBranches(origin: origin)
            },
            ShellCommand(
                name: "branch", usage: ":branch N",
                summary: "bring back branch N (the current timeline is set aside in its place)",
                detail: ["The state becomes the state at the end of the branch; ':branch N' again swaps back."]
            ) { core, args, origin in
                core.switchBranch(args, origin: origin)
            },
            ShellCommand(
                name: "skip", usage: ":skip N",
                summary: "recompute the history without action N, as Redux DevTools' toggle does", detail: []
            ) { core, args, origin in
                core.toggle(args, skipped: true, origin: origin)
            },
            ShellCommand(name: "unskip", usage: ":unskip N", summary: "put a skipped action back", detail: []) {
                core, args, origin in
                core.toggle(args, skipped: false, origin: origin)
            },
            ShellCommand(
                name: "export", usage: ":export FILE [--force]",
                summary: "write the action log, with a fingerprint of the model it came from",
                detail: ["An existing FILE is replaced only with --force."]
            ) { core, args, origin in
                core.export(args, origin: origin)
            },
            ShellCommand(
                name: "import", usage: ":import FILE [--force]",
                summary: "replay an exported log into a new store of the current model",
                detail: ["A log from a model whose schema changed is refused with what changed, unless --force."]
            ) { core, args, origin in
                core.importLog(args, origin: origin)
            },
            ShellCommand(
                name: "reset", usage: ":reset", summary: "start the current model over from its initial state",
                detail: ["Effects in flight are cancelled."]
            ) { core, _, origin in
                do throws(ShellError) {
                    try core.reset()
                    return true
                } catch {
                    return core.fail(error.message, origin: origin)
                }
            },
            ShellCommand(
                name: "crash", usage: ":crash [PLUGIN]",
                summary: "how a plugin's last worker died, with its whole crash report",
                detail: [
                    "The error at the time gives the signal, the runtime's message and the source line; this shows everything the worker wrote at the end, the backtrace of the crashed thread included."
                ]
            ) { core, args, origin in
                guard args.count <= 1 else { return core.fail("usage: :crash [PLUGIN]", origin: origin) }
                return core.showCrash(args.first, origin: origin)
            },
            ShellCommand(
                name: "reload", usage: ":reload [PLUGIN]",
                summary: "load a rebuilt plugin in a new worker and replay the history into it",
                detail: [
                    "The plugin is the current model's unless named. Each session's actions are replayed (updates only) in the new build and the state's diff is shown; actions the new build does not accept are left out and listed.",
                    "If the new build fails to load, crashes or refuses an action while replaying, the old one goes on and the error says where. --watch reloads when the file changes.",
                ]
            ) { core, args, origin in
                guard args.count <= 1 else { return core.fail("usage: :reload [PLUGIN]", origin: origin) }
                return core.reload(args.first, origin: origin)
            },
            ShellCommand(name: "quit", usage: ":quit", summary: "leave storesh (Ctrl-D does too)", detail: []) {
                core, _, _ in
                core.requestQuit()
                return true
            },
        ] + exploreCommands + checkCommands + debuggingCommands + inspectCommands

    static let aliases = ["q": "quit", "exit": "quit", "h": "help", "?": "help"]

    static func command(named name: String) -> ShellCommand? {
        let resolved = aliases[name] ?? name
        return commands.first { $0.name == resolved }
    }

    func command(_ line: String, origin: LineOrigin) async -> Bool {
        let words = ShellWords.split(String(line.dropFirst()))
        guard let name = words.first else {
            return fail("expected a command after ':'; try :help", origin: origin, text: line, offset: 1)
        }
        guard let command = Self.command(named: name) else {
            var message = "unknown command ':\(name)'"
            if let suggestion = Suggestion.nearest(to: name, in: Self.commands.map(\.name)) {
                message += "; did you mean ':\(suggestion)'?"
            }
            return fail(message, origin: origin, text: line, offset: 1)
        }
        // A command that takes nothing refuses what it would otherwise pass over in silence
        // (':reset count' is not ':reset').
        if words.count > 1, command.takesNoArguments {
            return fail("\(command.usage) takes no arguments", origin: origin)
        }
        let afterName = line.drop { $0 == ":" || $0 == " " }.drop { $0 != " " && $0 != "\t" }
        commandArguments = String(afterName.drop { $0 == " " || $0 == "\t" })
        commandLine = line
        return await command.run(self, Array(words.dropFirst()), origin)
    }

    private func help(_ topic: String?, origin: LineOrigin) -> Bool {
        guard let topic else {
            let width = Self.commands.map(\.usage.count).max() ?? 0
            var lines = Self.commands.map {
                $0.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary
            }
            lines += [
                "",
                "Anything not starting with ':' is an action for the current model; ':help actions' explains the syntax.",
            ]
            output(.info(kind: "help", lines: lines))
            return true
        }
        if topic == "actions" {
            output(.info(kind: "help", lines: Self.actionGrammar))
            return true
        }
        guard let command = Self.command(named: topic.hasPrefix(":") ? String(topic.dropFirst()) : topic) else {
            return fail("no help for '\(topic)'; :help lists the commands", origin: origin)
        }
        output(.info(kind: "help", lines: [command.usage, "  " + command.summary] + command.detail.map { "  " + $0 }))
        return true
    }

    static let actionGrammar = [
        "increment                      an action without parameters",
        "setCount 5                     positional arguments, separated by ','",
        "setCount(5)                    the same, in parentheses",
        "setUser name: \"bo\", age: 3     labelled arguments",
        "child.increment                an action of a child component",
        "todos[\"t1\"].toggle             an action of one keyed child",
        "setTags [\"a\", \"b\"]             lists; records are {field: value}",
        "Literals: 42, -1.5, \"text\" (JSON escapes), true, false, null.",
        ":actions lists what the current model accepts.",
    ]

    private func showState(_ args: [String], origin: LineOrigin) -> Bool {
        guard let session = current else { return fail(noCurrentModel, origin: origin) }
        var path: String?
        var depth: Int?
        var whole = false
        // Words as typed: a path keeps its quotes (`todos["t1"]`).
        var rest = RawWords.split(commandArguments)[...]
        while let word = rest.popFirst() {
            if word == "--all" {
                whole = true
            } else if word == "--depth" {
                guard let text = rest.popFirst(), let number = Int(text), number > 0 else {
                    return fail("--depth needs a positive number", origin: origin)
                }
                depth = number
            } else if path == nil {
                path = word
            } else {
                return fail("usage: :state [PATH] [--depth N] [--all]", origin: origin)
            }
        }
        do {
            _ = try PathSyntax.parse(path ?? ".")
        } catch {
            let start =
                path.flatMap { commandArguments.range(of: $0) }.map {
                    commandArguments.utf8.distance(from: commandArguments.startIndex, to: $0.lowerBound)
                } ?? 0
            return failInArguments(error.message, origin: origin, at: start + error.offset)
        }
        do {
            let value = try PathSyntax.lookup(
                path ?? ".", in: session.currentState(), identity: session.model.stateDiff)
            output(.state(path: path, value: value, depth: depth, whole: whole))
            return true
        } catch let error as TextError {
            return fail(error.message, origin: origin)
        } catch let error as SessionError {
            return fail(error.message, origin: origin)
        } catch {
            return fail("\(error)", origin: origin)
        }
    }
}

extension Duration {
    /// The longest duration `:wait` and `:advance` take: 365 days, so that nanoseconds on
    /// the clock stay far from Int64's limit.
    static let maxMilliseconds: Int64 = 365 * 24 * 3_600_000

    /// "500ms", "2s", "1.5s", "1m", and a bare number of seconds ("5", as `--timeout 5`
    /// takes) → milliseconds; nil for anything else, negative, not finite, or longer than
    /// `maxMilliseconds`.
    static func milliseconds(_ text: String) -> Int64? {
        let units: [(suffix: String, scale: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1000)
        guard let number = Double(text.dropLast(unit.suffix.count)), number >= 0, number.isFinite else { return nil }
        let milliseconds = (number * unit.scale).rounded()
        guard milliseconds <= Double(maxMilliseconds) else { return nil }
        return Int64(exactly: milliseconds)
    }
}

/// Splits a command's arguments at spaces outside quotes and brackets, keeping every
/// character (for paths and literals, which have quotes of their own).
enum RawWords {
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in text {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            } else if character == " " || character == "\t", depth <= 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}

/// Splits a command line into words; double quotes group words and take JSON escapes.
enum ShellWords {
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                word.append(character == "n" ? "\n" : character)
                escaped = false
            } else if quoted {
                if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    word.append(character)
                }
            } else if character == "\"" {
                quoted = true
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
