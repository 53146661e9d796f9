import Foundation
import Testing

/// `storesh explore` on the classic buggy models (plugins/Classics), each in its plain
/// form with its property stated on the command line: one seed each, within a step
/// budget, found, shrunk to the known least run, and handed back as a transcript that
/// fails against the model with the bug and passes against the same model fixed
/// (`storesh test --substitute`) — also where the fix changes the states before the
/// failure (the jugs, the registry) — with the same bytes in a worker and in process.
/// The 5-seed, 60-second run of all eight is scripts/explore-acceptance.
@Suite(.serialized) struct ExploreClassicsTests {
    struct Classic: Sendable, CustomStringConvertible {
        let model: String
        let property: [String]
        /// The fewest steps that show the bug.
        let minimal: Int
        /// A seed that finds it within the budget.
        let seed: Int
        var description: String { model }
    }

    static let classics = [
        Classic(model: "jugs", property: ["--invariant", "big != 4"], minimal: 6, seed: 1),
        Classic(model: "buffer", property: ["--invariant", "size == count(contents)"], minimal: 3, seed: 1),
        Classic(
            model: "registry", property: ["--after", "kill", "!contains(registry[*], args.pid)"], minimal: 6, seed: 1),
        Classic(model: "heap", property: ["--after", "pop", "popped == old(min(items))"], minimal: 6, seed: 1),
        Classic(
            model: "kv", property: ["--after", "get", "found != null || !contains(keydir, args.key)"], minimal: 4,
            seed: 1),
        Classic(
            model: "overflow", property: ["--after", "add", "!accepted || total == old(total) + args.amount"],
            minimal: 2, seed: 1),
        Classic(model: "escaping", property: ["--after", "saveAndReload", "text == old(text)"], minimal: 2, seed: 1),
    ]

    static func explore(_ classic: Classic, out: String, inProcess: Bool = false) throws -> Run {
        try storesh(
            [
                "explore", "--plugin", "Classics", "--model", "classics." + classic.model, "--seed",
                String(classic.seed), "--runs", "3000", "--steps", "40", "--more-failures", "4", "--out", out,
            ] + classic.property + (inProcess ? ["--in-process"] : ["--no-search-worker"]))
    }

