/// One `:command`: its syntax, a line of help, more detail, and what it does. Each command
/// (or small family of commands) is a type of its own; `ShellCore.commands` lists them
/// and `ShellCore` dispatches a command line to the one it names.
protocol ShellCommand: Sendable {
    /// The word after ':' that runs it (`state` for `:state`).
    var name: String { get }
    /// Its syntax, as `:help` shows it (`:state [PATH] [--depth N] [--all]`).
    var usage: String { get }
    /// One line of help.
    var summary: String { get }
    /// More lines of help, shown by `:help NAME`.
    var detail: [String] { get }
    /// True when it never changes a model's state (it may change a setting, or write a
    /// file): the one table of read-only commands, which clients' hints and the service's
    /// state-changed events read (`ShellCore.commandReadsOnly`).
    var readsOnly: Bool { get }
    /// Runs the command. False when it failed (the error has been reported to `core`).
    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool
}

extension ShellCommand {
    var readsOnly: Bool { false }

    /// Whether the usage names no argument (`:reset`), so any word after the name is an error.
    var takesNoArguments: Bool { !usage.contains(" ") }
}

/// What follows a command's name on its line, handed to the command that runs it.
struct CommandArguments: Sendable {
    /// The whole command line, from its ':', for errors that point into it.
    let line: String
    /// The text after the command word, without the spaces before it.
    let text: String
    /// `text` split into words: double quotes group words and take JSON escapes.
    let words: [String]

    /// The arguments of `line`, a command line that starts with ':', whose words after
    /// the command's name are `words`.
    init(line: String, words: [String]) {
        self.line = line
        let afterName = line.drop { $0 == ":" || $0 == " " }.drop { $0 != " " && $0 != "\t" }
        text = String(afterName.drop { $0 == " " || $0 == "\t" })
        self.words = words
    }

    /// Where `text` starts in `line`, in bytes.
    var textStart: Int { line.utf8.count - text.utf8.count }

    /// `text`'s words as typed, each with where it starts in `text`: paths, literals and
    /// expressions keep their quotes (`todos["t1"]`).
    var typedWords: [CommandWord] { CommandWords.asTyped(text) }

    /// Where `flag` is in `text` as a word of its own (`--not`, `-n`), as the one lexer reads
    /// words as typed: in quotes or brackets it is part of a value (`"milk --not bread"`).
    static func flagRange(_ flag: String, in text: String) -> Range<String.Index>? {
        guard let word = CommandWords.asTyped(text).first(where: { $0.text == flag }) else { return nil }
        let start = text.utf8.index(text.startIndex, offsetBy: word.offset)
        return start..<text.utf8.index(start, offsetBy: flag.utf8.count)
    }
}
