import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// Two builds of one plugin side by side — the build before a refactor and the one after —
/// loaded `as` another name (`:load PATH as NAME`), in workers: what `:compare` and
/// `explore --against` the previous build need (issue 47: "a plugin named classics other
/// than the explored one: the transcript could not load both").
@MainActor
@Suite("two builds of one plugin, side by side")
struct TwoBuildsTests {
    /// A copy of an example plugin's file in a folder of its own: "the previous build".
    func previousBuild(_ file: String, in base: String? = nil) throws -> String {
        let folder = try (base ?? Fixtures.directory().path) + "/before"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: buildDirectory + "/" + file, toPath: folder + "/" + file)
        return folder + "/" + file
    }

    @Test func anotherBuildLoadsUnderAnotherNameAndIsComparedWith() async throws {
        let shell = try ShellHarness(plugins: ["Counter"], isolation: .workers)
        let old = try previousBuild("libStoreshExampleCounter.so")
        #expect(await shell.run(":load \(old)").first?.contains("already loaded from") == true)
        #expect(
            await shell.run(":load \(old) as counterBefore") == ["loaded counterBefore 1.0.0: counterBefore.counter"])
        #expect(shell.core.host.plugins.map(\.name) == ["counter", "counterBefore"])
        #expect(shell.core.host.plugins.map(\.loadedAs) == [nil, "counterBefore"])
        _ = await shell.run(":use counter.counter", "increment", "increment")
        #expect(await shell.run(":compare counterBefore.counter").isEmpty, "the two builds agree")
        #expect(await shell.run(":models").contains { $0.hasPrefix("  counterBefore.counter") })
    }

    @Test func inStoreshsOwnProcessAnotherBuildIsRefusedSayingWhy() async throws {
        let shell = try ShellHarness(plugins: ["Counter"])
        let old = try previousBuild("libStoreshExampleCounter.so")
        let refused = await shell.run(":load \(old) as counterBefore")
        #expect(
            refused.first?.contains(
                "another build of the plugin 'counter' is loaded from \(buildDirectory)/libStoreshExampleCounter.so, in storesh's own process"
            ) == true, "\(refused)")
        #expect(shell.core.host.plugins.count == 1)
        let badName = await shell.run(":load \(old) as 9lives")
        #expect(badName.first?.contains("'9lives' cannot name a plugin: a plugin's name begins with a letter") == true)
    }

    @Test func aResumedJournalLoadsTheOtherBuildUnderItsNameAgain() async throws {
        let path = try Fixtures.directory().appendingPathComponent("journal").path
        let shell = try ShellHarness(plugins: ["Counter"], isolation: .workers)
        try shell.core.startJournal(at: path)
        let old = try previousBuild("libStoreshExampleCounter.so")
        _ = await shell.run(":load \(old) as counterBefore", "increment", "increment")
        let resumed = try ShellHarness(plugins: [], isolation: .workers)
        #expect(try await resumed.core.resumeJournal(from: path) != nil)
        #expect(resumed.core.host.plugins.map(\.name) == ["counter", "counterBefore"])
        #expect(resumed.core.current?.model.qualifiedName == "counterBefore.counter")
        #expect(await resumed.run(":state count") == ["2"])
    }

    /// `:reload` starts the other build's file anew under the name it was loaded as.
    @Test func aReloadKeepsTheNameItWasLoadedAs() async throws {
        let shell = try ShellHarness(plugins: ["Counter"], isolation: .workers)
        let old = try previousBuild("libStoreshExampleCounter.so")
        _ = await shell.run(":load \(old) as counterBefore", "increment")
        let reloaded = await shell.run(":reload counterBefore")
        #expect(reloaded.first?.hasPrefix("reloaded counterBefore 1.0.0 from") == true, "\(reloaded)")
        #expect(shell.core.host.plugins.map(\.name) == ["counter", "counterBefore"])
        #expect(shell.core.host.plugins.map(\.loadedAs) == [nil, "counterBefore"])
        #expect(shell.core.current?.model.qualifiedName == "counterBefore.counter")
        #expect(await shell.run(":state count") == ["1"])
    }

    @Test func aLoadAsIsJournalledAndReadBack() {
        let record = JournalRecord.load(plugin: "/p/lib x.so", as: "shopBefore")
        #expect(record.line == #"L "/p/lib x.so" as shopBefore"#)
        #expect(JournalRecord(line: Substring(record.line)) == record)
        #expect(JournalRecord(line: #"L "/p/lib.so""#) == .load(plugin: "/p/lib.so"))
        #expect(JournalRecord(line: #"L "/p/lib.so" as 9"#) == nil, "a name no plugin can have")
        #expect(JournalRecord(line: #"L "/p/lib.so" like x"#) == nil)
    }

    /// `explore --against` the previous build of the explored plugin: the reference is
    /// loaded as `classics-reference`, and the transcript loads both and pins `:compare`.
    @Test func exploreAgainstThePreviousBuildWritesATranscriptThatLoadsBoth() async throws {
        let shell = try ShellHarness(plugins: ["Classics"], isolation: .workers)
        let folder = try Fixtures.directory().path
        shell.core.baseDirectory = folder
        let old = try previousBuild("libStoreshExampleClassics.so", in: folder)
        try shell.core.use("classics.registry")
        let output = await shell.run(
            ":explore --against \(old):classics.registryFixed --seed 1 --runs 3000 --out registry.transcript")
        #expect(output.contains { $0.contains("failure: differs from classics-reference.registryFixed") }, "\(output)")
        let text = try String(contentsOfFile: folder + "/registry.transcript", encoding: .utf8)
        #expect(text.contains("> :load before/libStoreshExampleClassics.so as classics-reference\n"), "\(text)")
        #expect(text.contains("> :compare classics-reference.registryFixed\n"), "\(text)")
        // It fails where the difference is, not at loading the two builds.
        let replayed = await TranscriptRunner.run(
            text, file: folder + "/registry.transcript", searchPath: [buildDirectory],
            setUp: { $0.isolation = .workers })
        #expect(!replayed.passed)
        #expect(
            replayed.problems.contains { $0.contains(":compare") || $0.contains("differs") }, "\(replayed.problems)")
        #expect(
            !replayed.problems.contains { $0.contains("already loaded") || $0.contains("cannot") },
            "\(replayed.problems)")
    }
}
