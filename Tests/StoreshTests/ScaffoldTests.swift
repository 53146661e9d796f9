import Foundation
import Testing

/// `storesh new`: a plugin package that builds and whose transcript passes as made. The
/// Swift scaffold's build (minutes: it builds storesh's dependencies afresh) is checked by
/// scripts/test; the C one builds here in a second.
@Suite("storesh new")
struct ScaffoldTests {
    /// The checkout these tests run in (storesh's own sources, for --local and the C template).
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func freshPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("storesh-new-\(UUID())").appendingPathComponent(
            name
        ).path
    }

    /// Issue 51: the C template was 160 lines, most of them glue written against
    /// storeplugin.h. It declares its glue with storeplugin_model.h now, in at most 30 lines,
    /// for a model with an int, a string, an enum parameter and keyed child actions, and its
    /// transcript (which refuses a value no case has) passes.
    @Test func aCPluginBuildsWithItsMakefileAndPassesItsTranscript() throws {
        let path = freshPath("Gadget")
        let made = try storesh(["new", "Gadget", "--c", "--path", path, "--local", checkout])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("make -C \(path)"))
        let source = try String(contentsOfFile: path + "/gadget.c", encoding: .utf8)
        #expect(source.contains("#include \"storeplugin_model.h\""))
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let glue = try #require(lines.firstIndex(of: "/* glue */"))
        let end = try #require(lines.firstIndex(of: "/* end of glue */"))
        #expect(end - glue - 1 <= 30, "\(end - glue - 1) lines of glue")
        for kind in [#""int""#, #""string""#, "SPM_CHOICE(", #""items[].toggle""#] {
            #expect(source.contains(kind), "the model shows \(kind)")
        }
        let transcript = try String(contentsOfFile: path + "/Gadget.transcript", encoding: .utf8)
        #expect(transcript.contains(#"error: add: size: "huge" is not one of "small", "large""#))
        let include = try storesh(["--include-dir"])
        #expect(
            FileManager.default.fileExists(
                atPath: include.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/storeplugin.h"))
        // The toolchain's clang: a Swift toolchain always has it, a fresh machine may have no cc.
        let build = try run(
            "/usr/bin/env", ["make", "-C", path, "CC=clang", "STORESH=\(storeshBinary)"], input: Data())
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let test = try storesh(["test", "--plugin-path", path, path + "/Gadget.transcript"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("1 passed, 0 failed"))
        // The count a newcomer starts from does not overflow (undefined in C): refused there.
        let largest = try storesh([
            "--plugin-path", path, "--plugin", "Gadget", "-c", "setCount 9223372036854775807", "-c", "increment",
            "-c", ":expect count == 9223372036854775807",
        ])
        #expect(largest.stderr.contains("the count is at its largest"), "\(largest.stdout)\(largest.stderr)")
        #expect(!largest.stderr.contains("expected"), "\(largest.stderr)")
        // Its coverage build, in a folder of its own, guides explore by the code runs take.
        let readme = try String(contentsOfFile: path + "/README.md", encoding: .utf8)
        #expect(readme.contains("`make coverage/libGadget.so`"), "\(readme)")
        let coverage = try run(
            "/usr/bin/env", ["make", "-C", path, "coverage/libGadget.so", "STORESH=\(storeshBinary)"], input: Data())
        #expect(coverage.status == 0, "\(coverage.stdout)\(coverage.stderr)")
        let explored = try storesh([
            "explore", "--plugin-path", path + "/coverage", "--plugin", "Gadget", "--invariant", "true", "--seed", "1",
            "--runs", "20", "--format", "json", "--out", path + "/found.transcript",
        ])
        let report = try JSONSerialization.jsonObject(with: Data(explored.stdout.utf8)) as? [String: Any]
        let guidance = report?["guidance"] as? [String: Any]
        #expect((guidance?["edges"] as? Int ?? 0) > 0, "\(explored.stdout)\(explored.stderr)")
    }

    @Test func theSwiftPackageDependsOnTheCheckoutWithTheRightProducts() throws {
        let path = freshPath("Widget")
        let made = try storesh(["new", "Widget", "--path", path, "--local", checkout])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOfFile: path + "/Package.swift", encoding: .utf8)
        #expect(
            manifest.contains(
                ".package(path: \"\(URL(fileURLWithPath: checkout).standardizedFileURL.path)\", traits: [\"PrebuiltMacros\"])"
            ), "\(manifest)")
        let identity = URL(fileURLWithPath: checkout).standardizedFileURL.lastPathComponent
        #expect(
            manifest.contains(".product(name: \"StorePlugin\", package: \"\(identity)\")"),
            "SwiftPM names a path dependency by its folder")
        #expect(manifest.contains(#".library(name: "Widget", type: .dynamic, targets: ["Widget"])"#))
        // The Coverage trait builds the model's own code for coverage (swift build --traits
        // Coverage --scratch-path .build/coverage; its edges guide explore).
        #expect(manifest.contains(#".trait("#) && manifest.contains(#"name: "Coverage""#), "\(manifest)")
        #expect(
            manifest.contains(
                #"swiftSettings: [.unsafeFlags(["-sanitize=fuzzer", "-sanitize-coverage=edge,trace-pc-guard"], .when(platforms: [.linux], traits: ["Coverage"]))]"#
            ), "\(manifest)")
        let readme = try String(contentsOfFile: path + "/README.md", encoding: .utf8)
        #expect(readme.contains("`swift build --traits Coverage --scratch-path .build/coverage`"), "\(readme)")
        let source = try String(contentsOfFile: path + "/Sources/Widget/Widget.swift", encoding: .utf8)
        #expect(source.contains("@PluginActions"))
        let byURL = try storesh([
            "new", "Widget", "--path", freshPath("Widget"), "--url", "https://example.com/storesh.git", "--url-version",
            "1.2.0",
        ])
        #expect(byURL.status == 0, "\(byURL.stderr)")
    }

    /// A scaffold's first build took 3 minutes, most of it swift-syntax for the macros. On a
    /// checkout whose build made the macro tool (this one: the tests run on its build), the
    /// package takes the tool (the PrebuiltMacros trait) and says so; by URL, or on a
    /// checkout never built, it builds the macros and says that the first build takes
    /// minutes more. Either way it names its traits, so the shell's dependencies stay out.
    @Test func aPackageOnABuiltCheckoutTakesItsPrebuiltMacros() throws {
        let path = freshPath("Quick")
        let made = try storesh(["new", "Quick", "--path", path, "--local", checkout])
        #expect(made.status == 0, "\(made.stderr)")
        let tool = URL(fileURLWithPath: checkout).standardizedFileURL.path + "/.build/debug/StorePluginMacros-tool"
        #expect(FileManager.default.isExecutableFile(atPath: tool), "the tests run on a build that made the macro tool")
        #expect(
            made.stdout.contains("(its macros come prebuilt: \(tool), so its first build compiles no swift-syntax)\n"),
            "\(made.stdout)")
        #expect(
            try String(contentsOfFile: path + "/Package.swift", encoding: .utf8).contains(
                #"traits: ["PrebuiltMacros"]),"#))

        let unbuilt = freshPath("checkout")
        try FileManager.default.createDirectory(atPath: unbuilt, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: checkout + "/Package.swift", toPath: unbuilt + "/Package.swift")
        let slow = freshPath("Slow")
        let fromSource = try storesh(["new", "Slow", "--path", slow, "--local", unbuilt])
        #expect(fromSource.status == 0, "\(fromSource.stderr)")
        #expect(
            fromSource.stdout.contains("(its first build also compiles swift-syntax for the macros: minutes more)\n"),
            "\(fromSource.stdout)")
        let manifest = try String(contentsOfFile: slow + "/Package.swift", encoding: .utf8)
        #expect(
            manifest.contains(
                ".package(path: \"\(URL(fileURLWithPath: unbuilt).standardizedFileURL.path)\", traits: [\"MacrosFromSource\"]),"
            ), "\(manifest)")

        let remote = freshPath("Remote")
        let byURL = try storesh([
            "new", "Remote", "--path", remote, "--url", "https://example.com/storesh.git", "--url-version", "1.2.0",
        ])
        #expect(byURL.stdout.contains("minutes more"), "\(byURL.stdout)")
        let remoteManifest = try String(contentsOfFile: remote + "/Package.swift", encoding: .utf8)
        #expect(
            remoteManifest.contains(
                #".package(url: "https://example.com/storesh.git", from: "1.2.0", traits: ["MacrosFromSource"]),"#),
            "\(remoteManifest)")
    }

    @Test func badNamesAndTakenPathsAreRefusedWithWhy() throws {
        let bad = try storesh(["new", "9lives"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'9lives' is not a plugin name"), "\(bad.stderr)")
        let path = freshPath("Twice")
        #expect(try storesh(["new", "Twice", "--c", "--path", path, "--local", checkout]).status == 0)
        let again = try storesh(["new", "Twice", "--c", "--path", path, "--local", checkout])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already exists"), "\(again.stderr)")
        let notACheckout = try storesh(["new", "Lost", "--path", freshPath("Lost"), "--local", "/tmp"])
        #expect(notACheckout.status == 1)
        #expect(notACheckout.stderr.contains("is not a storesh checkout"), "\(notACheckout.stderr)")
        let unwritable = try storesh(["new", "Blocked", "--c", "--path", "/dev/null/Blocked", "--local", checkout])
        #expect(unwritable.status == 1)
        #expect(
            unwritable.stderr.hasPrefix("storesh new: cannot write the package in /dev/null/Blocked: "),
            "\(unwritable.stderr)")
        #expect(
            unwritable.stderr.hasSuffix(": Not a directory\n"),
            "the system's reason, not Foundation's dump: \(unwritable.stderr)")
    }

    /// The identifiers of Swift code, without its comments and string literals.
    private func identifiers(in code: String) -> Set<String> {
        let bare = code.split(separator: "\n").map { line in
            line.replacing(/\/\/.*$/, with: "").replacing(/"([^"\\]|\\.)*"/, with: "")
        }.joined(separator: " ")
        return Set(bare.matches(of: /[A-Za-z][A-Za-z0-9_]*/).map { String($0.output) })
    }

    /// `storesh new class` made a package that did not build (`struct class`), and so did
    /// `Update` (it hid the `Update` the model's `update` returns): every name the Swift
    /// template's code uses, and Swift's keywords, are refused before anything is written.
    @Test func namesThatWouldNotBuildAreRefusedForASwiftPlugin() throws {
        let path = freshPath("Zq")
        #expect(try storesh(["new", "Zq", "--path", path, "--local", checkout]).status == 0)
        let code =
            try String(contentsOfFile: path + "/Package.swift", encoding: .utf8) + "\n"
            + String(contentsOfFile: path + "/Sources/Zq/Zq.swift", encoding: .utf8)
        let used = identifiers(in: code).subtracting(["Zq", "zqModel"])
        #expect(used.contains("Update") && used.contains("PluginModel") && used.count > 40, "\(used.sorted())")
        // storesh's own targets, from its Package.swift: `storesh new Counter` made a package
        // SwiftPM refused ("multiple packages declare targets with a conflicting name").
        let manifest = try String(contentsOfFile: checkout + "/Package.swift", encoding: .utf8)
        let targets = manifest.matches(
            of: /\.(?:target|executableTarget|testTarget|macro|systemLibrary)\(\s*name:\s*"([A-Za-z][A-Za-z0-9]*)"/
        ).map { String($0.output.1) }
        #expect(
            targets.contains("StoreshExampleCounter") && targets.contains("StoreValue") && targets.count > 25,
            "\(targets)")
        // A lowercase name is made a type name first (`count` → `Count`), so the names to
        // refuse are the ones with a capital.
        let typeNames = used.filter { $0.first!.isUppercase }
        for name in typeNames.sorted() + targets.filter({ $0.first!.isUppercase }) + [
            "Protocol", "Self", "Error", "String", "OpenCombine", "ArgumentParser", "action", "update",
        ] {
            let refused = try storesh(["new", name, "--path", freshPath(name), "--local", checkout])
            #expect(refused.status == 2, "\(name) was taken: \(refused.stdout)")
            #expect(
                refused.stderr.contains("the package made for it would not build; choose another name"),
                "\(name): \(refused.stderr)")
        }
        let plainC = try storesh(["new", "Update", "--c", "--path", freshPath("Update"), "--local", checkout])
        #expect(plainC.status == 0, "the C template uses the name only in text: \(plainC.stderr)")
    }

    /// `storesh new Todos` (and Counter, Cart, Auth: the names every tutorial uses) was
    /// refused, because storesh's examples took those target names; `storesh new library`
    /// was refused with a message about names the code uses. The examples are
    /// `StoreshExample…` now, and a lowercase name is made a type name.
    @Test func theNamesTutorialsUseAndLowercaseNamesMakeAPlugin() throws {
        for name in ["Todos", "Counter", "Cart", "Auth", "Composite", "CCounter", "Faulty"] {
            let path = freshPath(name)
            let made = try storesh(["new", name, "--path", path, "--local", checkout])
            #expect(made.status == 0, "\(name): \(made.stderr)")
            let manifest = try String(contentsOfFile: path + "/Package.swift", encoding: .utf8)
            #expect(
                manifest.contains(".library(name: \"\(name)\", type: .dynamic, targets: [\"\(name)\"])"), "\(manifest)")
        }
        let path = freshPath("library")
        let lowercase = try storesh(["new", "library", "--path", path, "--local", checkout])
        #expect(lowercase.status == 0, "\(lowercase.stderr)")
        #expect(
            lowercase.stdout.hasPrefix("'library' is not a type name: the plugin is Library, its model 'library'\n"),
            "\(lowercase.stdout)")
        let source = try String(contentsOfFile: path + "/Sources/Library/Library.swift", encoding: .utf8)
        #expect(source.contains("struct Library: ModelProtocol"))
        #expect(source.contains("PluginModel.observable(\"library\""))
        let taken = try storesh(["new", "action", "--path", freshPath("action"), "--local", checkout])
        #expect(taken.status == 2)
        #expect(
            taken.stderr.contains(
                "'Action' is a name the new plugin's code already uses ('action' names the Swift type Action)"),
            "\(taken.stderr)")
        let example = try storesh(["new", "StoreshExampleShop", "--path", freshPath("Shop"), "--local", checkout])
        #expect(example.status == 2)
        #expect(example.stderr.contains("which names storesh's example plugins"), "\(example.stderr)")
    }

    /// With no storesh on the PATH, `storesh new` printed "try it: storesh …": command not
    /// found. Every command it prints runs as printed: this storesh by its path, and the
    /// transcript loads its plugin relative to itself, so `test it` needs no flags.
    @Test func thePrintedCommandsNameThisStoreshWhenThePathHasNone() throws {
        let path = freshPath("Gizmo")
        let bare = try storesh(
            ["new", "Gizmo", "--c", "--path", path, "--local", checkout], environment: ["PATH": "/usr/bin:/bin"])
        #expect(bare.status == 0, "\(bare.stderr)")
        let program = URL(fileURLWithPath: storeshBinary).resolvingSymlinksInPath().path
        #expect(bare.stdout.contains("try it:    \(program) --plugin-path \(path) --plugin Gizmo\n"), "\(bare.stdout)")
        #expect(bare.stdout.contains("test it:   \(program) test \(path)/Gizmo.transcript\n"), "\(bare.stdout)")
        #expect(bare.stdout.contains("storesh is not on your PATH"))
        let makefile = try String(contentsOfFile: path + "/Makefile", encoding: .utf8)
        #expect(
            makefile.contains("STORESH ?= \(program)\n"),
            "make -C DIR ran 'storesh --include-dir', not found: \(makefile)")
        let transcript = try String(contentsOfFile: path + "/Gizmo.transcript", encoding: .utf8)
        #expect(transcript.contains("> :load libGizmo.so\n"), "\(transcript)")
        // Built as printed, with no storesh on the PATH, and tested from another folder.
        let build = try run("/usr/bin/make", ["-C", path], input: Data(), environment: ["PATH": "/usr/bin:/bin"])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let test = try run(
            program, ["test", path + "/Gizmo.transcript"], input: Data(), environment: ["PATH": "/usr/bin:/bin"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        // On the PATH (a link to it, as scripts/install makes), it is plain storesh.
        let bin = freshPath("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/storesh", withDestinationPath: program)
        let onPath = try storesh(
            ["new", "Gizmo", "--c", "--path", freshPath("Gizmo"), "--local", checkout],
            environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(onPath.stdout.contains("try it:    storesh --plugin-path "), "\(onPath.stdout)")
        #expect(!onPath.stdout.contains("not on your PATH"))
    }
}
