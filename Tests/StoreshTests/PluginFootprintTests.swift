import Foundation
import Testing

/// What loading a plugin brings into the process. Every library a plugin needs is loaded
/// with it, in storesh and in every worker: when the store libraries' `Combine` module took
/// in OpenCombineFoundation, each Swift plugin needed FoundationNetworking and with it curl,
/// TLS and Kerberos (30 libraries), and storesh's start-up and each plugin load doubled.
@Suite("What a plugin and storesh load")
struct PluginFootprintTests {
    /// The example plugins built next to the storesh under test.
    private var examplePlugins: [String] {
        let directory = URL(fileURLWithPath: storeshBinary).deletingLastPathComponent().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("libStoreshExample") && $0.hasSuffix(".so") }.sorted().map {
            directory + "/" + $0
        }
    }

    @Test func noExamplePluginNeedsFoundationNetworking() throws {
        let plugins = examplePlugins
        #expect(plugins.count >= 8, "the example plugins are built beside storesh: \(plugins)")
        for plugin in plugins { try expectNoNetworking(plugin) }
    }

    /// Every start of storesh and of each worker pays for the libraries they need: with the
    /// MCP SDK linked in, `storesh --version` took 18 ms instead of 10 (FoundationNetworking,
    /// curl and TLS). Only `storesh mcp`'s own program, `storesh-mcp`, may need them.
    @Test func neitherStoreshNorItsWorkerNeedsFoundationNetworking() throws {
        let directory = URL(fileURLWithPath: storeshBinary).deletingLastPathComponent().path
        try expectNoNetworking(storeshBinary)
        try expectNoNetworking(directory + "/storesh-worker")
    }

    /// Fails when the ELF file at `path` needs FoundationNetworking or curl, directly.
    private func expectNoNetworking(_ path: String) throws {
        let dynamic = try run("/usr/bin/env", ["readelf", "-d", path], input: Data())
        #expect(dynamic.status == 0, "readelf -d \(path): \(dynamic.stderr)")
        let needed = dynamic.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(!needed.isEmpty, "\(path) has a dynamic section")
        #expect(
            !needed.contains { $0.contains("FoundationNetworking") || $0.contains("libcurl") },
            "\(path) needs \(needed.filter { $0.contains("Networking") || $0.contains("curl") })")
    }
}
