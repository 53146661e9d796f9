import Foundation

/// Writes a transcript (see `Transcript`) from inputs and what they printed, so that
/// `storesh test` reads back exactly what was written: `> ` inputs (`... ` for the lines
/// after the first of a statement), `!> ` for an input that is expected to fail, and the
/// output under each. `:save-test` and `storesh test --from-journal` write with it.
///
///     var writer = TranscriptWriter(file: "tests/bug.transcript")
///     writer.comment("recorded by :save-test")
///     writer.input(writer.loadCommand(plugin: "/work/.build/debug/libTodos.so"), output: ["loaded Todos 1.0"])
///     writer.input("add \"milk\"", output: ["add \"milk\": state changed"])
///     try OutputFile(path: "tests/bug.transcript", kind: .savedTranscript, force: false, hint: "--force")
///         .write(writer.text)
///
/// Output lines that the reader would take for something else — a line starting with
/// `> `, `!> `, `... ` or `#`, or ending in ` (re)` or ` (glob)` — are written as a
/// ` (re)` pattern matching exactly that line. Paths to plugins are written relative to
/// the transcript's folder, so the transcript passes from any working directory.
package struct TranscriptWriter: Sendable {
    /// The folder the transcript is in, with links resolved: paths are written from here.
    package let directory: String
    private var items: [Transcript.Item] = []
    private var expectedFailures: Set<Int> = []
    private var lineCount = 0

    /// A writer for the transcript that will be at `file` (relative to the working
    /// directory, or absolute).
    package init(file: String) {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().path
        directory = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
    }

    /// `# text`, a line `storesh test` skips.
    package mutating func comment(_ text: String) {
        for line in TextLines.split(text) { append(.comment("# " + line)) }
    }

    /// An empty line between blocks.
    package mutating func blank() {
        append(.blank)
    }

    /// An input and the lines it printed; `expectsFailure`: it reported an error, and the
    /// transcript expects it to (`!> `). A statement of several lines is written with
    /// `... ` continuation lines.
    package mutating func input(_ statement: String, output: [String] = [], expectsFailure: Bool = false) {
        let lines = TextLines.split(statement).map(String.init)
        let first = lineCount + 1
        items.append(.input(lines.isEmpty ? [""] : lines, line: first))
        lineCount += max(1, lines.count)
        if expectsFailure { expectedFailures.insert(first) }
        var shown = output
        while shown.last == "" { shown.removeLast() }  // a block's trailing blanks only separate
        for line in shown { append(.output(Self.expected(line), line: lineCount + 1)) }
    }

    /// `:load PATH` for the plugin at `path`, written relative to the transcript's folder.
    package func loadCommand(plugin path: String, as alias: String? = nil) -> String {
        Self.loadCommand(relativePath(path), as: alias)
    }

    /// `:load TARGET`, with ` as ALIAS` when the plugin was loaded under another name:
    /// the one place a transcript's, a test's or a journal's `:load` line is written.
    /// TARGET (a path or a name) is quoted when it has spaces, quotes or backslashes.
    package static func loadCommand(_ target: String, as alias: String?) -> String {
        ":load " + CommandWords.quoted(target) + (alias.map { " as " + $0 } ?? "")
    }

    /// `path` as seen from the transcript's folder (`../.build/debug/libCounter.so`,
    /// `lib/libCounter.so`); `./NAME` for a file beside it, so `:load` takes it as a path.
    package func relativePath(_ path: String) -> String {
        Self.relativePath(to: path, from: directory)
    }

    /// `target` written relative to the folder `directory` (both absolute): the path a
    /// transcript in `directory` names it by, so it runs from any working directory.
    package static func relativePath(to target: String, from directory: String) -> String {
        let targetParts = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let baseParts = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        let shared = zip(targetParts, baseParts).prefix { $0 == $1 }.count
        let ups = Array(repeating: "..", count: baseParts.count - shared)
        let rest = Array(targetParts[shared...])
        let path = (ups + rest).joined(separator: "/")
        return path.contains("/") ? path : "./" + path
    }

    /// The transcript written so far.
    package var transcript: Transcript {
        Transcript(items: items, expectedFailures: expectedFailures)
    }

    /// The transcript's text.
    package var text: String { transcript.text }

    /// Why a transcript was not written.
    package typealias Problem = OutputFile.Problem

    private mutating func append(_ item: Transcript.Item) {
        items.append(item)
        lineCount += 1
    }

    /// `line` as an expected line that matches exactly it.
    static func expected(_ line: String) -> String {
        let readAsInput = ["> ", "!> ", "... ", "#"].contains { line.hasPrefix($0) } || line == ">"
        guard readAsInput || line.hasSuffix(" (re)") || line.hasSuffix(" (glob)") else { return line }
        guard readAsInput, let first = line.first else {
            return NSRegularExpression.escapedPattern(for: line) + " (re)"
        }
        // The first character ('>', '!', '.' or '#') in brackets, where escaping would leave
        // '#', '>' and '!' as they are, and the line would still read as an input.
        return "[\(first)]" + NSRegularExpression.escapedPattern(for: String(line.dropFirst())) + " (re)"
    }
}
