import Foundation
package import StoreHost

/// The transcript `storesh explore` hands back: the shrunk run as inputs, with the output
/// each printed recorded by running it once (`TranscriptRunner`), so it reads as a session
/// would and fails `storesh test` exactly while the bug is there.
package enum ExploreTranscript {
    /// One input line, and what its output must be.
    package struct Input: Equatable, Sendable {
        package enum Output: Equatable, Sendable {
            /// As recorded.
            case recorded
            /// Anything, and the model may refuse it (`(output not compared)`).
            case notCompared
            /// Nothing: a check (`:expect`) whose error is what fails the transcript.
            case none
        }

        package let line: String
        package let output: Output

        package init(_ line: String, output: Output = .recorded) {
            self.line = line
            self.output = output
        }
    }

    /// The transcript's text before recording: a header of `comments`, then each input
    /// (uncompared ones with the `(output not compared)` line).
    package static func text(comments: [String], inputs: [Input]) -> String {
        var lines = comments.map { "# " + $0 }
        for input in inputs {
            lines.append("> " + input.line)
            if input.output == .notCompared { lines.append(Transcript.outputNotCompared) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `report`'s shrunk run as a transcript to `target` (an absolute path) under the
    /// file rule (`OutputFile`: a file explore wrote is replaced whole, another only when
    /// told): `:load` by `pluginPath` relative to the file, the output recorded by running
    /// it once (`record`). `foundBy` names the command in its header, which marks the file
    /// as explore's own.
    @MainActor
    package static func write(
        _ report: ExploreReport, model: ModelDescriptor, pluginPath: String, to target: OutputFile, foundBy: String,
        searchPath: [String], setUp: (PluginHost) -> Void
    ) async throws(OutputFile.Problem) {
        let file = target.path
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let inputs = report.transcriptInputs(
            model: model, pluginPath: relativePath(to: pluginPath, from: directory),
            referencePluginPath: report.referencePlugin.map { relativePath(to: $0, from: directory) },
            referenceAlias: report.referenceAlias)
        let comments = [
            "Found by \(foundBy) (seed \(report.seed)): \(report.failure?.description ?? "")",
            "It fails 'storesh test' while the bug is there, and passes once it is fixed.",
        ]
        let text = await record(comments: comments, inputs: inputs, file: file, searchPath: searchPath, setUp: setUp)
        try target.write(text)
    }

    /// The transcript of `inputs` with every recorded input's output recorded, as
    /// `storesh test --update` records it: run once, in a fresh session, from `file`'s
    /// folder. An input whose output must be none gets none, whatever it printed.
    @MainActor
    package static func record(
        comments: [String], inputs: [Input], file: String, searchPath: [String], setUp: (PluginHost) -> Void
    ) async -> String {
        let text = text(comments: comments, inputs: inputs)
        let recorded = await TranscriptRunner.run(text, file: file, searchPath: searchPath, setUp: setUp).updated
        var transcript = Transcript.parse(recorded)
        var keep = true
        var inputIndex = 0
        transcript.items = transcript.items.filter { item in
            switch item {
            case .input:
                keep = inputIndex >= inputs.count || inputs[inputIndex].output != .none
                inputIndex += 1
                return true
            case .output: return keep
            case .comment, .blank: return true
            }
        }
        return transcript.text
    }

    /// `target` written relative to the folder `directory` (both absolute), so a
    /// transcript that names a plugin by it runs from any working directory.
    package static func relativePath(to target: String, from directory: String) -> String {
        TranscriptWriter.relativePath(to: target, from: directory)
    }
}
