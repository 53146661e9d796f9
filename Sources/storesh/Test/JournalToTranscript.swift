import StoreHost
import StoreShell

/// `storesh test --from-journal JOURNAL --out FILE`: the journal's session written as a
/// transcript, its output recorded by running it (where models run as the options say)
/// and checked by running it again. Returns the exit status: 0 written, 1 not.
@MainActor
func writeJournalTranscript(_ journal: String, to file: String, options: TestOptions, reporter: TestReporter) async
    -> Int32
{
    let host = PluginHost(clock: VirtualClock(), searchPath: PluginHost.defaultSearchPath(extra: options.pluginPath))
    options.isolation.apply(to: host)
    switch await ShellCore.transcript(fromJournal: journal, file: file, like: host) {
    case .failure(let problem):
        reporter.error("\(problem); \(file) was not written")
        return 1
    case .success(let text):
        do throws(TranscriptWriter.Problem) {
            try options.transcriptFile(file).write(text)
        } catch {
            reporter.error(error.description)
            return 1
        }
        reporter.written(file, from: journal)
        return 0
    }
}

extension TestReporter {
    /// A transcript written from a journal.
    func written(_ file: String, from journal: String) {
        if json {
            print(
                JSON.object([
                    ("kind", JSON.string("written")), ("file", JSON.string(file)), ("journal", JSON.string(journal)),
                ]))
        } else {
            print("wrote \(file) from \(journal); storesh test \(file) runs it")
        }
    }
}
