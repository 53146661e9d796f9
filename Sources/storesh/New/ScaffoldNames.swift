import StoreHost

/// The names a new Swift plugin cannot take: the package `storesh new` makes for it must
/// build as made. A model named `class` is not Swift; one named `Update` hides the `Update`
/// its `update` returns; a target named `StoreValue` clashes with storesh's own (SwiftPM
/// wants target names unique across the package graph). storesh's example plugins are
/// `StoreshExample…` targets, so the names tutorials use (Counter, Todos, Cart) are free.
/// The C template uses the name only in text and file names, so a C plugin may take any
/// of them.
extension Scaffold {
    /// Why `name` cannot name a new Swift plugin, or nil.
    static func unusableName(_ name: String) -> String? {
        if swiftKeywords.contains(name) { return "'\(name)' is a Swift keyword" }
        if namesInScaffold.contains(name) { return "'\(name)' is a name the new plugin's code already uses" }
        if typesTheCodeRelies.contains(name) {
            return "'\(name)' is a type the new plugin's code and its macros rely on"
        }
        if name.hasPrefix(PluginHost.examplePrefix) {
            return "'\(name)' starts with '\(PluginHost.examplePrefix)', which names storesh's example plugins"
        }
        if targetsInGraph.contains(name) {
            return
                "'\(name)' is a target of storesh's package or of one it depends on (SwiftPM wants target names unique across the package graph)"
        }
        return nil
    }

