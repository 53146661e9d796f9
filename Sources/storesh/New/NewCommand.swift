import ArgumentParser
import Foundation
import StoreHost
import StoreShell

/// `storesh new NAME`: scaffolds a plugin package that builds with `swift build` (or, with
/// `--c`, `make`) and whose transcript passes `storesh test` as generated.
struct NewOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Make a new plugin package: a model, its glue, a transcript test and a README.",
        discussion: """
            The Swift package depends on this storesh: by path on the checkout storesh was built \
            from (or --local CHECKOUT), or by --url URL. --c makes a plain-C plugin with a Makefile \
            instead, its glue declared with storeplugin_model.h; 'storesh --include-dir' prints where storeplugin.h is. --from PATH… makes the \
            package around an app's model files instead, unchanged: the StoreshGlue build-tool plugin \
            writes their glue (docs/plugins.md, "Glue that writes itself").
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The plugin's name: a Swift type name such as Cart (the model is 'cart'); a lowercase first letter is made uppercase.",
            valueName: "NAME"))
    var givenName: String

    /// The plugin's name as a Swift type: the name given, with its first letter made
    /// uppercase (`storesh new library` makes the plugin `Library`, model `library`).
    var name: String { givenName.prefix(1).uppercased() + givenName.dropFirst() }

    @Option(help: ArgumentHelp("Where to make it (default: ./NAME). Must not exist yet.", valueName: "DIR"))
    var path: String?

    @Option(help: ArgumentHelp("Depend on the storesh checkout at this path.", valueName: "CHECKOUT"))
    var local: String?

    @Option(help: ArgumentHelp("Depend on storesh by this URL instead (with --url-version).", valueName: "URL"))
    var url: String?

    @Option(help: ArgumentHelp("The version to depend on with --url.", valueName: "VERSION"))
    var urlVersion: String = Storesh.version

    @Option(
        name: .customLong("from"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Make the package around an app's model files (files or folders), linked unchanged: each type conforming to ModelProtocol gets a line in Models.swift, and the StoreshGlue plugin writes the rest at build time.",
            valueName: "PATH"))
    var modelPaths: [String] = []

    @Flag(
        name: .customLong("c"),
        help:
            "A plain-C plugin (its glue declared with storeplugin_model.h, and a Makefile) instead of a Swift package.")
    var plainC = false

    func validate() throws {
        guard let first = givenName.unicodeScalars.first, CharacterSet.letters.contains(first),
            givenName.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) }),
            givenName.allSatisfy(\.isASCII)
        else {
            throw ValidationError(
                "'\(givenName)' is not a plugin name: use ASCII letters and digits, starting with a letter (Cart, TodoList)"
            )
        }
        if !plainC, let reason = Scaffold.unusableName(name) {
            let renamed = name == givenName ? "" : " ('\(givenName)' names the Swift type \(name))"
            throw ValidationError(
                "\(reason)\(renamed): the package made for it would not build; choose another name, like \(name)Model")
        }
        if local != nil, url != nil { throw ValidationError("give --local or --url, not both") }
        if plainC, !modelPaths.isEmpty { throw ValidationError("--from makes a Swift package: leave out --c") }
        if url != nil, modelPaths.count == 1, let only = modelPaths.first,
            !FileManager.default.fileExists(atPath: only),
            only.first?.isNumber == true
        {
            throw ValidationError(
                "--from takes model files; the version of --url is --url-version \(only)")
        }
    }
}

/// Writes the package `options` describes; returns the exit status.
func makeNewPlugin(_ options: NewOptions) -> Int32 {
    let directory = URL(fileURLWithPath: options.path ?? options.name)
    do {
        let dependency = options.plainC ? nil : try Scaffold.dependency(options)
        let modelFiles = try Scaffold.modelFiles(options.modelPaths)
        var models: [Scaffold.FoundModel] = []
        let texts = modelFiles.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
        let children = texts.reduce(into: Set<String>()) { $0.formUnion(Scaffold.childModels(in: $1)) }
        var childrenFound: [String] = []
        for text in texts {
            for model in Scaffold.models(in: text) where !models.contains(where: { $0.type == model.type }) {
                if children.contains(model.type) {
                    if !childrenFound.contains(model.type) { childrenFound.append(model.type) }
                } else {
                    models.append(model)
                }
            }
        }
        if !options.modelPaths.isEmpty {
            guard !models.isEmpty || childrenFound.isEmpty else {
                throw ScaffoldError(
                    "--from: \(childrenFound.joined(separator: ", ")) \(childrenFound.count == 1 ? "is a child model" : "are child models") reached through a cursor, and no parent model is in \(modelFiles.map(\.path).joined(separator: ", ")): add the parent's file"
                )
            }
            guard !models.isEmpty else {
                throw ScaffoldError(
                    "--from: no type conforming to ModelProtocol in \(modelFiles.map(\.path).joined(separator: ", ")) (a generic one is not a plugin model)"
                )
            }
            if modelFiles.contains(where: { $0.lastPathComponent == "Models.swift" }) {
                throw ScaffoldError(
                    "--from: a model file is named Models.swift, the file the package names its models in")
            }
        }
        let files =
            try dependency.map {
                options.modelPaths.isEmpty
                    ? Scaffold.swift(options, $0) : Scaffold.swiftFrom(options, $0, models: models)
            } ?? Scaffold.plainC(options)
        guard !FileManager.default.fileExists(atPath: directory.path) else {
            throw ScaffoldError("\(directory.path) already exists; choose another --path")
        }
        if !modelFiles.isEmpty { try Scaffold.link(modelFiles, into: directory, target: options.name) }
        for (relative, text) in files {
            let file = directory.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        // Every command printed runs as printed: storesh by its own path when the PATH
        // has no storesh or another one.
        let storesh = Invocation.storesh()
        let folder = options.path ?? options.name
        let quoted = Invocation.shellQuoted(folder)
        let build = options.plainC ? "make -C \(quoted)" : "swift build --package-path \(quoted)"
        let libraries = Invocation.shellQuoted(options.plainC ? folder : folder + "/.build/debug")
        if options.name != options.givenName {
            print(
                "'\(options.givenName)' is not a type name: the plugin is \(options.name), its model '\(options.name.lowercased())'"
            )
        }
        if !modelFiles.isEmpty {
            print("linked in Sources/\(options.name)/: \(modelFiles.map(\.path).joined(separator: ", "))")
            print(
                "models: \(models.map(\.type).joined(separator: ", ")) (one line each in Sources/\(options.name)/Models.swift)"
            )
            if !childrenFound.isEmpty {
                print(
                    "child models, reached through a cursor and shown in their parent: \(childrenFound.joined(separator: ", "))"
                )
            }
        }
        print(
            """
            made \(folder): \(files.map(\.path).sorted().joined(separator: ", "))
            build it:  \(build)
            try it:    \(storesh) --plugin-path \(libraries) --plugin \(options.name)
            test it:   \(storesh) test \(Invocation.shellQuoted(folder + "/" + options.name + ".transcript"))
            """)
        if let dependency {
            if let tool = dependency.prebuiltMacros {
                print("(its macros come prebuilt: \(tool), so its first build compiles no swift-syntax)")
            } else {
                print("(its first build also compiles swift-syntax for the macros: minutes more)")
            }
        }
        if storesh != "storesh" {
            let install =
                Checkout.root.map { Invocation.shellQuoted($0.appendingPathComponent("scripts/install").path) }
                ?? "scripts/install"
            print("(storesh is not on your PATH, so these commands call it by its path; \(install) puts it there)")
        }
        return 0
    } catch let error as ScaffoldError {
        StandardStreams.error("storesh new: \(error)\n")
        return 1
    } catch {
        StandardStreams.error("storesh new: cannot write the package in \(directory.path): \(fileProblem(error))\n")
        return 1
    }
}

/// A scaffold that cannot be made, and why.
struct ScaffoldError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Where storesh was built from: templates and storeplugin.h live there.
enum Checkout {
    /// The checkout's root, if it is still where storesh was built: the nearest folder
    /// above this source file that holds the package and its C header (so the answer does
    /// not depend on how deep this file sits).
    static var root: URL? {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("Sources/CStorePlugin/include/storeplugin.h").path)
            {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// The StorePluginMacros tool a build of `checkout` made (debug or release), which a
    /// plugin package may take its macros from instead of building swift-syntax (the
    /// PrebuiltMacros trait; Sources/StorePluginMacros/PrebuiltToolLauncher.swift looks in
    /// the same two places when the package builds).
    static func prebuiltMacroTool(in checkout: URL) -> String? {
        ["debug", "release"].map { checkout.appendingPathComponent(".build/\($0)/StorePluginMacros-tool").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The directory holding storeplugin.h: `include/` beside the running program (where
    /// scripts/install puts it), else the checkout's.
    static func includeDirectory() throws -> String {
        if let program = Invocation.runningProgram {
            let installed = URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent("include")
            if FileManager.default.fileExists(atPath: installed.appendingPathComponent("storeplugin.h").path) {
                return installed.path
            }
        }
        guard let root else {
            throw ScaffoldError(
                "storeplugin.h is not where storesh was built from (\(#filePath)); point the compiler at Sources/CStorePlugin/include of a storesh checkout"
            )
        }
        return root.appendingPathComponent("Sources/CStorePlugin/include").path
    }
}
