import StoreHost
import StoreValue

/// What a command that does its own work needs from the shell, and nothing more: the
/// loaded models, the current session and the histories, somewhere to report, a way to
/// fail, stores of its own, files, and Ctrl-C. `ShellCore` is the one conformer. A command
/// whose work takes a context (`some CommandContext`, or a context built on it, such as
/// `BisectContext`) cannot reach the rest of the shell, so what it depends on is written
/// here, as `WorkerRecoveryContext` writes what recovery depends on.
@MainActor
protocol CommandContext: AnyObject {
    /// The loaded plugins and their models.
    var host: PluginHost { get }
    /// The session of the current model.
    var current: Session? { get }
    /// The error for a command that needs a current model when there is none.
    var noCurrentModel: String { get }
    /// Each model's history and the journal written ahead of it.
    var recorder: Recorder { get }
    /// Receives everything the command reports, as it happens.
    var output: (ShellOutput) -> Void { get }
    /// True (once) when the user pressed Ctrl-C: long work asks between its steps.
    var takeInterrupt: () -> Bool { get }
    /// Reports `error` and answers false, what a command answers when it failed. An error
    /// in an action's text is also kept for `:save-test`.
    @discardableResult
    func fail(_ error: ShellError) -> Bool
    /// A file argument as the user means it: `~` is the home directory, and a relative
    /// path is relative to a transcript's folder when one runs.
    func resolvePath(_ path: String) -> String
    /// A new store of `model` with the session's stubs, not the model's session: a command
    /// works in it and leaves the session as it is.
    func detachedSession(of model: ModelDescriptor) throws(ShellError) -> Session
}

extension CommandContext {
    /// Reports `message` (with a caret at byte `offset` of `text`, when given) and answers false.
    @discardableResult
    func fail(_ message: String, origin: LineOrigin, text: String? = nil, offset: Int? = nil) -> Bool {
        fail(ShellError(message, origin: origin, text: text, offset: offset))
    }

    /// An error with a caret at byte `offset` of a command's argument text.
    @discardableResult
    func fail(_ message: String, origin: LineOrigin, in arguments: CommandArguments, at offset: Int) -> Bool {
        fail(message, origin: origin, text: arguments.line, offset: arguments.textStart + offset)
    }

    /// The condition `text` states (`:bisect`, `:break`, `:expect`), or nil when it has
    /// been reported as wrong, with a caret at its column in the line.
    func parseCondition(
        _ text: String, in arguments: CommandArguments, origin: LineOrigin, offset: Int = 0
    ) -> StateCondition? {
        do throws(TextError) {
            return try StateCondition.parse(text)
        } catch {
            fail(error.message, origin: origin, in: arguments, at: offset + error.offset)
            return nil
        }
    }

    /// The loaded plugin `:command [PLUGIN]` means: the one named, else the current
    /// model's. Nil after reporting why there is none.
    func namedPlugin(_ name: String?, command: String, origin: LineOrigin) -> LoadedPlugin? {
        guard let pluginName = name ?? current?.model.plugin else {
            fail(
                "\(host.plugins.isEmpty ? "no model is loaded" : "no model is current"); name the plugin: :\(command) PLUGIN",
                origin: origin)
            return nil
        }
        guard let plugin = host.plugins.first(where: { $0.name == pluginName }) else {
            fail("no plugin named '\(pluginName)' is loaded; :plugins lists them", origin: origin)
            return nil
        }
        return plugin
    }
}
