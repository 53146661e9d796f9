import Foundation
import StoreHost
import StoreValue

/// What `:explore` needs beyond any command's context: the stubs the session's model has,
/// which the search's stores start with. `ShellCore` is the one conformer.
@MainActor
protocol ExploreContext: CommandContext {
    /// The services `:stub` replaced, by model.
    var stubs: ServiceStubs { get }
}

/// `:explore`: `storesh explore` from where the session is. The search runs in a plugin
/// host of its own (its own workers, a virtual clock), each run starting with the actions
/// of the current model's timeline typed or run from scripts (its effects send their
/// actions again), so the session, its history and its journal are untouched.
struct ExploreCommand: ShellCommand {
    let name = "explore"
    let usage =
        ":explore [--invariant EXPR]... [--after ACTION EXPR]... [--actions A,B] [--seed N] [--runs N] [--steps N] [--time-limit S] [--no-guidance] [--schedules] [--exhaustive [--depth N] [--state-limit N]] [--against PLUGIN[:MODEL] [--compare PATH]...] [--out FILE [--overwrite]]"
    let summary = "generate action sequences from here, find a failure, shrink it to a failing transcript"
    let detail = [
        "After every step: the invariants (expressions of the property language, docs/shell/explore.md: --invariant balance >= 0, --invariant size == count(contents)), the checks the model makes in its own code (:check-model), crashes, hangs, failed effects, determinism; a path that names nothing skips the check.",
        "--after ACTION EXPR: a postcondition checked after every step that took ACTION, accepted or refused; old(…) reads the state before it, args.NAME and args[N] its arguments, accepted whether the model took it.",
        "An --invariant or --after runs to the next option. --actions limits the search to those actions. --time-limit S searches until S seconds are spent (up to --runs only when it is given). Defaults: --runs 200, --steps 50, the seed from the time (printed).",
        "--against PLUGIN[:MODEL]: the same steps go to a reference model (a plugin in the search path or a file; MODEL defaults to the explored model's name, else the plugin's first), and the first step after which the states differ — at each --compare PATH, default the whole state — or that one accepts and the other refuses is a failure; the transcript pins it with :compare.",
        "Guided by default: a run that reaches a state or a transition (an action from a state) no run reached is kept, and four runs in five start from a changed copy of a kept one (extended, a step made afresh or left out, spliced with another), so a long exact sequence is found a step at a time; --no-guidance makes every run from fresh steps. The report says how many runs were kept and transitions taken.",
        "--schedules: the answers of the model's asynchronous service calls (service_answer) come late as each run's seed chooses — after a wait on the clock, after the next action, or never — so a stale answer that overwrites a newer one, or one that lands after a cancel, is found; the shrunk schedule is written as :latency lines. Without it every answer comes at once.",
        "--exhaustive: instead of random runs, every sequence of up to --depth steps (default 6), breadth first, with finite arguments (declared ranges and sets, else edge values and values the state holds), each state kept once (--state-limit, default 100000): the first failure is the shortest; none is a proof to that depth.",
        "The model's stubs (:stubs) hold in the search too, and the transcript sets them up.",
        "A failure is shrunk and written as a transcript (default MODEL.transcript) that replays this session's actions first, then the steps with their output not compared, and pins the property with :check or :check-after: it passes once the bug is fixed, even when the fix changes earlier states.",
        "An existing file is replaced when explore wrote it; another only with --overwrite. A directory, a device or a FIFO is refused before the search.",
        "See 'storesh explore --help' for the same search from the command line.",
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await explore(arguments, origin: origin, in: core)
    }

    /// The options of `:explore`, read from its argument text.
    struct ExploreArguments {
        var options: ExploreOptions
        var out: String?
        var overwrite = false
        /// `--against PLUGIN[:MODEL]`: the reference, and where its value starts.
        var against: (plugin: String, model: String?, offset: Int)?
        /// `--compare PATH`, each.
        var comparePaths: [String] = []
    }

