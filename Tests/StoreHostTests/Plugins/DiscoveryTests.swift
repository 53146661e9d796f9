import Foundation
import HostTestSupport
import StoreHost
import Testing

@MainActor
@Suite("Finding plugins")
struct DiscoveryTests {
    @Test func everyExamplePluginIsFoundInTheBuildDirectory() {
        let names = Set(makeHost().availablePlugins().map(\.name))
        #expect(names.isSuperset(of: ["Counter", "CCounter", "Todos", "Auth", "Composite", "ArborealCounter"]))
    }

    /// What a file in a searched directory names: a library's name without `lib`, its
    /// extension and the examples' prefix; nothing for other files.
    @Test(arguments: [
        ("libCounter.so", "Counter"), ("libStoreshExampleCounter.so", "Counter"), ("Cart.so", "Cart"),
        ("libGreeter.dylib", "Greeter"), ("libx.y.so", "x.y"), ("libStoreshExample.so", "StoreshExample"),
    ])
    func aLibraryFileNamesItsPlugin(file: String, name: String) {
        #expect(PluginHost.pluginName(fromFile: file) == name)
    }

    @Test(arguments: [
        "lib.so", ".so", "libfoo.so.1", "notes.txt", "Counter.swiftmodule", "so", "libCounter.o", "Counter.build",
    ])
    func anotherFileNamesNone(file: String) {
        #expect(PluginHost.pluginName(fromFile: file) == nil)
    }

    @Test func searchPathOrder() {
        let path = PluginHost.defaultSearchPath(
            extra: ["/a", "/b"], environment: ["STORESH_PLUGIN_PATH": "/c:/d", "HOME": "/home/me"])
        #expect(Array(path.prefix(5)) == ["/a", "/b", "/c", "/d", "/home/me/.local/share/storesh/plugins"])
        #expect(path.count == 6, "and last, the directory of the running program")
    }

    @Test func aLibraryDroppedIntoASearchedDirectoryLoadsByName() throws {
        let directory = try Fixtures.directory()
        try FileManager.default.copyItem(
            atPath: buildDirectory + "/libStoreshExampleCCounter.so",
            toPath: directory.appendingPathComponent("libMyCounter.so").path)
        let host = PluginHost(clock: VirtualClock(), searchPath: [directory.path, buildDirectory])
        #expect(host.availablePlugins().first?.name == "MyCounter")
        let plugin = try host.load("mycounter")
        #expect(plugin.path.hasSuffix("libMyCounter.so"))
        #expect(plugin.models.map(\.name) == ["ccounter"])
    }

    @Test func aLibraryIsFoundByItsFileNameInEverySearchedDirectory() throws {
        let first = try Fixtures.directory()
        let second = try Fixtures.directory()
        try FileManager.default.copyItem(
            atPath: buildDirectory + "/libStoreshExampleCCounter.so",
            toPath: second.appendingPathComponent("libCart.so").path)
        let host = PluginHost(clock: VirtualClock(), searchPath: [first.path, second.path])
        let plugin = try host.load("libCart.so")
        #expect(plugin.path == second.appendingPathComponent("libCart.so").path)
        #expect(throws: PluginError.notFound(name: "libNope.so", searched: [".", first.path, second.path])) {
            try host.load("libNope.so")
        }
    }

    @Test func loadingTheSameFileTwiceIsRefused() throws {
        let host = makeHost()
        try host.load("Counter")
        #expect(throws: PluginError.self) { try host.load("Counter") }
        #expect(host.plugins.count == 1)
    }
}
