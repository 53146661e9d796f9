import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// Writes a journal of `records` (as `--journal` does) and returns its path.
private func journalFile(_ records: [JournalRecord]) throws -> String {
    let path = try Fixtures.directory().appendingPathComponent("journal").path
    let journal = try Journal(path: path, mode: .create)
    for record in records { try journal.append(record) }
    return path
}

@Suite("The journal file")
struct JournalFileTests {
    @Test func aTornLastRecordIsDroppedWithAWarning() throws {
        let path = try journalFile([
            .use(model: "counter.counter"),
            .action(model: "counter.counter", source: .typed, text: "increment"),
            .action(model: "counter.counter", source: .typed, text: "setCount 5"),
        ])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast(4)  // storesh died in the middle of the last write
        try bytes.write(to: URL(fileURLWithPath: path))
        let contents = try Journal.read(path)
        #expect(
            contents.records.map(\.record) == [
                .use(model: "counter.counter"), .action(model: "counter.counter", source: .typed, text: "increment"),
            ])
        #expect(contents.warning?.contains("journal:4: the last record was cut short") == true)
    }

    @Test func aDamagedRecordInTheMiddleIsAnErrorNamingItsLine() throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        try "storesh-journal 1\n00000000 U counter.counter\n00000000 R\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect { try Journal.read(path) } throws: {
            ($0 as? Journal.Problem)?.message.contains("journal:2: damaged record (checksum does not match)") == true
        }
        try "not a journal\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: Journal.Problem.self) { try Journal.read(path) }
    }

    /// Records are split at their first spaces by bytes: text that starts with a combining
    /// mark (which joins the space before it into one `Character`), spaces inside the
    /// text, and characters outside ASCII all come back as written; a record with too few
    /// fields is no record.
    @Test func recordsWithAnyTextSurviveTheRoundTripByTheirBytes() throws {
        let records: [JournalRecord] = [
            .action(model: "café.modèle", source: .typed, text: "\u{301}accent first"),
            .action(model: "m.m", source: .effect, text: "say \"two  spaces\" and ünïcode 🎉"),
            .action(model: "m.m", source: .script, text: "line\nbreak"),
            .goto(model: "m.é", position: 12), .skip(model: "m.m", index: 3), .unskip(model: "m.m", index: 3),
            .branch(model: "m.m", number: 2), .use(model: "ü.ü"), .reset,
        ]
        let path = try journalFile(records)
        var expected = records
        expected[2] = .action(model: "m.m", source: .script, text: "line\\nbreak")  // a line break is kept as `\n`
        #expect(try Journal.read(path).records.map(\.record) == expected)
        for damaged in ["A m.m typed", "G m.m", "A m.m nosuchsource text", "G m.m twelve", "U", "X m.m 1"] {
            #expect(JournalRecord(line: Substring(damaged)) == nil, "\(damaged)")
        }
    }

    @Test func pluginPathsWithAnyCharacterSurviveTheRoundTrip() throws {
        let paths = ["/tmp/my plugins/libX.so", "/tmp/a\"quote\\and\nnewline/libY.so", "/tmp/ünï cødé/libZ.so"]
        let path = try journalFile(paths.map { .load(plugin: $0) })
        #expect(try Journal.read(path).records.map(\.record) == paths.map { .load(plugin: $0) })
    }

    @Test func anEmptyFileIsANewJournalAndASessionIsNotOverwritten() throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))  // what mktemp leaves
        do {
            let journal = try Journal(path: path, mode: .create)
            try journal.append(.reset)
        }
        #expect(try Journal.read(path).records.map(\.record) == [.reset])
        #expect { try Journal(path: path, mode: .create) } throws: {
            ($0 as? Journal.Problem)?.message
                == "\(path) already holds a session (1 records); go on with it with --resume \(path), or name a new file"
        }
    }
}

@MainActor
@Suite("Resuming a journal")
struct JournalResumeTests {
    /// A shell writing to a new journal at `path`.
    private func journaled(_ path: String) throws -> ShellHarness {
        let shell = try ShellHarness()
        try shell.core.startJournal(at: path)
        return shell
    }

    /// A shell resumed from the journal at `path`; nil when the resume failed.
    private func resumed(_ path: String, force: Bool = false) async throws -> ShellHarness? {
        let shell = try ShellHarness(plugins: [])
        return try await shell.core.resumeJournal(from: path, force: force) == nil ? nil : shell
    }

