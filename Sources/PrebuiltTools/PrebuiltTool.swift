// What the launchers of storesh's prebuilt tools share (the macros' StorePluginMacros and
// the glue generator's storesh-glue, built without the MacrosFromSource trait): find the
// tool the storesh checkout's own build made, check that the Swift building this package
// built it, and become it (exec). A plugin package then never builds swift-syntax. Any
// problem is one error that says what to do.
package import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tool of the storesh checkout these sources are in, prebuilt by its own build.
package struct PrebuiltTool {
    /// What is wrong with the tool, and what to do about it.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
        init(_ what: String) {
            description = """
                \(what). Build storesh again (swift build --package-path \(PrebuiltTool.checkout.path)), \
                or build the tools from source: traits: ["MacrosFromSource"] instead of ["PrebuiltMacros"] in this package's Package.swift.
                """
        }
    }

    /// The checkout: three levels above this file (CHECKOUT/Sources/PrebuiltTools/).
    package static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    package let url: URL
    let modified: Date

    /// Execs the checkout's prebuilt `name` with this process's arguments; on failure prints
    /// `error: storesh's prebuilt WHAT: …` and exits 1.
    package static func launch(_ name: String, what: String) -> Never {
        let arguments = CommandLine.arguments
        let launcher = URL(fileURLWithPath: arguments.first ?? "").resolvingSymlinksInPath()
        do {
            let path = try find(name, for: launcher).url.path
            var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments.dropFirst()).map { strdup($0) }
            argv.append(nil)
            execv(path, argv)
            throw Problem("cannot start \(path): \(String(cString: strerror(errno)))")
        } catch {
            FileHandle.standardError.write(Data("error: storesh's prebuilt \(what): \(error)\n".utf8))
            exit(1)
        }
    }

    /// The newest `name` in the checkout's debug or release build (where `storesh new` looked
    /// for it) built by the Swift building this package, never the launcher itself.
    /// SwiftPM leaves the compiler's version in each build folder. A tool older than the
    /// checkout's sources is not detected: a source only touched is not rebuilt (the driver
    /// compares contents), so its date would refuse a current tool. Build storesh after
    /// changing its sources, as storesh itself needs.
    package static func find(_ name: String, for launcher: URL) throws -> PrebuiltTool {
        let builds = ["debug", "release"].map {
            checkout.appendingPathComponent(".build/\($0)/\(name)").resolvingSymlinksInPath()
        }
        let tools = builds.compactMap { url -> PrebuiltTool? in
            guard url.path != launcher.path, FileManager.default.isExecutableFile(atPath: url.path),
                let modified = modificationDate(url)
            else { return nil }
            return PrebuiltTool(url: url, modified: modified)
        }.sorted { $0.modified > $1.modified }
        guard let newest = tools.first else {
            throw Problem("no \(name) in \(checkout.path)/.build/debug or .build/release")
        }
        let building = swiftVersion(in: launcher.deletingLastPathComponent())
        if let current = tools.first(where: { $0.isBuilt(by: building) }) {
            return current
        }
        throw Problem(
            "\(newest.url.path) was built by \(newest.builtBy ?? "another Swift"), and this package is built by \(building ?? "another Swift")"
        )
    }

    /// The first line of `swift --version` of the Swift that built the tool.
    var builtBy: String? { PrebuiltTool.swiftVersion(in: url.deletingLastPathComponent()) }

    /// Whether `swift` built the tool; a version unknown on either side does not refuse it.
    /// (On macOS the compiler runs a macro plugin in a sandbox that may read file metadata
    /// and dylibs only, and exec: there the versions are unknown, and the check passes.)
    func isBuilt(by swift: String?) -> Bool {
        guard let swift, let builtBy else { return true }
        return builtBy == swift
    }

    static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// The first line of the newest swift-version-*.txt SwiftPM wrote in a build folder.
    static func swiftVersion(in folder: URL) -> String? {
        let files =
            ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasPrefix("swift-version-") && $0.pathExtension == "txt" }
        guard
            let newest = files.max(by: {
                (modificationDate($0) ?? .distantPast) < (modificationDate($1) ?? .distantPast)
            }),
            let text = try? String(contentsOf: newest, encoding: .utf8)
        else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }
}
