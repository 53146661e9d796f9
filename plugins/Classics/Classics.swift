// Classics: eight classic buggy models for `storesh explore` (the ones stateful property-based
// testing tools are measured on), each in its plain form — no self-check, no reference model
// inside — and each twice: `heap` with its bug, `heapFixed` without it. The two share the
// state and the actions; the environment (`Build`) says which code runs, so a transcript
// written against one runs unchanged against the other (`storesh test --substitute
// classics.heap=classics.heapFixed`), and `--against` can compare them step by step.
// The properties that find each bug are in docs/shell/explore.md and scripts/explore-acceptance.
import ObservableStore
import StorePlugin

/// Which code a classic model runs: the one with the bug, or the one with it fixed.
enum Build: Sendable {
    case buggy, fixed
}

/// The model `name` in both builds: `name` (buggy) and `nameFixed`.
func bothBuilds<Model: ModelProtocol & Encodable>(
    _ name: String, doc: String, initial: @escaping @MainActor () -> Model
) -> [PluginModel] where Model.Action: PluginActions, Model.Environment == Build {
    [
        .observable(
            Model.self, name: name, doc: doc + " (with the bug)", initial: initial, environment: { _ in .buggy }),
        .observable(
            Model.self, name: name + "Fixed", doc: doc + " (the bug fixed)", initial: initial,
            environment: { _ in .fixed }),
    ]
}

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "classics", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(
        host: host, error: error,
        models: bothBuilds(
            "jugs", doc: "The Die Hard jugs: can the big jug hold exactly 4 gallons?", initial: { Jugs() })
            + bothBuilds("buffer", doc: "Hughes' circular buffer of three", initial: { CircularBuffer() })
            + bothBuilds("registry", doc: "An Erlang-style process registry", initial: { ProcessRegistry() }).map {
                $0.postcondition(ProcessRegistry.killFreesTheName, ProcessRegistry.killFreesItsName)
            }
            + bothBuilds("heap", doc: "A binary min-heap", initial: { MinHeap() })
            + bothBuilds("kv", doc: "A Bitcask-style key-value store with compaction", initial: { KeyValueStore() })
            + bothBuilds("overflow", doc: "A 32-bit running total", initial: { Total32() })
            + bothBuilds("escaping", doc: "A text saved quoted and read back", initial: { QuotedText() })
            + bothBuilds("lock", doc: "A combination lock of five presses", initial: { CombinationLock() }))
}
