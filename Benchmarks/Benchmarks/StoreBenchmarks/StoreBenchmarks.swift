// package-benchmark suite: run with `swift package benchmark` from Benchmarks/.
// Each store workload sits beside the raw update loop it is compared with; the
// `store-ratios` executable prints the ratios directly.
import Benchmark
import Workloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        scalingFactor: .mega,
        maxDuration: .seconds(2)
    )

    Benchmark("ObservableStore raw update loop") { benchmark in
        blackHole(Workloads.rawUpdateLoop(benchmark.scaledIterations.count))
    }
    Benchmark("ObservableStore Store.send") { benchmark in
        blackHole(await Workloads.storeSend(benchmark.scaledIterations.count))
    }
    // Issue 37's floor: a count and 100 strings, and child actions through a parent.
    Benchmark("ObservableStore raw update loop, count + 100 strings") { benchmark in
        blackHole(Workloads.rawListUpdateLoop(benchmark.scaledIterations.count))
    }
    Benchmark("ObservableStore Store.send, count + 100 strings") { benchmark in
        blackHole(await Workloads.listStoreSend(benchmark.scaledIterations.count))
    }
    Benchmark("ObservableStore child action, update(get:set:tag:)") { benchmark in
        blackHole(await Workloads.listChildSend(benchmark.scaledIterations.count))
    }
    Benchmark("ObservableStore child action, viewStore(get:tag:)") { benchmark in
        blackHole(await Workloads.listViewStoreSend(benchmark.scaledIterations.count))
    }
    Benchmark("ObservableStore effect round trip", configuration: .init(scalingFactor: .kilo)) { benchmark in
        blackHole(await Workloads.storeEffectRoundTrip(benchmark.scaledIterations.count))
    }
    Benchmark("Arboreal raw update loop") { benchmark in
        blackHole(await Workloads.rawArborealLoop(benchmark.scaledIterations.count))
    }
    Benchmark("Arboreal Store.send") { benchmark in
        blackHole(await Workloads.arborealSend(benchmark.scaledIterations.count))
    }
    Benchmark("Arboreal effect round trip", configuration: .init(scalingFactor: .kilo)) { benchmark in
        blackHole(await Workloads.arborealEffectRoundTrip(benchmark.scaledIterations.count))
    }
}
