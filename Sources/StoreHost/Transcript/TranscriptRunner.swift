/// Runs transcripts: each in a fresh session exactly as storesh starts with no flags (the
/// bundled Counter loaded and current), on a virtual clock, without colour, settling
/// after every input so effects report in a stable order.
@MainActor
public enum TranscriptRunner {
    /// What running one transcript found.
    public struct Result: Sendable {
        public let file: String
        public let passed: Bool
        /// A unified diff of the file against what the session actually printed.
        public let diff: [String]
        /// The file with its expected output replaced by the actual output (for --update).
        public let updated: String
    }

    public static func run(_ text: String, file: String, searchPath: [String]) async -> Result {
        let transcript = Transcript.parse(text)
        let host = PluginHost(clock: VirtualClock(), searchPath: searchPath)
        var printed: [String] = []
        let formatter = OutputFormatter(format: .tree, color: false)
        let core = ShellCore(host: host, showDiff: true, reportActions: true) { output in
            printed += formatter.lines(for: output)
        }
        do {
            try host.load("Counter")
            try core.use("counter")
        } catch {
            printed.append("transcript setup: \(error)")
        }
        var actualByLine: [Int: [String]] = [:]
        let startup = printed
        for block in transcript.blocks {
            printed = []
            // Errors are output like any other; without FILE:LINE, which would change
            // whenever the file is updated.
            await core.execute(block.input.joined(separator: "\n"), origin: .prompt)
            await core.settle()
            while printed.last == "" { printed.removeLast() }
            actualByLine[block.line] = printed
            if core.quitRequested { break }
        }
        // The file as it would read with the actual output, keeping (re)/(glob) lines that
        // matched, so the diff shows only real differences.
        var items: [Transcript.Item] = startup.isEmpty ? [] : startup.map { .comment("# " + $0) }
        let blocks = transcript.blocks
        var blockIndex = 0
        var position = 0
        let source = transcript.items
        while position < source.count {
            let item = source[position]
            guard case .input(_, let line) = item else {
                if case .output = item {} else { items.append(item) }
                position += 1
                continue
            }
            items.append(item)
            position += 1
            let expected = blocks[blockIndex].expected
            blockIndex += 1
            let actual = actualByLine[line] ?? []
            for (offset, text) in actual.enumerated() {
                if offset < expected.count, Transcript.matches(text, expected[offset].text) {
                    items.append(.output(expected[offset].text, line: 0))
                } else {
                    items.append(.output(text, line: 0))
                }
            }
            // Skip the old output (and the blanks inside it) up to the next input/comment,
            // keeping the blank lines that separate blocks.
            var trailing: [Transcript.Item] = []
            while position < source.count {
                switch source[position] {
                case .output: trailing.removeAll()
                case .blank: trailing.append(.blank)
                case .input, .comment: break
                }
                if case .input = source[position] { break }
                if case .comment = source[position] { break }
                position += 1
            }
            items += trailing
        }
        let updated = Transcript(items: items).text
        let oldLines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(text.hasSuffix("\n") ? 1 : 0))
        let newLines = Array(updated.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(1))
        let diff = UnifiedDiff.lines(from: oldLines, to: newLines, oldName: file + " (expected)", newName: file + " (actual)")
        return Result(file: file, passed: diff.isEmpty, diff: diff, updated: updated)
    }
}
