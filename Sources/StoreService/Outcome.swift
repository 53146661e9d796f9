package import StoreShell
import StoreValue

/// What one operation did: whether it succeeded, and everything the shell reported while
/// it ran (its results, the effects it started, its errors), before any formatting.
package struct Outcome: Sendable {
    /// The answers a client gets are cut at this many characters: a state of 10,000
    /// todos would fill a model's context to no use. The cut says how to ask for less.
    package static let characterLimit = 25_000

    /// The operation's name.
    package let operation: String
    /// False when the shell reported an error (the session is then as it was).
    package let succeeded: Bool
    /// What the shell reported, in order.
    package let outputs: [ShellOutput]
    /// How to ask for less when the answer is cut (`Operation.narrowing`).
    package let narrowing: String

    /// An outcome; `narrowing` is said when the answer is cut.
    package init(operation: String, succeeded: Bool, outputs: [ShellOutput], narrowing: String = "ask for less") {
        self.operation = operation
        self.succeeded = succeeded
        self.outputs = outputs
        self.narrowing = narrowing
    }

    /// A refusal before anything ran.
    init(operation: String, refusal: String) {
        self.init(operation: operation, succeeded: false, outputs: [.error(ShellError(refusal, origin: .prompt))])
    }

    /// The errors among the outputs.
    package var errors: [ShellError] {
        outputs.compactMap { if case .error(let error) = $0 { error } else { nil } }
    }

    /// The outcome as the shell shows it, and as records (each output as `--format json`
    /// writes it), both cut at `limit` characters.
    package func rendered(limit: Int = Outcome.characterLimit) -> RenderedOutcome {
        let tree = OutputFormatter(format: .tree)
        let json = OutputFormatter(format: .json)
        let text = outputs.flatMap(tree.lines(for:)).joined(separator: "\n")
        var fields: [(String, String?)] = [("ok", succeeded ? "true" : "false"), ("operation", JSON.string(operation))]
        if let error = errors.first {
            fields.append(("error", JSON.string(error.message)))
            fields.append(("column", error.column.map { String($0) }))
        }
        let whole = JSON.object(
            fields + [("outputs", "[" + outputs.map { json.lines(for: $0).joined() }.joined(separator: ",") + "]")])
        let textLength = text.count
        let recordLength = whole.utf8.count
        guard textLength > limit || recordLength > limit else {
            return RenderedOutcome(
                text: text.isEmpty ? (succeeded ? "done" : "failed") : text, record: whole, cut: false)
        }
        let note = "… cut at \(limit) characters of \(max(textLength, recordLength)): \(narrowing)"
        let cutRecord = JSON.object(
            fields + [
                ("cut", "true"), ("characters", String(max(textLength, recordLength))),
                ("narrow", JSON.string(narrowing)),
            ])
        return RenderedOutcome(text: String(text.prefix(limit)) + "\n" + note, record: cutRecord, cut: true)
    }
}

/// An outcome made ready for a client: text for people and models, a JSON object for
/// programs.
package struct RenderedOutcome: Sendable, Equatable {
    /// The lines the shell would print, joined by newlines.
    package let text: String
    /// A JSON object: `ok`, `operation`, `error` and `column` when it failed, and
    /// `outputs` (the `--format json` records) — or, when cut, `cut`, `characters` and
    /// `narrow` in their place.
    package let record: String
    /// True when the answer was over the limit and cut.
    package let cut: Bool
}
