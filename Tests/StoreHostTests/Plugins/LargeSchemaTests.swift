import Foundation
import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A plugin in C whose model declares 30,000 actions (`a0` … `a29999`, each setting `last`
/// to its number), or — with `SLOW_REGISTER` defined — takes three seconds to register.
private let manyActionsSource = #"""
    #include "storeplugin.h"
    #include <stdio.h>
    #include <stdlib.h>
    #include <unistd.h>
    #define COUNT 30000

    static const storeplugin_host *host;
    static sp_action actions[COUNT];
    static char names[COUNT][8];
    typedef struct { int64_t last; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        ((store_t *)store)->last = atoll(action + 1);
        result->state_changed = 1;
        return SP_OK;
    }
    static sp_value *snapshot(void *store) {
        sp_value *state = host->value_record("Many");
        host->value_append(state, "last", host->value_int(((store_t *)store)->last));
        return state;
    }
    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "many", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
    #ifdef SLOW_REGISTER
        sleep(3);
    #endif
        for (int i = 0; i < COUNT; i++) {
            snprintf(names[i], sizeof names[i], "a%d", i);
            actions[i] = (sp_action){ sizeof(sp_action), names[i], NULL, NULL, 0, NULL, NULL, NULL };
        }
        sp_model model = { sizeof(sp_model), "many", "Declares many actions.", actions, COUNT, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL, NULL };
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("Large schemas load in linear time")
struct LargeSchemaTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func thirtyThousandActionsLoadAndTheLastOneWorks(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library("libmany.so", source: manyActionsSource, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        // A worker has the default 5 s to load it: registration used to compare every
        // action with every one before it (20,000 took 20 s).
        try host.load(library)
        let model = try host.model(named: "many")
        #expect(model.actions.count == 30_000)
        let session = try Session(model: model, host: host)
        _ = try session.send(text: "a29999")
        #expect(session.state["last"] == .int(29_999))
    }

    @Test func aPluginThatDoesNotFinishLoadingIsSaidToBeSlowNotCrashed() async throws {
        let library = try await Fixtures.library(
            "libslow.so", source: "#define SLOW_REGISTER\n" + manyActionsSource, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = .workers
        host.actionTimeout = 1
        #expect {
            try host.load(library)
        } throws: { error in
            let text = "\(error)"
            return text.contains(
                "the plugin did not finish loading within 1s; its worker was stopped (--action-timeout sets the limit)")
                && !text.contains("crashed")
        }
    }
}
