import Foundation
import Testing

/// `:reload` and `--watch`: a rebuilt plugin takes over the session in a new worker.
@Suite("Reloading a rebuilt plugin", .serialized)
struct ReloadTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-reload-\(UUID())").path
    var library: String { folder + "/libccounter.so" }

    /// Builds the C counter plugin (or `source`, under plugins/) into `library` with `edits`
    /// applied to its source (each text replaced by another).
    func build(_ edits: [(String, String)] = [], source: String = "CCounter/ccounter.c", into library: String? = nil)
        throws
    {
        let library = library ?? self.library
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var source = try String(contentsOf: root.appendingPathComponent("plugins/" + source), encoding: .utf8)
        for (old, new) in edits {
            #expect(source.contains(old), "the edit applies")
            source = source.replacingOccurrences(of: old, with: new)
        }
        let file = folder + "/ccounter-\(UUID()).c"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let include = root.appendingPathComponent("Sources/CStorePlugin/include").path
        let compiled = try run(
            "/usr/bin/env", ["clang", "-shared", "-fPIC", "-I", include, "-o", library + ".new", file], input: Data())
        #expect(compiled.status == 0, "\(compiled.stderr)")
        // Replaced by a rename, as a build does: the running worker keeps its copy.
        #expect(rename(library + ".new", library) == 0)
    }

    @Test func aRebuiltPluginReplaysTheHistoryAndShowsTheDiff() throws {
        try build()
        let shell = try PseudoTerminal(["--plugin", library], environment: [:])
        #expect(shell.expect("ccounter> "))
        shell.type("increment\r")
        shell.type("increment\r")
        shell.type("increment\r")
        #expect(shell.expect("count: 2 → 3"), "\(shell.transcript)")
        try build([("counter->count + 1", "counter->count + 2"), ("\"1.0.0\"", "\"2.0.0\"")])
        let mark = shell.mark
        shell.type(":reload\r")
        #expect(
            shell.expect(
                "reloaded ccounter 2.0.0 from \(library) (was 1.0.0); replayed ccounter.ccounter to 3", since: mark),
            "\(shell.transcript)")
        #expect(
            shell.expect("count: 3 → 6", since: mark), "the diff between the old and the new state: \(shell.transcript)"
        )
        shell.type("increment\r")
        #expect(shell.expect("count: 6 → 8", since: mark), "the new build handles new actions: \(shell.transcript)")
        shell.type(":log\r")
        #expect(shell.expect("at 4 of 4", since: mark), "the history is kept: \(shell.transcript)")
    }

    @Test func aBuildThatDoesNotLoadLeavesTheOldOneRunning() throws {
        try build()
        let shell = try PseudoTerminal(["--plugin", library], environment: [:])
        #expect(shell.expect("ccounter> "))
        shell.type("setCount 4\r")
        #expect(shell.expect("count: 0 → 4"))
        // a new file, as linkers write
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: library), options: .atomic)
        let mark = shell.mark
        shell.type(":reload\r")
        #expect(shell.expect("cannot reload ccounter:", since: mark), "\(shell.transcript)")
        #expect(shell.expect("the old build goes on", since: mark), "\(shell.transcript)")
        shell.type("increment\r")
        #expect(shell.expect("count: 4 → 5", since: mark), "\(shell.transcript)")
    }

    @Test func aBuildThatCrashesWhileReplayingLeavesTheOldOneRunning() throws {
        try build()
        let shell = try PseudoTerminal(["--plugin", library], environment: [:])
        #expect(shell.expect("ccounter> "))
        shell.type("increment\r")
        #expect(shell.expect("count: 0 → 1"))
        try build([("return set_count(counter, counter->count + 1, result);", "abort();")])
        let mark = shell.mark
        shell.type(":reload\r")
        #expect(
            shell.expect(
                "replaying action 1 (increment) in the new build of ccounter.ccounter failed: ccounter.ccounter crashed while replaying 'increment' (SIGABRT",
                since: mark), "\(shell.transcript)")
        shell.type("increment\r")
        #expect(shell.expect("count: 1 → 2", since: mark), "the old build goes on: \(shell.transcript)")
    }

    @Test func watchReloadsWhenTheFileChanges() throws {
        try build()
        let shell = try PseudoTerminal(["--plugin", library, "--watch"], environment: [:])
        #expect(shell.expect("ccounter> "))
        shell.type("increment\r")
        #expect(shell.expect("count: 0 → 1"))
        let mark = shell.mark
        try build([("counter->count + 1", "counter->count + 10"), ("\"1.0.0\"", "\"2.0.0\"")])
        #expect(shell.expect("reloaded ccounter 2.0.0", since: mark, timeout: 10), "\(shell.transcript)")
        #expect(shell.expect("count: 1 → 10", since: mark), "\(shell.transcript)")
    }

    /// An effect's action the model cannot read back is in no history; the notes that say
    /// so were dropped by a reload, whose replay lacks what it did as much as a rebuild's.
    @Test func aReloadKeepsTheNoteOfAnEffectActionItCannotReplay() throws {
        let greeter = folder + "/libcgreeter.so"
        let unreadable = [
            ("char *action = set_greeting_text(answer ? answer : \"\");", "char *action = strdup(\"setGreeting(\");")
        ]
        try build(unreadable, source: "CGreeter/cgreeter.c", into: greeter)
        let shell = try PseudoTerminal(["--plugin", greeter], environment: [:])
        #expect(shell.expect("cgreeter> "))
        shell.type("greetLater name: \"Ada\"\r")
        #expect(shell.expect("which its own actions cannot read back", timeout: 10), "\(shell.transcript)")
        let mark = shell.mark
        shell.type(":reload\r")
        #expect(shell.expect("replayed cgreeter.cgreeter to 1", since: mark), "\(shell.transcript)")
        #expect(
            shell.expect(
                "cgreeter.cgreeter: the state replayed in the new build lacks what an effect did after action 1: an effect applied 'setGreeting('",
                since: mark), "\(shell.transcript)")
        let log = shell.mark
        shell.type(":log\r")
        #expect(shell.expect("!       an effect applied 'setGreeting('", since: log), "\(shell.transcript)")
        #expect(shell.expect("at 1 of 1", since: log), "\(shell.transcript)")
    }
}
