import Foundation
public import StoreHost

/// The transcript `storesh explore` hands back: the shrunk run as inputs, with the output
/// each printed recorded by running it once (`TranscriptRunner`), so it reads as a session
/// would and fails `storesh test` exactly while the bug is there.
public enum ExploreTranscript {
    /// One input line, and whether its output is compared.
    public struct Input: Equatable, Sendable {
        public let line: String
        public let compared: Bool

        public init(_ line: String, compared: Bool = true) {
            self.line = line
            self.compared = compared
        }
    }

    /// The transcript's text before recording: a header of `comments`, then each input
    /// (uncompared ones with the `(output not compared)` line).
    public static func text(comments: [String], inputs: [Input]) -> String {
        var lines = comments.map { "# " + $0 }
        for input in inputs {
            lines.append("> " + input.line)
            if !input.compared { lines.append(Transcript.outputNotCompared) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with every compared input's output recorded, as `storesh test --update`
    /// records it: the transcript is run once, in a fresh session, from `file`'s folder.
    @MainActor
    public static func record(_ text: String, file: String, searchPath: [String], setUp: (PluginHost) -> Void) async -> String {
        await TranscriptRunner.run(text, file: file, searchPath: searchPath, setUp: setUp).updated
    }

    /// `target` written relative to the folder `directory` (both absolute), so a
    /// transcript that names a plugin by it runs from any working directory.
    public static func relativePath(to target: String, from directory: String) -> String {
        TranscriptWriter.relativePath(to: target, from: directory)
    }
}
