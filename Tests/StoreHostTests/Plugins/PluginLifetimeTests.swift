import Foundation
import HostTestSupport
import StoreHost
import Testing

/// A plugin that keeps the host's table, as every plugin does, and reads the host clock
/// through it whenever asked: what an effect's task does when it starts late.
private let keeperSource = #"""
    #include "storeplugin.h"
    #include <stdlib.h>

    static const storeplugin_host *host;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)store; (void)action; (void)arguments; (void)result; (void)error;
        return SP_OK;
    }
    static sp_value *snapshot(void *store) { (void)store; return host->value_record("Keeper"); }
    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, 1);
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    /* Called by the test after the host that loaded this plugin is gone. */
    int64_t keeper_clock_now(void) { return host->clock_now(host->host_data); }

    static const sp_action actions[] = { { sizeof(sp_action), "noop", "Does nothing.", NULL, 0, NULL, NULL, NULL } };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "keeper", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "keeper", "Keeps the host's table.", actions, 1, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL };
        return host->register_model(host->host_data, &model, error);
    }
    """#

/// Plugins are never unloaded, so their code can call the host's table after the host
/// is gone (a test's host; an effect's task that starts after its store was destroyed).
/// Before, the table's context went with the host, and such a call read freed memory: a
/// run of the whole suite crashed in Auth's clock read, `swift_unownedRetainStrong`.
@MainActor
@Suite("A plugin that outlives its host")
struct PluginLifetimeTests {
    @Test func itsCallsStillReachTheClock() async throws {
        let library = try await Fixtures.library("libkeeper.so", source: keeperSource, in: Fixtures.directory())
        let clock = VirtualClock()
        clock.advance(by: 42_000_000_000)
        var host: PluginHost? = PluginHost(clock: clock, searchPath: [])
        try host?.load(library)
        weak let gone = host
        host = nil
        #expect(gone == nil, "the host is released")
        let handle = try #require(dlopen(library, RTLD_NOW | RTLD_NOLOAD))
        let symbol = try #require(dlsym(handle, "keeper_clock_now"))
        let now = unsafeBitCast(symbol, to: (@convention(c) () -> Int64).self)
        #expect(now() == 42_000_000_000)
    }
}
