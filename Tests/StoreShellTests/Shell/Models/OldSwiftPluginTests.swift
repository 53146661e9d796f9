import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import TestSupport
import Testing

/// A plugin built against the header before `sp_param` grew, its parameters laid out by
/// Swift code (as the SDK does). Swift knows an imported C struct by its tag across the
/// process: while the grown struct kept the tag `sp_param`, this plugin's array was laid
/// out at the host's 48 bytes and declared 32 ("parameter 0 has type \"\"").
@MainActor
@Suite("a Swift plugin built against the earlier header")
struct OldSwiftPluginTests {
    static let oldParam = """
        typedef struct sp_param {
            uint32_t struct_size;
            const char *label;
            const char *type;
            const char *doc;
        } sp_param;
        """

    static let cPart = #"""
        #include "storeplugin.h"
        #include <stdlib.h>
        static const storeplugin_host *host;
        const sp_param *swift_params(void);
        typedef struct { int64_t count; } store_t;
        static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
            (void)error; (void)action;
            ((store_t *)store)->count += arguments->items[1]->scalar.integer;
            result->state_changed = 1;
            return SP_OK;
        }
        static sp_value *snapshot(void *store) {
            sp_value *state = host->value_record(NULL);
            host->value_append(state, "count", host->value_int(((store_t *)store)->count));
            return state;
        }
        static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
            (void)data; (void)context; (void)error; *out = calloc(1, sizeof(store_t)); return SP_OK;
        }
        static void destroy(void *store) { free(store); }
        static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "oldswift", "1.0.0", 0 };
        const storeplugin_info *storeplugin_info_v1(void) { return &info; }
        int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
            host = h;
            static sp_action actions[1];
            sp_action a = { sizeof(sp_action), "add", "Adds.", swift_params(), 2, NULL, NULL, NULL };
            actions[0] = a;
            sp_model model = { sizeof(sp_model), "old", "Params laid out in Swift.", actions, 1, NULL, 0, NULL,
                create, destroy, dispatch, snapshot, NULL, NULL };
            return host->register_model(host->host_data, &model, error);
        }
        """#

    static let swiftPart = """
        import Glibc
        @_cdecl("swift_params") public func swiftParams() -> UnsafePointer<sp_param> {
            let params = UnsafeMutablePointer<sp_param>.allocate(capacity: 2)
            let size = UInt32(MemoryLayout<sp_param>.size)
            params[0] = sp_param(struct_size: size, label: strdup("who"), type: strdup("string"), doc: nil)
            params[1] = sp_param(struct_size: size, label: strdup("n"), type: strdup("int"), doc: nil)
            return UnsafePointer(params)
        }
        """

    private func run(_ arguments: [String], in directory: URL) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        try #require(try await runToExit(process) == 0, "\(arguments.joined(separator: " ")) failed")
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func itsParametersReadAsItWroteThem(isolation: PluginHost.Isolation) async throws {
        let directory = try Fixtures.directory()
        var header = try String(contentsOfFile: Fixtures.header + "/storeplugin.h", encoding: .utf8)
        let start = try #require(header.range(of: "typedef struct sp_param_v2 {"))
        let end = try #require(header.range(of: "} sp_param;", range: start.upperBound..<header.endIndex))
        header.replaceSubrange(start.lowerBound..<end.upperBound, with: Self.oldParam)
        try header.write(to: directory.appendingPathComponent("storeplugin.h"), atomically: true, encoding: .utf8)
        try Self.cPart.write(to: directory.appendingPathComponent("part.c"), atomically: true, encoding: .utf8)
        try Self.swiftPart.write(
            to: directory.appendingPathComponent("params.swift"), atomically: true, encoding: .utf8)
        try await run([Fixtures.compiler(), "-c", "-fPIC", "-I", ".", "part.c", "-o", "part.o"], in: directory)
        try await run(
            [
                "swiftc", "-Onone", "-emit-library", "-module-name", "OldSwift", "-import-objc-header", "storeplugin.h",
                "params.swift", "part.o", "-o", "libOldSwift.so",
            ], in: directory)
        let shell = try ShellHarness(
            plugins: [directory.appendingPathComponent("libOldSwift.so").path], isolation: isolation)
        #expect(await shell.run(":actions") == ["add(who: string, n: int)  Adds."])
        #expect(await shell.run(#"add who: "a", n: 2"#).contains("  ~ count: 0 → 2"))
    }
}