    /// Swift's keywords, and the contextual ones a type cannot be named without backticks.
    private static let swiftKeywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "precedencegroup",
        "private", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        "Any", "Protocol", "Self", "Type", "any", "as", "async", "await", "false", "is", "nil", "self", "some",
        "super", "throws", "true", "try",
    ]

    /// Every identifier the Swift template's code uses (Package.swift and the model), but
    /// the ones made from the name. `ScaffoldTests` checks that each is refused.
    private static let namesInScaffold: Set<String> = [
        "Action", "Codable", "Environment", "Fx", "HostClock", "Int", "Int32", "ModelProtocol", "ObservableStore",
        "Package", "PackageDescription", "PluginActions", "PluginModel", "PluginState", "Sendable", "StorePlugin",
        "UnsafeMutableRawPointer", "UnsafeRawPointer", "Update", "WireStateWritable", "WireStateWriter",
        "action", "cdecl", "clock", "count", "dependencies", "doc", "dynamic", "environment", "error", "fx", "host",
        "increment", "incrementLater", "info", "initial", "library", "macOS", "models", "name", "next",
        "observable", "path", "platforms", "pluginInfo", "pluginRegister", "product", "products", "register",
        "seconds", "setCount", "sleep", "state", "target", "targets", "task", "type", "update", "v14", "version",
    ]

    /// Standard library types the model and the code `@PluginActions` writes for it rely
    /// on: a model named `Error` or `String` would hide them.
    private static let typesTheCodeRelies: Set<String> = [
        "ActionSchema", "Array", "Bool", "CChar", "Character", "Decodable", "Dictionary", "Double", "Duration",
        "Encodable",
        "Equatable", "Error", "Float", "GeneratedGlue", "GeneratedInitialState", "GeneratedModelFacts", "Hashable",
        "Int64", "Never", "Optional", "PluginActionSchemas", "Result", "Set",
        "String", "Task", "UnsafePointer", "Void",
    ]

    /// The targets of storesh's package (`ScaffoldTests` checks them against Package.swift)
    /// and of the packages it depends on, at the versions Package.swift names; and the
    /// system's modules.
    private static let targetsInGraph: Set<String> = [
        // storesh
        "Arboreal", "ArborealTesting", "ArborealTestingTests", "ArborealTests",
        "CEditLine", "CFFI", "CPseudoTerminal", "CStorePlugin",
        "ObservableStore", "ObservableStoreTests", "StoreHost", "StoreHostTests", "StorePlugin", "StorePluginMacros",
        "StorePluginTests", "StoreRuntime", "StoreShell", "StoreTesting", "StoreTestingShared", "StoreTestingTests",
        "HostTestSupport", "StoreShellTests", "StoreValue", "StoreValueTests", "StoreWorker", "StoreshTests",
        "TestSupport", "storesh",
        "StoreMCP", "StoreMCPTests", "StoreService", "StoreInspector", "StoreInspectorTests", "StoreshCommandLine",
        "storesh-mcp", "storesh-inspector", "InspectorRelay", "InspectorHTTP", "MCPLines", "StoreWorkloads",
        "EmbeddingWorkloads", "store-ratios",
        "CWorkerWorld", "StoreWorld", "PluginActionsExpansion", "PrebuiltTools", "StoreGlue", "StoreGlueTests",
        "storesh-glue", "StoreshGlue", "CStorePluginModel", "SwiftUIOnLinux", "CombineOnLinux", "OSLogOnLinux",
        "Swift5ModeTests",
        // the modules those stand in for (a plugin's target takes the stand-ins under these names)
        "SwiftUI",
        // FlyingFox (the inspector's server)
        "FlyingFox", "FlyingSocks", "CSystemLinux", "FlyingFoxTests", "FlyingSocksTests",
        // swift-sdk (MCP), eventsource, swift-system, swift-nio, swift-atomics, swift-collections
        "MCP", "MCPTests", "MCPConformanceServer", "MCPConformanceClient", "EventSource", "EventSourceTests",
        "CSystem", "SystemPackage", "SystemTests", "MemberImportVisibility",
        "CNIOAtomics", "CNIODarwin", "CNIOFreeBSD", "CNIOLLHTTP", "CNIOLinux", "CNIOOpenBSD", "CNIOPosix", "CNIOSHA1",
        "CNIOWASI",
        "CNIOWindows", "NIO", "NIOAsyncAwaitDemo", "NIOBase64Tests", "NIOChatClient", "NIOChatServer",
        "NIOConcurrencyHelpers",
        "NIOConcurrencyHelpersTests", "NIOCore", "NIOCoreTests", "NIODataStructuresTests", "NIOEchoClient",
        "NIOEchoServer", "NIOEmbedded",
        "NIOEmbeddedTests", "NIOFS", "NIOFSFoundationCompat", "NIOFSFoundationCompatTests", "NIOFSIntegrationTests",
        "NIOFSTests",
        "NIOFileSystem", "NIOFoundationCompat", "NIOFoundationCompatTests", "NIOFoundationEssentialsCompat", "NIOHTTP1",
        "NIOHTTP1Client",
        "NIOHTTP1Server", "NIOHTTP1Tests", "NIOMulticastChat", "NIOPerformanceTester", "NIOPosix", "NIOPosixTests",
        "NIOSingletonsTests",
        "NIOTCPEchoClient", "NIOTCPEchoServer", "NIOTLS", "NIOTLSTests", "NIOTestUtils", "NIOTestUtilsTests",
        "NIOTests",
        "NIOUDPEchoClient", "NIOUDPEchoServer", "NIOWebSocket", "NIOWebSocketClient", "NIOWebSocketServer",
        "NIOWebSocketTests",
        "_NIOBase64", "_NIOConcurrency", "_NIODataStructures", "_NIOFileSystem", "_NIOFileSystemFoundationCompat",
        "Atomics", "AtomicsTests", "_AtomicsShims",
        "BasicContainers", "BasicContainersTests", "BitCollections", "BitCollectionsTests", "Collections",
        "CollectionsModuleTests",
        "CollectionsTestSupportTests", "ContainersPreview", "ContainersTests", "DequeModule", "DequeTests",
        "HashTreeCollections",
        "HashTreeCollectionsTests", "HeapModule", "HeapTests", "InternalCollectionsUtilities", "OrderedCollections",
        "OrderedCollectionsTests", "RopeModuleTests", "SortedCollections", "SortedCollectionsTests",
        "TrailingElementsModule",
        "TrailingElementsTests", "UnstableContainersPreview", "UnstableHashedContainers", "UnstableSortedCollections",
        "_CollectionsTestSupport", "_RopeModule",
        // OpenCombine, swift-argument-parser, swift-custom-dump, swift-docc-plugin, swift-docc-symbolkit, swift-log
        "COpenCombineHelpers", "OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation", "OpenCombineShim",
        "ArgumentParser", "ArgumentParserTestHelpers", "ArgumentParserToolInfo", "GenerateDoccReference",
        "GenerateManual",
        "color", "math", "roll", "CustomDump", "Snippets", "SwiftDocCPlugin", "SwiftDocCPluginUtilities", "SymbolKit",
        "InMemoryLogging", "Logging",
        // swift-syntax, xctest-dynamic-overlay
        "SwiftBasicFormat", "SwiftCompilerPlugin", "SwiftCompilerPluginMessageHandling", "SwiftDiagnostics",
        "SwiftIDEUtils",
        "SwiftIfConfig", "SwiftLexicalLookup", "SwiftLibraryPluginProvider", "SwiftOperators", "SwiftParser",
        "SwiftParserDiagnostics", "SwiftRefactor", "SwiftSyntax", "SwiftSyntax509", "SwiftSyntax510", "SwiftSyntax600",
        "SwiftSyntax601", "SwiftSyntax602", "SwiftSyntax603", "SwiftSyntaxBuilder", "SwiftSyntaxMacroExpansion",
        "SwiftSyntaxMacros", "SwiftSyntaxMacrosGenericTestSupport", "SwiftSyntaxMacrosTestSupport",
        "SwiftWarningControl",
        "IssueReporting", "IssueReportingTestSupport", "XCTestDynamicOverlay",
        // the system's
        "Combine", "Dispatch", "Foundation", "Glibc", "Observation", "Swift", "Testing", "XCTest",
    ]
}
