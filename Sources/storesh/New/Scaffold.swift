import Foundation

/// The files `storesh new` writes, as (path in the package, text).
enum Scaffold {
    typealias Files = [(path: String, text: String)]

    /// How a Swift plugin package depends on storesh: the `.package` line with the comment
    /// above it, the name SwiftPM gives the dependency, and where its macros come from.
    struct Dependency {
        let lines: [String]
        let identity: String
        /// The StorePluginMacros tool of the checkout's own build, when the package takes
        /// the macros from it (the PrebuiltMacros trait) instead of building swift-syntax.
        let prebuiltMacros: String?
    }

    static func dependency(_ options: NewOptions) throws -> Dependency {
        let fromSource = [
            "// MacrosFromSource: the @PluginActions macros are built here, swift-syntax with them",
            "// (the first build takes minutes more). Naming traits leaves out what only the shell needs.",
        ]
        if let url = options.url {
            // SwiftPM names a dependency by the last part of its URL or path.
            let identity = URL(string: url)?.deletingPathExtension().lastPathComponent ?? "storesh"
            return Dependency(
                lines: fromSource + [
                    ".package(url: \(quoted(url)), from: \(quoted(options.urlVersion)), traits: [\"MacrosFromSource\"]),"
                ],
                identity: identity, prebuiltMacros: nil)
        }
        guard let checkout = options.local.map({ URL(fileURLWithPath: $0) }) ?? Checkout.root else {
            throw ScaffoldError("the checkout storesh was built from is gone: give --local CHECKOUT or --url URL")
        }
        guard FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) else {
            throw ScaffoldError("\(checkout.path) is not a storesh checkout (it has no Package.swift)")
        }
        let path = checkout.standardizedFileURL.path
        let identity = checkout.standardizedFileURL.lastPathComponent
        guard let tool = Checkout.prebuiltMacroTool(in: checkout) else {
            return Dependency(
                lines: fromSource + [
                    "// Once \(path) is built (swift build there), PrebuiltMacros takes its macro tool instead.",
                    ".package(path: \(quoted(path)), traits: [\"MacrosFromSource\"]),",
                ], identity: identity, prebuiltMacros: nil)
        }
        return Dependency(
            lines: [
                "// PrebuiltMacros: the @PluginActions macros (and the StoreshGlue generator) come from",
                "// the tools \(path)'s own build made, so no swift-syntax is built. MacrosFromSource",
                "// builds them here instead (the first build takes minutes more).",
                ".package(path: \(quoted(path)), traits: [\"PrebuiltMacros\"]),",
            ], identity: identity, prebuiltMacros: tool)
    }

    /// The start of a Swift plugin's Package.swift, up to its `targets: [` (the templates
    /// of `storesh new` and `storesh new --from` go on from there).
    static func packageHead(_ name: String, _ storesh: Dependency) -> String {
        """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: \(quoted(name)),
            platforms: [.macOS(.v14)],
            products: [
                // storesh loads lib\(name).so (.dylib on macOS) from .build/debug.
                .library(name: \(quoted(name)), type: .dynamic, targets: [\(quoted(name))]),
            ],
            traits: [
                .trait(
                    name: "Coverage",
                    description: "The model's code reports the edges it takes, and storesh explore is guided by them: swift build --traits Coverage --scratch-path .build/coverage"
                ),
            ],
            dependencies: [
                \(storesh.lines.joined(separator: "\n        "))
            ],
            targets: [
        """
    }

    /// A Swift plugin package: Package.swift, the model with its glue, a transcript, a README.
    static func swift(_ options: NewOptions, _ storesh: Dependency) -> Files {
        let name = options.name
        let model = name.lowercased()
        let identity = storesh.identity
        return [
            (
                "Package.swift",
                """
                \(packageHead(name, storesh))
                        .target(
                            name: \(quoted(name)),
                            dependencies: [
                                .product(name: "StorePlugin", package: \(quoted(identity))),
                                .product(name: "ObservableStore", package: \(quoted(identity))),
                            ],
                            swiftSettings: [\(coverageSetting)]
                        ),
                    ]
                )

                """
            ),
            (
                "Sources/\(name)/\(name).swift",
                """
                // \(name): a storesh plugin. Change the model and its actions; the schema storesh
                // shows comes from the Action enum (@PluginActions), so there is nothing else to list.
                // @PluginState has the state write its own snapshots, without an Encoder.
                import ObservableStore
                import StorePlugin

                @PluginState
                struct \(name): ModelProtocol, Codable {
                    var count = 0

                    @PluginActions
                    enum Action: Codable, Sendable {
                        /// Adds one (the count stops at Int.max).
                        case increment
                        /// Sets the count.
                        /// - Parameter count: the new count
                        case setCount(Int)
                        /// Adds one after a second on the host clock (virtual under `storesh test`).
                        case incrementLater
                    }

                    struct Environment: Sendable {
                        let clock: HostClock
                    }

                    static func update(state: \(name), action: Action, environment: Environment) -> Update<\(name)> {
                        var next = state
                        switch action {
                        case .increment:
                            // `+= 1` would trap at Int.max: `storesh explore` finds that in one run.
                            if next.count < .max { next.count += 1 }
                        case .setCount(let count):
                            next.count = count
                        case .incrementLater:
                            let clock = environment.clock
                            return Update(state: state, fx: Fx<Action>.task {
                                try? await clock.sleep(for: .seconds(1))
                                return .increment
                            })
                        }
                        return Update(state: next)
                    }
                }

                // The glue: the model, and the two symbols storesh looks for.
                let \(model)Model = PluginModel.observable(\(quoted(model)), doc: \(quoted("\(name): a model to start from.")), initial: { \(name)() }, environment: { \(name).Environment(clock: $0.clock) })
                @_cdecl("storeplugin_info_v1") public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: \(quoted(model)), version: "0.1.0") }
                @_cdecl("storeplugin_register_v1") public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
                    StorePlugin.register(host: host, error: error, models: [\(model)Model])
                }

                """
            ),
            (
                "\(name).transcript",
                transcript(name: name, model: model, library: ".build/debug/" + libraryFile(name), effect: true)
            ),
            ("README.md", swiftReadme(name)),
        ]
    }

    /// The file name SwiftPM gives the plugin's library on this system.
    static func libraryFile(_ name: String) -> String {
        #if canImport(Darwin)
            "lib\(name).dylib"
        #else
            "lib\(name).so"
        #endif
    }

    /// The first transcript: what the generated model does, as `storesh test` prints it.
    /// It loads the plugin by a path relative to itself (`library`), so it passes with
    /// no flags from any folder.
    static func transcript(name: String, model: String, library: String, effect: Bool) -> String {
        var text = """
            # \(name)'s actions, tested: storesh test \(name).transcript (paths here are relative to this file)
            > :load \(library)
            loaded \(model) \(effect ? "0.1.0" : "1.0.0"): \(model).\(model)
            > increment
            increment: state changed
              ~ count: 0 → 1
            > setCount 5
            setCount 5: state changed
              ~ count: 1 → 5

            """
        if effect {
            text += """
                > incrementLater
                incrementLater: no change, 1 effect started
                fx #1 incrementLater started
                > :advance 1s
                fx #1 incrementLater emitted increment (+1000ms)
                  ~ count: 5 → 6
                fx #1 incrementLater finished (+1000ms)

                """
        }
        return text
    }

    /// A Swift package's README: built with `swift build`, for coverage with its trait.
    static func swiftReadme(_ name: String) -> String {
        readme(
            name: name, build: "swift build", libraries: ".build/debug", language: "Swift",
            coverage: (
                build: "swift build --traits Coverage --scratch-path .build/coverage",
                libraries: ".build/coverage/debug"
            ))
    }

    /// The model target's setting for the `Coverage` trait: SanitizerCoverage's trace-pc-guard
    /// (swiftc takes it only beside a sanitizer; the fuzzer's adds no runtime to a library).
    /// On Linux, where storesh runs models: Xcode's swiftc may have no fuzzer runtime.
    static let coverageSetting =
        #".unsafeFlags(["-sanitize=fuzzer", "-sanitize-coverage=edge,trace-pc-guard"], .when(platforms: [.linux], traits: ["Coverage"]))"#

    static func readme(
        name: String, build: String, libraries: String, language: String, coverage: (build: String, libraries: String)
    ) -> String {
        """
        # \(name)

        A storesh plugin in \(language).

        - Build: `\(build)`
        - Try it: `storesh --plugin-path \(libraries) --plugin \(name)`
        - Test it: `storesh test \(name).transcript` — after changing the model,
          `storesh test --update \(name).transcript` writes the new output into the transcript;
          review it.
        - Let storesh find its bugs, guided by the code each run takes: build it for coverage
          in a folder of its own, `\(coverage.build)`, then
          `storesh explore --plugin-path \(coverage.libraries) --plugin \(name) --invariant '…'`.

        """
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
