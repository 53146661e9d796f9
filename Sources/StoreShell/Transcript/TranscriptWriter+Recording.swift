import StoreHost

extension TranscriptWriter {
    /// `text` with its output recorded by running it in a fresh session set up as `host`
    /// is (where models run, how long they may take), then checked by running it again:
    /// the transcript, or why it would not pass as written.
    @MainActor static func recorded(_ text: String, file: String, like host: PluginHost) async -> Result<
        String, TranscriptWriter.Problem
    > {
        let setUp = { (fresh: PluginHost) in
            fresh.adoptSettings(of: host)
        }
        let first = await TranscriptRunner.run(text, file: file, searchPath: host.searchPath, setUp: setUp)
        guard first.problems.isEmpty else {
            return .failure(
                TranscriptWriter.Problem(
                    description: "the transcript would not pass as written: " + first.problems.joined(separator: "; ")))
        }
        let check = await TranscriptRunner.run(first.updated, file: file, searchPath: host.searchPath, setUp: setUp)
        guard check.passed else {
            let why = check.problems + check.diff.prefix(12)
            return .failure(
                TranscriptWriter.Problem(
                    description: "the recorded transcript did not pass when run again (its output is not repeatable): "
                        + why.joined(separator: "\n")))
        }
        return .success(first.updated)
    }
}
