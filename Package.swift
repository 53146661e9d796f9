// swift-tools-version: 6.1
// storesh: Elm-style stores for Swift (ObservableStore, Arboreal) and the storesh shell.
import CompilerPluginSupport
import PackageDescription

/// Macros and the glue generator built from swift-syntax: with the MacrosFromSource trait, or
/// with Shell, the one trait this package's own build enables. One default trait, not two:
/// SwiftPM passes each enabled trait as a `-D` flag in the order of a Set, which changes from
/// one `swift build` to the next when two are enabled, and a changed command line compiles
/// every module again (docs/pitfalls.md).
let macrosFromSource: TargetDependencyCondition? = .when(traits: ["MacrosFromSource", "Shell"])

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Platforms without Combine, where the `CombineOnLinux` target stands in for it.
let nonApple: [Platform] = [.linux, .windows, .android, .wasi]

/// What a target whose files `import SwiftUI`, `import os` or `import Combine` needs off
/// Apple platforms: those names for this package's stand-ins (SwiftUIOnLinux, OSLogOnLinux,
/// CombineOnLinux). The stand-ins are not built under those names: SwiftPM puts every
/// module in one directory, so a module named `os`, `SwiftUI` or `Combine` would turn on
/// `#if canImport(…)` code in every dependency compiled after it (swift-argument-parser's
/// os_unfair_lock, custom-dump's SwiftUI conformances, OpenCombineDispatch's scheduler
/// conformance, which a rebuild then drops) and break it (docs/decisions/0007).
let linuxModuleAliases: SwiftSetting = .unsafeFlags(
    [
        "-module-alias", "SwiftUI=SwiftUIOnLinux", "-module-alias", "os=OSLogOnLinux",
        "-module-alias", "Combine=CombineOnLinux",
    ], .when(platforms: nonApple))

