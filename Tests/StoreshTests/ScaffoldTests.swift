import Foundation
import Testing

/// `storesh new`: a plugin package that builds and whose transcript passes as made. The
/// Swift scaffold's build (minutes: it builds storesh's dependencies afresh) is checked by
/// scripts/test; the C one builds here in a second.
@Suite("storesh new")
struct ScaffoldTests {
    /// The checkout these tests run in (storesh's own sources, for --local and the C template).
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func freshPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("storesh-new-\(UUID())").appendingPathComponent(name).path
    }

    @Test func aCPluginBuildsWithItsMakefileAndPassesItsTranscript() throws {
        let path = freshPath("Gadget")
        let made = try storesh(["new", "Gadget", "--c", "--path", path, "--local", checkout])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("make -C \(path)"))
        let include = try storesh(["--include-dir"])
        #expect(FileManager.default.fileExists(atPath: include.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/storeplugin.h"))
        // The toolchain's clang: a Swift toolchain always has it, a fresh machine may have no cc.
        let build = try run("/usr/bin/env", ["make", "-C", path, "CC=clang", "STORESH=\(storeshBinary)"], input: Data())
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let test = try storesh(["test", "--plugin-path", path, path + "/Gadget.transcript"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("1 passed, 0 failed"))
    }

    @Test func theSwiftPackageDependsOnTheCheckoutWithTheRightProducts() throws {
        let path = freshPath("Widget")
        let made = try storesh(["new", "Widget", "--path", path, "--local", checkout])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOfFile: path + "/Package.swift", encoding: .utf8)
        #expect(manifest.contains(".package(path: \"\(URL(fileURLWithPath: checkout).standardizedFileURL.path)\")"))
        let identity = URL(fileURLWithPath: checkout).standardizedFileURL.lastPathComponent
        #expect(manifest.contains(".product(name: \"StorePlugin\", package: \"\(identity)\")"), "SwiftPM names a path dependency by its folder")
        #expect(manifest.contains(#".library(name: "Widget", type: .dynamic, targets: ["Widget"])"#))
        let source = try String(contentsOfFile: path + "/Sources/Widget/Widget.swift", encoding: .utf8)
        #expect(source.contains("@PluginActions"))
        let byURL = try storesh(["new", "Widget", "--path", freshPath("Widget"), "--url", "https://example.com/storesh.git", "--from", "1.2.0"])
        #expect(byURL.status == 0, "\(byURL.stderr)")
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
    }
}
