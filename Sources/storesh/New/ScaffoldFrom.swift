import Foundation

/// `storesh new NAME --from PATH…`: a plugin package around an app's model files, left as
/// they are. The files are linked, not copied: the app stays the one place they are edited,
/// and its next edit is in the plugin's next build. The package's only Swift file of its
/// own names each model in one line; the StoreshGlue build-tool plugin writes the rest.
extension Scaffold {
    /// A model type the files declare: its name, and whether its environment is `Void`.
    struct FoundModel: Equatable {
        let type: String
        let voidEnvironment: Bool
    }

    /// The Swift files `paths` name (files, or folders searched for `.swift` files), in order.
    static func modelFiles(_ paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                throw ScaffoldError("--from \(path): no such file or folder")
            }
            if !isFolder.boolValue {
                guard url.pathExtension == "swift" else { throw ScaffoldError("--from \(path): not a .swift file") }
                files.append(url)
                continue
            }
            let found = (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects ?? [])
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
                .map(\.standardizedFileURL).sorted { $0.path < $1.path }
            guard !found.isEmpty else { throw ScaffoldError("--from \(path): the folder holds no .swift file") }
            files += found
        }
        var names: [String: URL] = [:]
        for file in files {
            if let other = names[file.lastPathComponent], other != file {
                throw ScaffoldError(
                    "--from: \(other.path) and \(file.path) have the same name, and a target's files need different ones"
                )
            }
            names[file.lastPathComponent] = file
        }
        return Array(Set(files)).sorted { $0.path < $1.path }
    }

    /// The types the files declare conforming to `ModelProtocol` (not generic ones: a
    /// plugin model is one concrete type), in the order the files hold them.
    static func models(in text: String) -> [FoundModel] {
        let declaration = try! NSRegularExpression(
            pattern:
                #"(?m)^[ \t]*(?:(?:public|internal|package|final)\s+)*(?:struct|enum|class|extension)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(<[^>{]*>)?\s*:[^{]*\bModelProtocol\b"#
        )
        let range = NSRange(text.startIndex..., in: text)
        return declaration.matches(in: text, range: range).compactMap { match -> FoundModel? in
            guard match.range(at: 2).location == NSNotFound, let name = Range(match.range(at: 1), in: text) else {
                return nil
            }
            let type = String(text[name])
            let update = try! NSRegularExpression(
                pattern: #"func\s+update\s*\(\s*state:[^,]+,\s*action:[^,]+,\s*environment:\s*(Void|\(\s*\))\s*\)"#)
            return FoundModel(type: type, voidEnvironment: update.firstMatch(in: text, range: range) != nil)
        }
    }

    /// The child models the files reach through a cursor: the type a `CursorProtocol` or
    /// `KeyedCursorProtocol` conformance's `get(state:…)` returns. A child model is shown
    /// inside its parent and has no state of its own to start from (a row needs its id), so
    /// it is not named as a model the plugin loads alone.
    static func childModels(in text: String) -> Set<String> {
        let getter = try! NSRegularExpression(
            pattern:
                #"static\s+func\s+get\s*\(\s*state\s*:[^)]*\)\s*->\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z_][A-Za-z0-9_]*)\s*\??"#
        )
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            getter.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    /// The one-line declaration of a model: its variable is the type's name, lowercased first.
    static func modelLine(_ model: FoundModel) -> String {
        let variable = model.type.prefix(1).lowercased() + model.type.dropFirst()
        let environment = model.voidEnvironment ? "{ _ in }" : "{ _ in .init() }"
        return "let \(variable) = PluginModel.observable(\(model.type).self, environment: \(environment))"
    }

    /// Package.swift with the glue plugin, Models.swift, a transcript that loads the models,
    /// and a README; the model files are linked in by `makeNewPlugin`.
    static func swiftFrom(_ options: NewOptions, _ storesh: Dependency, models: [FoundModel]) -> Files {
        let name = options.name
        let identity = storesh.identity
        let plugin = name.lowercased()
        let names = models.map { $0.type.prefix(1).lowercased() + $0.type.dropFirst() }
        return [
            (
                "Package.swift",
                """
                \(packageHead(name, storesh))
                        // The app's model files (links), Models.swift naming each model, and the glue
                        // StoreshGlue writes from them at each build that changes them.
                        .target(
                            name: \(quoted(name)),
                            dependencies: [
                                .product(name: "StorePlugin", package: \(quoted(identity))),
                                .product(name: "ObservableStore", package: \(quoted(identity))),
                            ],
                            // App code is mostly written in the Swift 5 language mode. Where the
                            // system has no SwiftUI, os or Combine, `import SwiftUI`, `import os`
                            // and `import Combine` are storesh's stand-ins
                            // (docs/coming-from-upstream.md).
                            swiftSettings: [
                                .swiftLanguageMode(.v5),
                                .unsafeFlags(
                                    [
                                        "-module-alias", "SwiftUI=SwiftUIOnLinux", "-module-alias", "os=OSLogOnLinux",
                                        "-module-alias", "Combine=CombineOnLinux",
                                    ],
                                    .when(platforms: [.linux])),
                                \(coverageSetting),
                            ],
                            plugins: [.plugin(name: "StoreshGlue", package: \(quoted(identity)))]
                        ),
                    ]
                )

                """
            ),
            (
                "Sources/\(name)/Models.swift",
                """
                // The models this plugin exports, one line each; storesh-glue writes the rest.
                import StorePlugin

                \(models.map(modelLine).joined(separator: "\n"))

                """
            ),
            (
                "\(name).transcript",
                """
                # \(name)'s models, loaded: storesh test \(name).transcript (paths here are relative to this file)
                > :load .build/debug/\(libraryFile(name))
                loaded \(plugin) 0.1.0: \(names.map { "\(plugin).\($0)" }.joined(separator: ", "))

                """
            ),
            ("README.md", swiftReadme(name)),
        ]
    }

    /// Links each model file into the package's target folder.
    static func link(_ files: [URL], into directory: URL, target name: String) throws {
        let folder = directory.appendingPathComponent("Sources/\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(file.lastPathComponent), withDestinationURL: file)
        }
    }
}