let package = Package(
    name: "storesh",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "ObservableStore", targets: ["ObservableStore"]),
        .library(name: "Arboreal", targets: ["Arboreal"]),
        // A TestStore for ObservableStore models, for Swift Testing and XCTest alike.
        // Test stores for both flavours: `import StoreTesting` (ObservableStore) or
        // `import ArborealTesting`.
        .library(name: "StoreTesting", targets: ["StoreTesting", "ArborealTesting"]),
        // For plugin authors: turns a model into a storesh plugin.
        .library(name: "StorePlugin", targets: ["StorePlugin"]),
        // The host (StoreHost) and the shell language (StoreShell) are not products: their API
        // is `package`, for storesh's own programs and tests (store-ratios among them).
        // Language-neutral values shared by host and SDK.
        .library(name: "StoreValue", targets: ["StoreValue"]),
        .executable(name: "store-demo", targets: ["store-demo"]),
        .executable(name: "storesh", targets: ["storesh"]),
        .executable(name: "storesh-worker", targets: ["storesh-worker"]),
        .executable(name: "storesh-mcp", targets: ["storesh-mcp"]),
        .executable(name: "storesh-inspector", targets: ["storesh-inspector"]),
        // Writes a plugin target's glue from its model files (docs/plugins.md).
        .plugin(name: "StoreshGlue", targets: ["StoreshGlue"]),
        // Example plugins, each a dynamic library storesh loads by name: libStoreshExampleCounter.so
        // is the plugin `Counter` (PluginHost.pluginName). The prefix keeps the names every
        // tutorial uses (Counter, Todos, Cart) free for a user's own plugin package, which
        // depends on this one: SwiftPM wants target and product names unique across the
        // package graph.
        .library(name: "StoreshExampleCCounter", type: .dynamic, targets: ["StoreshExampleCCounter"]),
        .library(name: "StoreshExampleCGreeter", type: .dynamic, targets: ["StoreshExampleCGreeter"]),
        .library(name: "StoreshExampleCKitchen", type: .dynamic, targets: ["StoreshExampleCKitchen"]),
        .library(name: "StoreshExampleCounter", type: .dynamic, targets: ["StoreshExampleCounter"]),
        .library(name: "StoreshExampleTodos", type: .dynamic, targets: ["StoreshExampleTodos"]),
        .library(name: "StoreshExampleAuth", type: .dynamic, targets: ["StoreshExampleAuth"]),
        .library(name: "StoreshExampleComposite", type: .dynamic, targets: ["StoreshExampleComposite"]),
        .library(name: "StoreshExampleArborealCounter", type: .dynamic, targets: ["StoreshExampleArborealCounter"]),
        .library(name: "StoreshExampleCart", type: .dynamic, targets: ["StoreshExampleCart"]),
        .library(name: "StoreshExampleFeed", type: .dynamic, targets: ["StoreshExampleFeed"]),
        .library(name: "StoreshExampleNotebook", type: .dynamic, targets: ["StoreshExampleNotebook"]),
        // Action arguments of every Codable kind, with their shapes (examples/parcels.transcript).
        .library(name: "StoreshExampleParcels", type: .dynamic, targets: ["StoreshExampleParcels"]),
        // A model with bugs on purpose, for the crash and hang tests.
        .library(name: "StoreshExampleFaulty", type: .dynamic, targets: ["StoreshExampleFaulty"]),
        // Eight classic buggy models for explore, each with its bug and fixed (docs/shell/explore.md).
        .library(name: "StoreshExampleClassics", type: .dynamic, targets: ["StoreshExampleClassics"]),
    ],
    // What a package depending on this one builds, so that a plugin package (`storesh new`)
    // builds only what a plugin needs. The default (Shell, which builds the macros from source
    // too) is for this package itself; a plugin package names its traits, which turns it off.
    traits: [
        .trait(
            name: "MacrosFromSource",
            description:
                "Build the @PluginActions and @PluginService macros (StorePluginMacros), swift-syntax with them: most of a plugin package's first build."
        ),
        .trait(
            name: "PrebuiltMacros",
            description: """
                Without MacrosFromSource, StorePluginMacros is a launcher for the macro tool this checkout's own \
                build made (.build/debug or .build/release; Sources/StorePluginMacros/PrebuiltToolLauncher.swift): \
                swift-syntax is neither fetched nor built. What storesh new writes for a package on a built checkout.
                """
        ),
        .trait(
            name: "Shell",
            description:
                "The shell's dependencies: swift-argument-parser, the MCP swift-sdk (with swift-nio) and FlyingFox's FlyingSocks. storesh, StoreMCP and StoreInspector build only with it; without it a plugin package fetches none of them. It builds the macros from source as MacrosFromSource does (the shell's own example plugins use them)."
        ),
        .default(enabledTraits: ["Shell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // The @PluginActions macro (StorePluginMacros): built only for plugins, never for
        // users of the store libraries alone, and not for plugin packages on a built
        // checkout (the PrebuiltMacros trait).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // `swift package generate-documentation` for the DocC catalogs (scripts/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `storesh mcp`: the Model Context Protocol's messages and server (StoreMCP).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // FlyingSocks, its asynchronous sockets, under the inspector's HTTP server
        // (storesh-inspector): small, no SwiftNIO. FlyingFox's own HTTPServer is not used: it
        // cannot bound what it reads of a request (the README's dependency section says why).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // Pieces both store flavours share: the rule effects run by (InFlightEffects), the
        // effect mailbox, scoped stores. Re-exports SwiftUI (Binding, Transaction, Animation).
        .target(
            name: "StoreRuntime",
            dependencies: [
                .target(name: "SwiftUIOnLinux", condition: .when(platforms: nonApple)),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ObservableStore",
            dependencies: [
                "StoreRuntime",
                .target(name: "CombineOnLinux", condition: .when(platforms: nonApple)),
                .target(name: "OSLogOnLinux", condition: .when(platforms: nonApple)),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Arboreal",
            dependencies: [
                "StoreRuntime",
                .target(name: "CombineOnLinux", condition: .when(platforms: nonApple)),
                .target(name: "OSLogOnLinux", condition: .when(platforms: nonApple)),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // SwiftUI where the system has none: the part models use (Animation, Transaction,
        // withAnimation, Binding; Foundation re-exported), no views. A target that imports
        // it as `SwiftUI` says so with `linuxModuleAliases`; the store libraries depend on
        // it only where there is no SwiftUI, and re-export it.
        .target(name: "SwiftUIOnLinux", swiftSettings: strict),
        // os where the system has none: Logger and its privacy-marked messages, OSLog and
        // os_log, over swift-log. Imported as `os` under `linuxModuleAliases`.
        .target(
            name: "OSLogOnLinux", dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        // Combine where the system has none: OpenCombine with its Dispatch schedulers, so code
        // written for upstream ObservableStore compiles. Imported as `Combine` under
        // `linuxModuleAliases`. Not OpenCombineFoundation: it links FoundationNetworking
        // (curl, TLS), which every plugin would then load. Built only where the store
        // libraries depend on it.
        .target(
            name: "CombineOnLinux",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Sources/CombineOnLinux",
            swiftSettings: strict
        ),
        // TestStore: sends and receives actions with the state change each must make.
        .target(
            name: "StoreTesting",
            dependencies: [
                "ObservableStore", "StoreTestingShared",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            swiftSettings: strict
        ),
        // The TestStore for Arboreal's reference models, checked through snapshots.
        .target(
            name: "ArborealTesting",
            dependencies: [
                "Arboreal", "StoreTestingShared",
                .product(name: "CustomDump", package: "swift-custom-dump"),
            ],
            swiftSettings: strict
        ),
        // What both test stores share: the engine (received actions, exhaustivity, waiting
        // for effects, failures; TestStoreEngine), the test clock, failure reporting.
        .target(
            name: "StoreTestingShared",
            dependencies: [.product(name: "CustomDump", package: "swift-custom-dump")],
            swiftSettings: strict
        ),
        // THE C ABI between host and plugins: one header, storeplugin.h.
        .target(name: "CStorePlugin"),
        // storeplugin_model.h: a C model's glue declared as tables (header only; the .c is SwiftPM's due).
        .target(name: "CStorePluginModel", dependencies: ["CStorePlugin"]),
        // Language-neutral values (action arguments, state snapshots), their Codable
        // conversions and their C form, and the action-text grammar (ActionText/: literals
        // and actions, read and written). Used on both sides of the boundary.
        .target(name: "StoreValue", dependencies: ["CStorePlugin"], swiftSettings: strict),
        .target(name: "CFFI", linkerSettings: [.linkedLibrary("ffi")]),
        // The mechanism: loads and checks plugins, runs their stores in this process or in
        // worker processes (docs/worker-protocol.md), binds action text to a model's schema,
        // renders and diffs state. Knows nothing of the shell; no terminal code, no store library (DESIGN rule 1).
        .target(name: "StoreHost", dependencies: ["CStorePlugin", "CFFI", "StoreValue"], swiftSettings: strict),
        // The shell language: commands, history and time travel, the journal, transcripts,
        // output formatting. Drives models through StoreHost's Session, wherever they run.
        .target(name: "StoreShell", dependencies: ["StoreHost", "StoreValue"], swiftSettings: strict),
        // The operations of a session for clients that are not a terminal (MCP, the
        // inspector): one core, any transport. No protocol code.
        .target(name: "StoreService", dependencies: ["StoreShell", "StoreHost", "StoreValue"], swiftSettings: strict),
        // `storesh mcp`: the service over the Model Context Protocol (the SDK's messages
        // and server, our own stdio transport).
        .target(
            name: "StoreMCP",
            dependencies: [
                "StoreService", "StoreShell", "StoreHost", "StoreValue", "MCPLines",
                .product(name: "MCP", package: "swift-sdk", condition: .when(traits: ["Shell"])),
            ], swiftSettings: strict),
        // The MCP gate's judge of each line a client sends (JSON-RPC 2.0 as MCP uses it),
        // without the SDK: storesh-fuzz's `mcp` target reads lines through it.
        .target(name: "MCPLines", swiftSettings: strict),
        // `--inspect`: the service over HTTP on loopback, for a page in a browser (the page's
        // files are in Page/, embedded as Swift strings by scripts/embed-inspector-page).
        // Its HTTP is done by storesh-inspector, a process of its own (ServerProcess).
        .target(
            name: "StoreInspector",
            dependencies: ["StoreService", "StoreShell", "StoreHost", "StoreValue", "InspectorRelay"],
            exclude: ["Page"], swiftSettings: strict),
        // The messages between the inspector and its HTTP server process.
        .target(name: "InspectorRelay", dependencies: ["StoreValue"], swiftSettings: strict),
        // The inspector's HTTP/1.1 request reader (heads, bodies, limits), over any source of
        // bytes: a socket in storesh-inspector, memory in storesh-fuzz's `http` target.
        .target(name: "InspectorHTTP", dependencies: ["InspectorRelay"], swiftSettings: strict),
        // The inspector's HTTP server: listens on loopback, reads each request within limits
        // (its own HTTP/1.1 on FlyingSocks) and relays it to storesh. The only program that
        // links FlyingSocks; storesh itself loads no networking code.
        .executableTarget(
            name: "storesh-inspector",
            dependencies: [
                "InspectorRelay", "InspectorHTTP",
                .product(name: "FlyingSocks", package: "FlyingFox", condition: .when(traits: ["Shell"])),
            ],
            swiftSettings: strict
        ),
        .target(name: "StoreshExampleCCounter", dependencies: ["CStorePlugin"], path: "plugins/CCounter"),
        // An effect on the host clock and a service, in plain C.
        .target(name: "StoreshExampleCGreeter", dependencies: ["CStorePlugin"], path: "plugins/CGreeter"),
        .target(name: "StoreshExampleCKitchen", dependencies: ["CStorePluginModel"], path: "plugins/CKitchen"),
        .target(
            name: "StoreshExampleCounter", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Counter",
            swiftSettings: strict),
        .target(
            name: "StoreshExampleTodos", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Todos",
            swiftSettings: strict),
        .target(
            name: "StoreshExampleAuth", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Auth",
            swiftSettings: strict),
        .target(
            name: "StoreshExampleComposite", dependencies: ["StorePlugin", "ObservableStore"],
            path: "plugins/Composite", swiftSettings: strict),
        .target(
            name: "StoreshExampleArborealCounter", dependencies: ["StorePlugin", "Arboreal"],
            path: "plugins/ArborealCounter", swiftSettings: strict),
        .target(
            name: "StoreshExampleCart", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Cart",
            swiftSettings: strict),
        // Effects that chain, merge and fan out, written like app code (examples/feed.transcript).
        .target(
            name: "StoreshExampleFeed", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Feed",
            swiftSettings: strict),
        // A model as app code writes it, nothing injected (examples/notebook.transcript).
        .target(
            name: "StoreshExampleNotebook", dependencies: ["StorePlugin", "ObservableStore"],
            path: "plugins/Notebook", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "StoreshExampleParcels", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Parcels",
            swiftSettings: strict),
        .target(
            name: "StoreshExampleFaulty", dependencies: ["StorePlugin", "ObservableStore"], path: "plugins/Faulty",
            swiftSettings: strict),
        .target(
            name: "StoreshExampleClassics", dependencies: ["StorePlugin", "ObservableStore"],
            path: "plugins/Classics", swiftSettings: strict),
        // The Swift SDK: turns an ObservableStore or Arboreal model into a plugin.
        .target(
            name: "StorePlugin",
            dependencies: [
                "CStorePlugin", "StoreValue", "StoreRuntime", "ObservableStore", "Arboreal", "StorePluginMacros",
            ], swiftSettings: strict),
        // @PluginActions: an action enum's schema, derived at compile time.
        .macro(
            name: "StorePluginMacros",
            dependencies: [
                "PrebuiltTools",
                .target(name: "PluginActionsExpansion", condition: macrosFromSource),
                .product(
                    name: "SwiftSyntaxMacros", package: "swift-syntax", condition: macrosFromSource),
                .product(
                    name: "SwiftCompilerPlugin", package: "swift-syntax", condition: macrosFromSource
                ),
            ],
            swiftSettings: strict
        ),
        // What @PluginActions expands to, shared by the macro and the glue generator (StoreGlue).
        .target(
            name: "PluginActionsExpansion",
            dependencies: [
                .product(
                    name: "SwiftSyntaxMacros", package: "swift-syntax", condition: macrosFromSource),
                .product(
                    name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: macrosFromSource),
            ],
            swiftSettings: strict
        ),
        // The launchers of the prebuilt tools (PrebuiltMacros): find the checkout's own build of one, exec it.
        .target(name: "PrebuiltTools", swiftSettings: strict),
        // The glue generator (docs/plugins.md): a plugin target's Swift files in, one Swift file of glue out.
        .target(
            name: "StoreGlue",
            dependencies: [
                .target(name: "PluginActionsExpansion", condition: macrosFromSource),
                .product(name: "SwiftParser", package: "swift-syntax", condition: macrosFromSource),
                .product(
                    name: "SwiftSyntaxMacroExpansion", package: "swift-syntax",
                    condition: macrosFromSource),
                .product(
                    name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: macrosFromSource),
            ],
            swiftSettings: strict
        ),
        // The generator's program, or (PrebuiltMacros) a launcher of the checkout's own build of it.
        .executableTarget(
            name: "storesh-glue",
            dependencies: [
                "PrebuiltTools", .target(name: "StoreGlue", condition: macrosFromSource),
            ],
            swiftSettings: strict
        ),
        // Applied to a plugin target: runs storesh-glue on its files at each build whose sources changed.
        .plugin(name: "StoreshGlue", capability: .buildTool(), dependencies: ["storesh-glue"]),
        // libedit for the prompt (needs libedit-dev).
        .target(name: "CEditLine", linkerSettings: [.linkedLibrary("edit")]),
        // The shell: arguments, the libedit front end, batch mode, terminal output. Thin.
        .executableTarget(
            name: "storesh",
            dependencies: [
                "StoreHost", "StoreShell", "StoreService", "StoreshCommandLine", "CEditLine", "StoreWorld",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Shell"])),
            ],
            swiftSettings: strict, linkerSettings: worldExports
        ),
        // What storesh and storesh-mcp share of the command line: the options that make a
        // session, how it starts, `--inspect` and its launcher, `storesh mcp`'s options.
        .target(
            name: "StoreshCommandLine",
            dependencies: [
                "StoreHost", "StoreShell", "StoreService", "StoreInspector",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Shell"])),
            ],
            swiftSettings: strict
        ),
        // `storesh mcp`'s server, run by storesh in its own place (exec): the only program
        // that links the MCP SDK, whose networking libraries (FoundationNetworking, curl)
        // would otherwise load at every start of storesh.
        .executableTarget(
            name: "storesh-mcp",
            dependencies: [
                "StoreHost", "StoreShell", "StoreService", "StoreMCP", "StoreshCommandLine", "StoreWorld",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Shell"])),
            ],
            swiftSettings: strict, linkerSettings: worldExports
        ),
        // libFuzzer targets for the parsers (scripts/fuzz builds them with -sanitize=fuzzer);
        // a plain build replays a corpus through them.
        // One plugin in a process of its own, driven by storesh (docs/worker-protocol.md).
        // The worker's side of docs/worker-protocol.md: serves one plugin's stores, each an
        // in-process connection, to the shell that started the worker.
        .target(name: "StoreWorker", dependencies: ["StoreHost", "StoreValue"], swiftSettings: strict),
        // The models' deterministic world (docs/decisions/0002): C functions an executable
        // defines so that a plugin, Foundation, Dispatch and the Swift runtime bind to them.
        // Only storesh-worker, storesh and storesh-mcp link it, each exporting exactly these
        // names (`worldExports`).
        .target(name: "CWorkerWorld", cSettings: [.unsafeFlags(["-fno-omit-frame-pointer"])]),
        // The same world for models run in process, scoped to the models' own code.
        .target(name: "StoreWorld", dependencies: ["CWorkerWorld", "StoreHost", "StoreValue"], swiftSettings: strict),
        .executableTarget(
            name: "storesh-worker", dependencies: ["StoreWorker", "StoreHost", "StoreValue", "CWorkerWorld"],
            swiftSettings: strict,
            linkerSettings: worldExports),
        .executableTarget(
            name: "storesh-fuzz",
            dependencies: [
                "CStorePlugin", "StoreHost", "StoreShell", "StoreValue", "InspectorRelay", "InspectorHTTP",
                "StoreService", "MCPLines",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "store-demo",
            dependencies: ["ObservableStore", "Arboreal"],
            swiftSettings: strict
        ),
        // store-ratios (Benchmarks/Sources): throughput and ratios of the stores, the host and
        // the shell. In this package, not Benchmarks/, because it drives the host through its
        // package API; Benchmarks/ keeps package-benchmark's harness over StoreWorkloads.
        .target(
            name: "StoreWorkloads",
            dependencies: ["ObservableStore", "Arboreal"],
            path: "Benchmarks/Sources/StoreWorkloads"
        ),
        .target(
            name: "EmbeddingWorkloads",
            dependencies: ["StoreHost", "StoreShell", "StoreValue"],
            path: "Benchmarks/Sources/EmbeddingWorkloads"
        ),
        .executableTarget(
            name: "store-ratios",
            dependencies: ["StoreWorkloads", "EmbeddingWorkloads", "StoreHost", "StoreValue"],
            path: "Benchmarks/Sources/store-ratios"
        ),
        // Waiting and locking helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(
            name: "ObservableStoreTests",
            dependencies: [
                "ObservableStore", "StoreTesting", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict + [linuxModuleAliases]),
        // What the host's and the shell's tests share: plugins built at test time, hosts on a
        // virtual clock.
        .target(
            name: "HostTestSupport", dependencies: ["StoreHost", "StoreValue", "TestSupport"],
            path: "Tests/HostTestSupport", swiftSettings: strict),
        .testTarget(
            name: "StoreHostTests", dependencies: ["StoreHost", "StoreValue", "CStorePlugin", "HostTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "StoreValueTests", dependencies: ["StoreValue", "HostTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "StoreShellTests", dependencies: ["StoreShell", "StoreHost", "StoreValue", "HostTestSupport"],
            swiftSettings: strict),
        // End to end: runs the built storesh binary, in batch mode and through a pseudo-terminal.
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        .testTarget(
            name: "StoreshTests", dependencies: ["TestSupport", "CPseudoTerminal", "CEditLine", "StoreHost"],
            swiftSettings: strict),
        .testTarget(
            name: "StoreMCPTests",
            dependencies: [
                "StoreMCP", "MCPLines", "StoreService", "StoreShell", "StoreHost", "StoreValue", "HostTestSupport",
                .product(name: "MCP", package: "swift-sdk"),
            ], swiftSettings: strict),
        .testTarget(
            name: "StoreInspectorTests",
            dependencies: [
                "StoreInspector", "InspectorRelay", "StoreValue", "StoreService", "StoreShell", "StoreHost",
                "HostTestSupport",
            ], swiftSettings: strict),
        // Upstream's call sites in Swift 5 mode (not @MainActor, a Future capturing a
        // class): they compile without isolation diagnostics (docs/decisions/0007).
        .testTarget(
            name: "Swift5ModeTests", dependencies: ["ObservableStore", "TestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5), linuxModuleAliases]),
        .testTarget(
            name: "StoreTestingTests", dependencies: ["StoreTesting", "ObservableStore"], swiftSettings: strict),
        .testTarget(
            name: "ArborealTestingTests", dependencies: ["ArborealTesting", "Arboreal"], swiftSettings: strict),
        .testTarget(
            name: "StorePluginTests",
            dependencies: [
                // The macros' expansions as a library, not the macro target: a test target that
                // depends on a macro is built for the host too, with everything it depends on
                // (every test target and the shell, compiled twice).
                "PluginActionsExpansion", "StorePlugin", "CStorePlugin", "ObservableStore",
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        // The glue generator over odd and hostile model files; what it writes compiled beside them.
        .testTarget(name: "StoreGlueTests", dependencies: ["StoreGlue"], swiftSettings: strict),
        .testTarget(
            name: "ArborealTests",
            dependencies: [
                "Arboreal", "ArborealTesting", "TestSupport", .product(name: "OpenCombine", package: "OpenCombine"),
            ], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)

/// The deterministic world's functions, exported by the executables that link CWorkerWorld
/// so that plugins, Foundation, Dispatch and the Swift runtime bind to them — exactly these
/// names: exporting every symbol would let a plugin's own copies of our Swift modules bind
/// to the executable's.
var worldExports: [LinkerSetting] {
    [
        .unsafeFlags(
            [
                "clock_gettime", "gettimeofday", "time", "dispatch_time", "dispatch_walltime", "dispatch_after",
                "dispatch_after_f", "swift_stdlib_random", "syscall", "getrandom", "getentropy", "arc4random",
                "arc4random_buf", "open", "read", "close", "__sanitizer_cov_trace_pc_guard_init",
                "__sanitizer_cov_trace_pc_guard",
            ].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] })
    ]
}