    @Test func aJournalCutAtAnyByteResumesAndTheNextActionLandsOnARecordOfItsOwn() async throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        do {
            let shell = try journaled(path)
            _ = await shell.run("setCount 5", "increment", "setCount 40")
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        // From the end of the `U` record (the header, the load and the model come first).
        let start = whole.indices.filter { whole[$0] == 0x0A }[2] + 1
        for length in start...whole.count {
            try whole.prefix(length).write(to: URL(fileURLWithPath: path))
            let complete = try Journal.read(path).records.count
            do {
                let shell = try #require(try await resumed(path), "cut at \(length)")
                _ = await shell.run("increment")
            }
            let again = try #require(try await resumed(path), "cut at \(length), resumed twice")
            let log = await again.run(":log 1")
            #expect(log.first { !$0.hasPrefix("…") }?.hasSuffix("increment") == true, "cut at \(length): \(log)")
            #expect(try Journal.read(path).records.count == complete + 1, "cut at \(length)")
            #expect(try Journal.read(path).warning == nil, "cut at \(length)")
        }
    }

    @Test func aFragmentAtTheEndIsCutOffAndLaterActionsStay() async throws {
        let path = try Fixtures.directory().appendingPathComponent("j").path
        do { _ = try await journaled(path).run("setCount 5", "increment") }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("1234abcd A counter.coun".utf8))
        try handle.close()
        do { _ = try await #require(try await resumed(path)).run("increment") }
        do { _ = try await #require(try await resumed(path)).run("increment") }
        #expect(try await #require(try await resumed(path)).run(":state count") == ["8"])
    }

    @Test func anActionTheModelNoLongerHasNamesTheJournalLineAndForceLeavesItOut() async throws {
        let path = try journalFile([
            .load(plugin: "Counter"), .use(model: "counter.counter"),
            .action(model: "counter.counter", source: .typed, text: "increment"),
            .action(model: "counter.counter", source: .typed, text: "bump by: 2"),
            .action(model: "counter.counter", source: .typed, text: "increment"),
        ])
        let shell = try ShellHarness(plugins: [])
        #expect(try await shell.core.resumeJournal(from: path) == nil)
        let error = shell.outputs.flatMap(shell.formatter.lines(for:)).joined()
        #expect(error.contains("\(path):5: error: counter.counter does not accept 'bump by: 2' any more"), "\(error)")
        #expect(error.contains("--force leaves such actions out"))
        let forced = try ShellHarness(plugins: [])
        let outcome = try await forced.core.resumeJournal(from: path, force: true)
        #expect(outcome?.skipped == 1)
        #expect(await forced.run(":state count") == ["2"])
    }

    /// Within one process the newest session of a journal is its writer: the older one,
    /// not yet released, is shut out rather than left to write beside it.
    @Test func aSecondSessionInOneProcessTakesTheJournalOverAndTheFirstStopsWriting() async throws {
        let path = try Fixtures.directory().appendingPathComponent("shared").path
        let first = try journaled(path)
        _ = await first.run("setCount 5")
        let second = try #require(try await resumed(path))
        _ = await second.run("increment")
        let refused = await first.run("increment")
        #expect(
            refused.contains {
                $0.contains("journal \(path) is closed: another session of this storesh went on with it")
            }, "\(refused)")
        #expect(await first.run(":state count") == ["5"], "what the journal refused was not done")
        let records = try Journal.read(path).records.map(\.record.line)
        #expect(
            records.suffix(2) == ["A counter.counter script setCount 5", "A counter.counter script increment"],
            "\(records)")
    }

    @Test func continuingInANewFileCopiesTheSessionAndLeavesTheOldOne() async throws {
        let directory = try Fixtures.directory()
        let old = directory.appendingPathComponent("old").path
        let new = directory.appendingPathComponent("new").path
        do { _ = try await journaled(old).run("setCount 5") }
        let before = try Data(contentsOf: URL(fileURLWithPath: old))
        do {
            // Ended before `new` is resumed: a journal has one writer at a time.
            let shell = try ShellHarness(plugins: [])
            _ = try await shell.core.resumeJournal(from: old, continuingIn: new)
            _ = await shell.run("increment")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == before)
        #expect(try await #require(try await resumed(new)).run(":state count") == ["6"])
    }

    @Test func aPluginPathWithSpacesResumes() async throws {
        let directory = try Fixtures.directory().appendingPathComponent("my plugins")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let library = directory.appendingPathComponent("libCCounter.so").path
        try FileManager.default.copyItem(atPath: buildDirectory + "/libStoreshExampleCCounter.so", toPath: library)
        let path = directory.appendingPathComponent("journal").path
        do {
            let shell = try ShellHarness(plugins: [])
            try shell.core.startJournal(at: path)
            #expect(
                await shell.run(":load \(Value.quoted(library))", "setCount 3", "increment").last == "  ~ count: 3 → 4")
        }
        let again = try #require(try await resumed(path))
        #expect(await again.run(":state count") == ["4"])
    }
}
