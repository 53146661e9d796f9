// swift-tools-version: 6.1
// Benchmarks for storesh's store libraries. A separate package, so that users of the
// libraries never build the benchmark harness. Run from this folder:
//   swift package benchmark            (package-benchmark: full statistics)
//   swift run -c release store-ratios  (throughput and ratios to the raw update loop)
// The plugin figures load the example plugins the root package builds: run
// `swift build -c release` at the root first (or pass --plugins DIR).
import PackageDescription

let package = Package(
    name: "StoreshBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "storesh", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The measured workloads, shared by both executables.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "ObservableStore", package: "storesh"),
                .product(name: "Arboreal", package: "storesh"),
                .product(name: "StoreHost", package: "storesh"),
                .product(name: "StoreShell", package: "storesh"),
                .product(name: "StoreValue", package: "storesh"),
            ]
        ),
        .executableTarget(
            name: "store-ratios",
            dependencies: ["Workloads"]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "Workloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