    @Test(arguments: classics)
    func aClassicBugIsFoundShrunkToItsLeastRunAndPinned(_ classic: Classic) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-classics-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/\(classic.model).transcript"
        let found = try Self.explore(classic, out: transcript)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let shrunk = found.stdout.split(separator: "\n").first { $0.hasPrefix("shrunk to ") }
            .flatMap { Int($0.split(separator: " ")[2]) }
        #expect(shrunk == classic.minimal, "\(found.stdout)")
        let file = try Data(contentsOf: URL(fileURLWithPath: transcript))
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "fails while the bug is there: \(buggy.stdout)")
        let fixed = try storesh([
            "test", "--substitute", "classics.\(classic.model)=classics.\(classic.model)Fixed", transcript,
        ])
        #expect(
            fixed.status == 0,
            "passes once it is fixed: \(fixed.stdout)\(fixed.stderr)\n\(String(decoding: file, as: UTF8.self))")
        let inProcess = try Self.explore(classic, out: transcript, inProcess: true)
        #expect(inProcess.stdout == found.stdout, "the same search in process")
        #expect(try Data(contentsOf: URL(fileURLWithPath: transcript)) == file, "the same transcript in process")
    }

    /// `--against`: the registry sent step for step to its fixed build finds the bug with no
    /// property, shrunk to the least run that differs (4 steps), pinned by `:compare` so the
    /// transcript fails on the buggy build and passes on the fixed one — the same bytes in a
    /// worker and in process.
    @Test func theRegistryAgainstItsFixedBuildDiffersInFourSteps() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-classics-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/registry.transcript"
        let classic = Classic(
            model: "registry", property: ["--against", "Classics:classics.registryFixed"], minimal: 4, seed: 1)
        let found = try Self.explore(classic, out: transcript)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("failure: differs from classics.registryFixed: alive"), "\(found.stdout)")
        #expect(found.stdout.contains("shrunk to 4 steps"), "\(found.stdout)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(text.contains("> :compare classics.registryFixed\n"), "\(text)")
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "fails while the bug is there: \(buggy.stdout)")
        #expect(buggy.stdout.contains("differs from classics.registryFixed"), "\(buggy.stdout)")
        let fixed = try storesh(["test", "--substitute", "classics.registry=classics.registryFixed", transcript])
        #expect(fixed.status == 0, "passes once it is fixed: \(fixed.stdout)\(fixed.stderr)\n\(text)")
        let inProcess = try Self.explore(classic, out: transcript, inProcess: true)
        #expect(inProcess.stdout == found.stdout, "the same search in process")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8) == text, "the same transcript in process")
        // Compared at a path: the failure and its pin name it.
        let counted = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.registry", "--seed", "1", "--runs", "3000",
            "--against", "Classics:classics.registryFixed", "--compare", "count(alive)", "--out",
            directory + "/counted.transcript",
        ])
        #expect(counted.status == 1, "\(counted.stdout)\(counted.stderr)")
        #expect(counted.stdout.contains(": count(alive) is "), "\(counted.stdout)")
        let countedText = try String(contentsOfFile: directory + "/counted.transcript", encoding: .utf8)
        #expect(countedText.contains("> :compare classics.registryFixed count(alive)\n"), "\(countedText)")
        let unpaired = try storesh(["explore", "--plugin", "Classics", "--compare", "alive"])
        #expect(unpaired.status == 2)
        #expect(unpaired.stderr.contains("--compare compares with the reference model: it needs --against"))
    }

    /// A postcondition the plugin declares in Swift (`PluginModel.postcondition`, the
    /// registry's "a killed process keeps no name") is checked with no flags, shrunk to
    /// the least run (6), and pinned by `:check-model NAME`: the transcript fails on the
    /// buggy build and passes on the fixed one, the same bytes in a worker and in process.
    @Test func aPostconditionInTheModelsSwiftIsFoundWithNoFlagsAndPinned() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-classics-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/registry.transcript"
        let classic = Classic(model: "registry", property: [], minimal: 6, seed: 1)
        let found = try Self.explore(classic, out: transcript)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(
            found.stdout.contains(
                "failure: the model's postcondition \"a killed process keeps no name\" is broken"), "\(found.stdout)")
        #expect(found.stdout.contains("shrunk to 6 steps"), "\(found.stdout)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(text.contains("> :check-model \"a killed process keeps no name\"\n"), "\(text)")
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "fails while the bug is there: \(buggy.stdout)")
        #expect(buggy.stdout.contains("\"a killed process keeps no name\" is broken"), "\(buggy.stdout)")
        let fixed = try storesh(["test", "--substitute", "classics.registry=classics.registryFixed", transcript])
        #expect(fixed.status == 0, "passes once it is fixed: \(fixed.stdout)\(fixed.stderr)\n\(text)")
        let inProcess = try Self.explore(classic, out: transcript, inProcess: true)
        #expect(inProcess.stdout == found.stdout, "the same search in process")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8) == text, "the same transcript in process")
        let json = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.registry", "--seed", "1", "--runs", "3000",
            "--format", "json", "--out", directory + "/json.transcript",
        ])
        let record = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let failure = record?["failure"] as? [String: Any]
        #expect(failure?["kind"] as? String == "check", "\(json.stdout)")
        #expect(failure?["check"] as? String == "a killed process keeps no name", "\(json.stdout)")
        #expect(failure?["checkKind"] as? String == "postcondition", "\(json.stdout)")
    }

    /// A plugin whose path has a space is loaded by the transcript explore writes: its
    /// `:load` quotes the path (it was written bare, and `storesh test` read two words).
    @Test func aPluginPathWithASpaceIsQuotedInTheTranscript() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh classics \(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let library = directory + "/my plugins/libClassics.so"
        try FileManager.default.createDirectory(
            atPath: directory + "/my plugins", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: storeshBinary).deletingLastPathComponent().path
                + "/libStoreshExampleClassics.so", toPath: library)
        let transcript = directory + "/out/heap.transcript"
        try FileManager.default.createDirectory(atPath: directory + "/out", withIntermediateDirectories: true)
        let found = try storesh([
            "explore", "--plugin", library, "--model", "classics.heap", "--seed", "1", "--runs", "3000", "--after",
            "pop", "popped == old(min(items))", "--out", transcript,
        ])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(text.contains("> :load \"../my plugins/libClassics.so\"\n"), "\(text)")
        let buggy = try storesh(["test", transcript])
        #expect(buggy.status == 1, "\(buggy.stdout)\(buggy.stderr)")
        #expect(buggy.stdout.contains("check failed: "), "the check fails, not the load: \(buggy.stdout)")
        let fixed = try storesh(["test", "--substitute", "classics.heap=classics.heapFixed", transcript])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)\n\(text)")
    }

    /// `--exhaustive`: breadth first over every sequence, the jugs' six-step way is found as
    /// the shortest (not shrunk: none shorter fails), pinned so the transcript fails on the
    /// buggy build and passes on the fixed one; the fixed build is proved (every reachable
    /// state searched); the same bytes in a worker and in process.
    @Test func anExhaustiveSearchFindsTheShortestRunAndProvesTheFixedBuild() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-classics-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/jugs.transcript"
        let arguments = [
            "explore", "--plugin", "Classics", "--model", "classics.jugs", "--invariant", "big != 4", "--seed", "1",
            "--exhaustive", "--out", transcript,
        ]
        let found = try storesh(arguments + ["--no-search-worker"])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(
            found.stdout.contains("explore classics.jugs: seed 1, every sequence up to depth 6\n"), "\(found.stdout)")
        #expect(
            found.stdout.contains("the shortest run, 6 steps (breadth first: none shorter fails):"), "\(found.stdout)")
        let steps = found.stdout.split(separator: "\n").filter { $0.hasPrefix("   ") && !$0.hasPrefix("    ") }
            .map { $0.split(separator: " ")[1] }
        #expect(
            steps == ["fillBig", "bigToSmall", "emptySmall", "bigToSmall", "fillBig", "bigToSmall"], "\(found.stdout)")
        let text = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(try storesh(["test", transcript]).status == 1)
        let fixed = try storesh(["test", "--substitute", "classics.jugs=classics.jugsFixed", transcript])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)\n\(text)")
        let inProcess = try storesh(arguments + ["--in-process"])
        #expect(inProcess.stdout == found.stdout, "the same search in process")
        #expect(try String(contentsOfFile: transcript, encoding: .utf8) == text)

        let proof = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.jugsFixed", "--invariant", "big != 4", "--seed",
            "1",
            "--exhaustive", "--depth", "12",
        ])
        #expect(proof.status == 0, "\(proof.stdout)\(proof.stderr)")
        #expect(
            proof.stdout.contains(
                "no failure: searched every reachable state (6 states kept, 108 bytes); no sequence of any length fails, within the argument domains"
            ),
            "\(proof.stdout)")
        let bounded = try storesh([
            "explore", "--plugin", "Classics", "--model", "classics.registryFixed", "--seed", "1", "--exhaustive",
            "--depth", "5", "--state-limit", "20", "--format", "json",
        ])
        #expect(bounded.status == 0, "\(bounded.stdout)\(bounded.stderr)")
        let record = try JSONSerialization.jsonObject(with: Data(bounded.stdout.utf8)) as? [String: Any]
        let summary = record?["exhaustive"] as? [String: Any]
        #expect(summary?["end"] as? String == "stateLimit", "\(bounded.stdout)")
        #expect(record?["distinctStates"] as? Int == 20, "\(bounded.stdout)")
        let unpaired = try storesh(["explore", "--plugin", "Classics", "--depth", "3"])
        #expect(unpaired.status == 2)
        #expect(
            unpaired.stderr.contains("--depth and --state-limit bound an exhaustive search: they need --exhaustive"))
    }

    /// A substitute that names no model is an error saying which, before anything runs
    /// against the wrong model; a malformed one is a usage error.
    @Test func aSubstituteMustNameAModel() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-classics-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transcript = directory + "/heap.transcript"
        try "> :load Classics\n(output not compared)\n> :use classics.heap\n> push 1\n(output not compared)\n".write(
            toFile: transcript, atomically: true, encoding: .utf8)
        #expect(try storesh(["test", transcript]).status == 0)
        let unknown = try storesh(["test", "--substitute", "classics.heap=classics.heep", transcript])
        #expect(unknown.status == 1)
        #expect(
            unknown.stdout.contains("classics.heap is to run as classics.heep (--substitute): "), "\(unknown.stdout)")
        let malformed = try storesh(["test", "--substitute", "classics.heap", transcript])
        #expect(malformed.status == 2)
        #expect(
            malformed.stderr.contains("--substitute takes MODEL=OTHER (two model names), not 'classics.heap'"),
            "\(malformed.stderr)")
    }
}