    func exploreArguments(_ text: String) throws(TextError) -> ExploreArguments {
        var arguments = ExploreArguments(
            options: ExploreOptions(seed: UInt64(DispatchTime.now().uptimeNanoseconds % 1_000_000_007)))
        // Each option runs to the next " --" outside quotes (an invariant has spaces in it).
        var pieces: [(text: String, offset: Int)] = []
        var searchStart = text.startIndex
        var pieceStart = text.startIndex
        while let range = text.range(of: "--", range: searchStart..<text.endIndex) {
            let atWordStart = range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)] == " "
            if atWordStart, range.lowerBound != pieceStart, !Self.isInQuotes(text[pieceStart..<range.lowerBound]) {
                pieces.append(
                    (
                        String(text[pieceStart..<range.lowerBound]),
                        text.utf8.distance(from: text.startIndex, to: pieceStart)
                    ))
                pieceStart = range.lowerBound
            }
            searchStart = range.upperBound
        }
        if pieceStart < text.endIndex {
            pieces.append((String(text[pieceStart...]), text.utf8.distance(from: text.startIndex, to: pieceStart)))
        }
        var runsGiven = false
        var (depth, stateLimit): (Int?, Int?) = (nil, nil)
        for (piece, offset) in pieces {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            let name = String(trimmed.prefix { $0 != " " })
            // A value in quotes, as the command line needs it, is the text inside them.
            let (value, shift) = Self.unquoted(trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
            let valueOffset =
                offset + piece.utf8.count - piece.drop { $0 == " " }.dropFirst(name.count).drop { $0 == " " }.utf8.count
                + shift
            func number(_ range: ClosedRange<Int>) throws(TextError) -> Int {
                guard let number = Int(value), range.contains(number) else {
                    throw TextError(
                        "\(name) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'",
                        at: valueOffset)
                }
                return number
            }
            switch name {
            case "--invariant":
                do {
                    arguments.options.invariants.append(try StateCondition.parse(value))
                } catch {
                    throw TextError(error.message, at: valueOffset + error.offset)
                }
            case "--after":
                let written = String(value.prefix { $0 != " " })
                let rest = value.dropFirst(written.count).drop { $0 == " " }
                let (expression, expressionShift) = Self.unquoted(String(rest))
                let action = Self.unquoted(written).text
                guard !action.isEmpty, !expression.isEmpty else {
                    throw TextError("--after takes an action and an expression: --after ACTION EXPR", at: valueOffset)
                }
                do {
                    arguments.options.postconditions.append(
                        try ExplorePostcondition.parse(action: action, expression: expression))
                } catch {
                    throw TextError(
                        error.message,
                        at: valueOffset + value.utf8.count - rest.utf8.count + expressionShift + error.offset)
                }
            case "--time-limit":
                guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                    throw TextError(
                        "--time-limit takes seconds, more than 0 and at most 86400, not '\(value)'", at: valueOffset)
                }
                arguments.options.timeLimit = seconds
            case "--seed":
                guard let seed = UInt64(value) else {
                    throw TextError("--seed takes a whole number, not '\(value)'", at: valueOffset)
                }
                arguments.options.seed = seed
            case "--runs":
                arguments.options.runs = try number(1...10_000_000)
                runsGiven = true
            case "--steps": arguments.options.steps = try number(1...100_000)
            case "--actions":
                let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
                guard !names.isEmpty else {
                    throw TextError("--actions takes action names separated by ','", at: valueOffset)
                }
                arguments.options.actions = names
            case "--out":
                guard !value.isEmpty else { throw TextError("--out takes a file name", at: valueOffset) }
                arguments.out = value
            case "--against":
                guard !value.isEmpty else { throw TextError("--against takes PLUGIN[:MODEL]", at: valueOffset) }
                let (plugin, model) = ExploreOptions.againstParts(value)
                arguments.against = (plugin, model, valueOffset)
            case "--compare":
                guard !value.isEmpty else { throw TextError("--compare takes a path", at: valueOffset) }
                arguments.comparePaths.append(value)
            case "--overwrite":
                guard value.isEmpty else { throw TextError("--overwrite takes no value", at: valueOffset) }
                arguments.overwrite = true
            case "--schedules":
                guard value.isEmpty else { throw TextError("--schedules takes no value", at: valueOffset) }
                arguments.options.schedules = true
            case "--no-guidance":
                guard value.isEmpty else { throw TextError("--no-guidance takes no value", at: valueOffset) }
                arguments.options.guidance = false
            case "--exhaustive":
                guard value.isEmpty else { throw TextError("--exhaustive takes no value", at: valueOffset) }
                arguments.options.exhaustiveDepth = arguments.options.exhaustiveDepth ?? 6
            case "--depth":
                depth = try number(1...64)
            case "--state-limit":
                stateLimit = try number(1...100_000_000)
            default:
                throw TextError(
                    "unknown option '\(name)'; :help explore lists them",
                    at: offset + piece.utf8.count - piece.drop { $0 == " " }.utf8.count)
            }
        }
        if !arguments.comparePaths.isEmpty, arguments.against == nil {
            throw TextError("--compare compares with the reference model: it needs --against PLUGIN[:MODEL]", at: 0)
        }
        if arguments.options.exhaustiveDepth == nil, depth != nil || stateLimit != nil {
            throw TextError("--depth and --state-limit bound an exhaustive search: they need --exhaustive", at: 0)
        }
        if arguments.options.exhaustiveDepth != nil, arguments.options.schedules {
            throw TextError("--schedules is for the random search: --exhaustive takes every answer at once", at: 0)
        }
        if arguments.against != nil, arguments.options.schedules {
            throw TextError(
                "--schedules makes one model's answers late: the reference of --against would differ by timing alone",
                at: 0)
        }
        if let depth, arguments.options.exhaustiveDepth != nil { arguments.options.exhaustiveDepth = depth }
        if let stateLimit { arguments.options.stateLimit = stateLimit }
        // A time limit is a budget: without --runs, the search goes on until it is spent.
        if arguments.options.timeLimit != nil, !runsGiven { arguments.options.runs = .max }
        return arguments
    }

    /// `"a >= 0"` or `'a >= 0'` as the command line's shell would pass it: the text inside
    /// the quotes (escapes read) and how many bytes in it starts; any other text as it is
    /// (an expression with string literals of its own, `status == "done"`, among them).
    static func unquoted(_ value: String) -> (text: String, shift: Int) {
        if value.count >= 2, value.hasPrefix("'"), value.hasSuffix("'"), !value.dropFirst().dropLast().contains("'") {
            return (String(value.dropFirst().dropLast()), 1)
        }
        let words = CommandWords.asTyped(value)
        guard value.hasPrefix("\""), words.count == 1, words[0].text == value, value.count >= 2, value.hasSuffix("\"")
        else { return (value, 0) }
        return (CommandWords.unquoted(value).first?.text ?? "", 1)
    }

    /// Whether the end of `text` is inside double quotes (a `--` there is not an option).
    static func isInQuotes(_ text: Substring) -> Bool {
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            }
        }
        return quoted
    }

    /// Runs the search from the current model's timeline and reports what it found.
    @MainActor private func explore(
        _ command: CommandArguments, origin: LineOrigin, in context: some ExploreContext
    ) async -> Bool {
        guard let session = context.current else { return context.fail(context.noCurrentModel, origin: origin) }
        let arguments: ExploreArguments
        do {
            arguments = try exploreArguments(command.text)
        } catch {
            return context.fail(error.message, origin: origin, in: command, at: error.offset)
        }
        let model = session.model
        // A state that already breaks an invariant fails every run at its start: said once.
        for invariant in arguments.options.invariants {
            let outcome = invariant.check(session.state, identity: model.stateDiff)
            if case .missing = outcome { continue }
            guard let why = invariant.explain(outcome) else { continue }
            return context.fail(
                "explore: the current state already breaks the invariant \(invariant) (\(why)), so every run would fail before its first step; :undo or :goto to a state where it holds",
                origin: origin)
        }
        guard let plugin = context.host.plugins.first(where: { $0.name == model.plugin }) else {
            return context.fail("\(model.plugin) is not loaded", origin: origin)
        }
        // A path that cannot be written is refused before the search, not after it.
        let target = OutputFile.exploreTranscript(
            arguments.out, model: model.name, overwrite: arguments.overwrite, resolve: context.resolvePath)
        do throws(OutputFile.Problem) {
            try target.check()
        } catch {
            return context.fail("explore: \(error.description)", origin: origin)
        }
        // A host of its own, set up as this one.
        let searchHost = context.host.sibling()
        let searchCore = ShellCore(host: searchHost, showDiff: true, reportActions: false) { _ in }
        // The model's stubs, made again from their text (a script counts its calls).
        let setup = context.stubs.setupLines(of: model)
        let prefix: [ExploreStep] =
            (context.recorder.histories[model.qualifiedName]?.entries.prefix(
                context.recorder.histories[model.qualifiedName]?.position ?? 0) ?? [])
            .filter { !$0.skipped && $0.source != .effect && model.actions.indices.contains(Int($0.action)) }
            .map { .action(name: model.actions[Int($0.action)].name, arguments: $0.arguments) }
        let report: ExploreReport
        do {
            _ = try searchHost.load(plugin.path, as: plugin.loadedAs)
            try searchCore.use(model.qualifiedName)
            for line in setup where !(await searchCore.execute(line)) {
                return context.fail("explore: cannot set up \(line)", origin: origin)
            }
            var reference: ExploreReference?
            if let against = arguments.against {
                let referenceHost = context.host.sibling()
                let comparison: StateComparison
                do throws(StateComparisonError) {
                    comparison = try StateComparison(paths: arguments.comparePaths)
                } catch {
                    return context.fail("explore: --compare \(error.message)", origin: origin)
                }
                do throws(ShellError) {
                    reference = try ExploreReference.load(
                        against.plugin, model: against.model, in: referenceHost, explored: model, plugin: plugin,
                        comparison: comparison)
                    try await reference?.setUp(setup)
                } catch {
                    return context.fail(
                        "explore: --against: \(error.message)", origin: origin, in: command, at: against.offset)
                }
            }
            var found = try await Explorer(
                core: searchCore, options: arguments.options, prefix: prefix, reference: reference
            ).explore()
            found.setup = setup
            found.referencePlugin = reference?.pluginPath
            found.referenceAlias = reference?.pluginAlias
            found.pluginAlias = plugin.loadedAs
            report = found
        } catch let error as ShellError {
            return context.fail("explore: \(error.message)", origin: origin)
        } catch {
            return context.fail("explore: \(error)", origin: origin)
        }
        var lines = report.lines(model: model)
        if report.failure != nil {
            let (isolation, timeout) = (context.host.isolation, context.host.actionTimeout)
            do throws(OutputFile.Problem) {
                try await ExploreTranscript.write(
                    report, model: model, pluginPath: plugin.path, to: target, foundBy: ":explore",
                    searchPath: context.host.searchPath
                ) { ($0.isolation, $0.actionTimeout) = (isolation, timeout) }
                lines.append("wrote \(target.path): run it with storesh test")
            } catch {
                // The failure found is still reported (its seed finds it again).
                context.output(.report(kind: "explore", lines: lines, data: report.record(model: model)))
                return context.fail("explore: the transcript was not written: \(error.description)", origin: origin)
            }
        }
        context.output(.report(kind: "explore", lines: lines, data: report.record(model: model)))
        return true
    }
}
