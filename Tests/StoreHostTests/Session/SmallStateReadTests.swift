import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A plugin in C whose `snapshot_changes` has nothing to report (NULL, as the SDK says for
/// a small state) and counts how often it was asked; `grow` makes the state big.
private let quietChangesSource = #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; int64_t asked; int64_t items; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        store_t *s = store;
        result->state_changed = 1;
        if (strcmp(action, "increment") == 0) { s->count += 1; return SP_OK; }
        if (strcmp(action, "grow") == 0) { s->items = 100; return SP_OK; }
        return SP_ERR_UNKNOWN_ACTION;
    }

    static sp_value *snapshot(void *store) {
        store_t *s = store;
        sp_value *state = host->value_record("Quiet");
        host->value_append(state, "count", host->value_int(s->count));
        host->value_append(state, "asked", host->value_int(s->asked));
        sp_value *items = host->value_array();
        for (int64_t i = 0; i < s->items; i++) host->value_append(items, NULL, host->value_int(i));
        host->value_append(state, "items", items);
        return state;
    }

    static sp_value *snapshot_changes(void *store) {
        ((store_t *)store)->asked += 1;
        return NULL;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_action actions[] = {
        { sizeof(sp_action), "increment", "Adds one.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "grow", "Makes the state big.", NULL, 0, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "quiet", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "quiet", "Has no changes to report.", actions, 2, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL, snapshot_changes };
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("A small state the plugin cannot report changes of is read whole, in one call")
struct SmallStateReadTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func theHostStopsAskingForChangesUntilTheStateIsBig(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library("libquiet.so", source: quietChangesSource, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        try host.load(library)
        let session = try Session(model: host.model(named: "quiet"), host: host)
        for _ in 0..<5 { _ = try session.send(text: "increment") }
        // The first read asked and heard nothing; the state was small, so the next four
        // went straight to a snapshot.
        #expect(session.state["asked"] == .int(1))
        #expect(session.state["count"] == .int(5), "every action is in the state")
        _ = try session.send(text: "grow")
        for _ in 0..<3 { _ = try session.send(text: "increment") }
        // Big again: each read asks first (and, told nothing, reads the whole state).
        #expect(session.state["asked"] == .int(4), "\(session.state.brief())")
        #expect(session.state["count"] == .int(8))
    }
}
