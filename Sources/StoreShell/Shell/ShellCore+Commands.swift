import StoreHost

/// The command registry and the dispatch of a `:command` line to the command it names.
extension ShellCore {
    /// Every command, in the order `:help` lists them.
    nonisolated static let commands: [any ShellCommand] =
        [
            HelpCommand(), PluginsCommand(), LoadCommand(), ModelsCommand(), UseCommand(), ActionsCommand(),
            StateCommand(), DiffCommand(), FxCommand(), WaitCommand(), AdvanceCommand(), SeedCommand(),
            StubCommand(), StubsCommand(), UnstubCommand(), LatencyCommand(), TiesCommand(), ExpectCommand(),
            LogCommand(),
            GotoCommand(),
            StepCommand.undo, StepCommand.redo, BranchesCommand(), BranchCommand(), SkipCommand.skip,
            SkipCommand.unskip, ExportCommand(), ImportCommand(), ResetCommand(), CrashCommand(), ReloadCommand(),
            QuitCommand(), ExploreCommand(), ReplayCheckCommand(), CheckCommand(), CheckAfterCommand(),
            CheckModelCommand(), CompareCommand(),
        ] + debuggingCommands + [InspectCommand()]

    /// The debugging commands, in the order `:help` lists them.
    nonisolated static let debuggingCommands: [any ShellCommand] = [
        BisectCommand(), WhyCommand(), FindCommand(), WatchCommand(), UnwatchCommand(), BreakCommand(),
        UnbreakCommand(), TimerCommand(), TimeitCommand(), SaveTestCommand(),
    ]

    nonisolated static let aliases = ["q": "quit", "exit": "quit", "h": "help", "?": "help"]

    nonisolated static func command(named name: String) -> (any ShellCommand)? {
        let resolved = aliases[name] ?? name
        return commands.first { $0.name == resolved }
    }

    /// Whether the command `name` (or alias) never changes a model's state; false for a
    /// name no command has.
    package nonisolated static func commandReadsOnly(_ name: String) -> Bool {
        command(named: name)?.readsOnly ?? false
    }

    /// The name of the command `line` runs (an alias resolved), found as `execute` finds
    /// it (`LineKind`, then the first word); nil for a line that is no `:command`.
    package nonisolated static func commandName(ofLine line: String) -> String? {
        let (kind, start) = LineKind.classify(line)
        guard kind == .command, let word = CommandWords.unquoted(String(line[start...].dropFirst())).first else {
            return nil
        }
        return aliases[word.text] ?? word.text
    }

    /// Runs the `:command` line `line` (from its ':').
    func command(_ line: String, origin: LineOrigin) async -> Bool {
        let words = CommandWords.unquoted(String(line.dropFirst())).map(\.text)
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
        return await command.run(self, CommandArguments(line: line, words: Array(words.dropFirst())), origin: origin)
    }
}
