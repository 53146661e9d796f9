import Foundation
import Testing

/// `storesh new NAME --from PATH…`: a plugin package around an app's model files, which stay
/// as the app has them (no Codable, no attribute, no entry points), built with the glue
/// StoreshGlue writes, loaded, and held to a transcript.
@Suite("storesh new --from")
struct NewFromTests {
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    var fixtures: String { checkout + "/Tests/GlueFixtures" }

    /// The package is made afresh, always at the same path under the checkout's .build, and
    /// its build folder is kept between runs: only the first run builds the store libraries
    /// (about a minute, with no swift-syntax: the checkout's prebuilt macros and glue
    /// generator), later runs the models alone. (One build folder shared by packages at
    /// different paths breaks: clang's module cache names the package's path.)
    @Test func anAppsModelFilesUnchangedBuildLoadAndPassATranscript() throws {
        let path = checkout + "/.build/storesh-new-from/AppModels"
        let scratch = checkout + "/.build/storesh-new-from/build"
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        // The glue fixtures and the app model files the library's tests compile: a toast stack
        // with UUIDs and curves, a form with generic fields behind cursors and a validator
        // closure, a debounced search merging two sources, a keyed list of child models.
        let appFiles = checkout + "/Tests/ObservableStoreTests/AppModelFiles"
        let made = try storesh([
            "new", "AppModels", "--path", path, "--local", checkout, "--from", fixtures + "/AppModels", appFiles,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(
            made.stdout.contains(
                "models: SignupForm, ToastStack, ListModel, SearchModel, ToastStackModel (one line each in Sources/AppModels/Models.swift)"
            ), "\(made.stdout)")
        #expect(made.stdout.contains("child models, reached through a cursor and shown in their parent: RowModel"))
        let models = try String(contentsOfFile: path + "/Sources/AppModels/Models.swift", encoding: .utf8)
        #expect(
            models.contains(
                """
                let signupForm = PluginModel.observable(SignupForm.self, environment: { _ in })
                let toastStack = PluginModel.observable(ToastStack.self, environment: { _ in })
                let listModel = PluginModel.observable(ListModel.self, environment: { _ in })
                let searchModel = PluginModel.observable(SearchModel.self, environment: { _ in .init() })
                let toastStackModel = PluginModel.observable(ToastStackModel.self, environment: { _ in .init() })
                """), "\(models)")
        for file in ["FormField.swift", "SignupForm.swift", "Toasts.swift"] {
            let linked = try FileManager.default.destinationOfSymbolicLink(atPath: path + "/Sources/AppModels/" + file)
            #expect(linked == fixtures + "/AppModels/" + file, "the app's file itself, unchanged")
        }
        for file in ["KeyedList.swift", "Search.swift", "ToastStack.swift"] {
            let linked = try FileManager.default.destinationOfSymbolicLink(atPath: path + "/Sources/AppModels/" + file)
            #expect(linked == appFiles + "/" + file, "the app's file itself, unchanged")
        }
        let manifest = try String(contentsOfFile: path + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(#"plugins: [.plugin(name: "StoreshGlue", package: "#), "\(manifest)")

        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path + "/.build", withDestinationPath: scratch)
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", path], input: Data())
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        #expect(!build.stdout.contains("Compiling SwiftSyntax"), "the generator and the macros come prebuilt")

        let own = try storesh(["test", path + "/AppModels.transcript"])
        #expect(own.status == 0, "the transcript storesh new wrote: \(own.stdout)\(own.stderr)")
        let transcript = try storesh(["test", "--plugin-path", scratch + "/debug", fixtures + "/app-models.transcript"])
        #expect(transcript.status == 0, "\(transcript.stdout)\(transcript.stderr)")
        #expect(transcript.stdout.contains("1 passed, 0 failed"))
    }

    @Test func pathsWithNoModelAndMissingPathsAreRefusedWithWhy() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-new-from-\(UUID())").path
        let missing = try storesh([
            "new", "Nothing", "--path", base + "/a", "--local", checkout, "--from", base + "/nope",
        ])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("--from \(base)/nope: no such file or folder"), "\(missing.stderr)")
        let plain = try temporaryFile("Plain.swift", "struct Plain { var x = 0 }\n")
        let none = try storesh(["new", "Nothing", "--path", base + "/b", "--local", checkout, "--from", plain])
        #expect(none.status == 1)
        #expect(none.stderr.contains("--from: no type conforming to ModelProtocol in"), "\(none.stderr)")
        let version = try storesh([
            "new", "Remote", "--path", base + "/c", "--url", "https://example.com/s.git", "--from", "1.2.0",
        ])
        #expect(version.status == 2)
        #expect(version.stderr.contains("--from takes model files; the version of --url is --url-version 1.2.0"))
    }

    @Test func modelsAreFoundByTheirConformanceNotByTheirName() {
        let found = modelsFound(
            """
            struct Plain {}
            public struct Feed: Equatable, ModelProtocol {
            struct Generic<T>: ModelProtocol {
            final class Reference: ModelProtocol {
            // struct Commented: ModelProtocol {
            extension Later: ModelProtocol {}
            static func update(state: Feed, action: Action, environment: Void) -> Update<Feed> {
            """)
        #expect(found == ["Feed", "Reference", "Later"])
    }

    @Test func aChildModelAloneIsRefusedWithWhatToAdd() throws {
        let child = try temporaryFile(
            "Row-\(UUID()).swift",
            """
            struct Row: ModelProtocol { var id: String }
            struct RowCursor: KeyedCursorProtocol {
                static func get(state: Parent, key: String) -> Row? { nil }
            }
            """)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-new-from-\(UUID())").path
        let made = try storesh(["new", "Rows", "--path", base + "/Rows", "--local", checkout, "--from", child])
        #expect(made.status == 1)
        #expect(
            made.stderr.contains("--from: Row is a child model reached through a cursor, and no parent model is in"),
            "\(made.stderr)")
    }
}

/// The scaffold's model finder, run through the binary (the tests do not link storesh).
private func modelsFound(_ text: String) -> [String] {
    guard let file = try? temporaryFile("Models-\(UUID()).swift", text),
        let made = try? storesh([
            "new", "Probe", "--path",
            FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID())/Probe").path, "--from", file,
        ]),
        let line = made.stdout.split(separator: "\n").first(where: { $0.hasPrefix("models: ") })
    else { return [] }
    return line.dropFirst("models: ".count).prefix { $0 != "(" }.split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
    }
}
