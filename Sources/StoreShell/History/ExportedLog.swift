package import Foundation
import StoreHost

/// An exported action log read back for `:import`: the model and action schema its
/// header names, and its entries (`SOURCE ACTION-TEXT`, one a line). Reading it checks
/// only the form; whether the entries fit a model is the importer's question.
package struct ExportedLog: Sendable {
    package static let header = "# storesh export 1"

    /// `model`'s actions as the log's `# action:` lines write them, and its schema hash reads them.
    static func schemaLines(of model: ModelDescriptor) -> [String] {
        model.actions.map { ActionBinding.signature(of: $0) }
    }

    /// "1 action", "2 actions": how many actions a log holds, in words.
    static func actions(_ count: Int) -> String {
        count == 1 ? "1 action" : "\(count) actions"
    }

    package struct Problem: Error {
        package let message: String
    }

    /// One entry: where it came from (nil when the word is not a source), its action text,
    /// and its line in the file.
    package struct Entry: Sendable {
        package let source: ActionSource?
        package let text: String
        package let line: Int
    }

    package var model: String
    package var schema: [String]
    package var entries: [Entry]

    package static func parse(_ data: Data, name: String) throws(Problem) -> ExportedLog {
        guard let text = String(validating: data, as: UTF8.self) else {
            let invalid = TextLines.firstInvalidUTF8(in: [UInt8](data)) ?? (line: 1, column: 1, byte: 0)
            throw Problem(
                message:
                    "\(name):\(invalid.line):\(invalid.column): not valid UTF-8 (\(TextLines.describe(invalid.byte))), so it is not a storesh export"
            )
        }
        var log = ExportedLog(model: "?", schema: [], entries: [])
        var sawHeader = false
        for (index, line) in TextLines.split(text).enumerated() {
            if index == 0 {
                guard line == header else {
                    throw Problem(message: "\(name) is not a storesh export (its first line should be '\(header)')")
                }
                sawHeader = true
            } else if line.hasPrefix("# model: ") {
                log.model = String(line.dropFirst(9))
            } else if line.hasPrefix("# action: ") {
                log.schema.append(String(line.dropFirst(10)))
            } else if !line.hasPrefix("#"), line.utf8.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                log.entries.append(
                    Entry(
                        source: ActionSource(rawValue: String(parts[0])),
                        text: parts.count == 2 ? String(parts[1]) : "", line: index + 1))
            }
        }
        guard sawHeader else { throw Problem(message: "\(name) is empty, so it is not a storesh export") }
        return log
    }
}
