// swift-tools-version: 6.1
// package-benchmark's statistics for storesh's store libraries. A separate package, so that
// users of the libraries never build the benchmark harness. Run from this folder:
//   swift package benchmark            (package-benchmark: full statistics)
// store-ratios (throughput and ratios to the raw update loop, the host, the shell) is a
// target of the root package, since it measures the host through its package API:
//   swift run -c release store-ratios  (at the root)
import PackageDescription

let package = Package(
    name: "StoreshBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "storesh", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The store libraries' workloads (Sources/StoreWorkloads: public API only), which the
        // root package's store-ratios also builds, under its own name there.
        .target(
            name: "Workloads",
            dependencies: [
                .product(name: "ObservableStore", package: "storesh"),
                .product(name: "Arboreal", package: "storesh"),
            ],
            path: "Sources/StoreWorkloads"
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
