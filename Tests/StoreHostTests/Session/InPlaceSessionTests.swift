import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A plugin in C with a list of 100 identified items that reports its changes as `set`s.
/// `bump` changes item 5, then, as an effect's action would, item 6, and tells the host
/// that action was applied (`action_applied`) before its dispatch returns: the host reads
/// the state in the middle of the send.
private let echoSource = #"""
    #include "storeplugin.h"
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    enum { COUNT = 100 };
    typedef struct { const sp_store_context *context; int64_t values[COUNT]; int dirty[COUNT]; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        store_t *s = store;
        if (strcmp(action, "bump") != 0) return SP_ERR_UNKNOWN_ACTION;
        result->state_changed = 1;
        s->values[5] += 1; s->dirty[5] = 1;
        s->values[6] += 1; s->dirty[6] = 1;
        s->context->action_applied(s->context->user_data, "echo");
        return SP_OK;
    }

    static sp_value *item(store_t *s, int index) {
        char id[16];
        snprintf(id, sizeof id, "i%d", index);
        sp_value *record = host->value_record("Item");
        host->value_append(record, "id", host->value_string(id));
        host->value_append(record, "value", host->value_int(s->values[index]));
        return record;
    }

    static sp_value *snapshot(void *store) {
        store_t *s = store;
        sp_value *items = host->value_array();
        for (int i = 0; i < COUNT; i++) { host->value_append(items, NULL, item(s, i)); s->dirty[i] = 0; }
        sp_value *state = host->value_record("Echo");
        host->value_append(state, "items", items);
        return state;
    }

    static sp_value *snapshot_changes(void *store) {
        store_t *s = store;
        sp_value *changes = host->value_array();
        for (int i = 0; i < COUNT; i++) {
            if (!s->dirty[i]) continue;
            s->dirty[i] = 0;
            sp_value *path = host->value_array();
            host->value_append(path, NULL, host->value_string("items"));
            host->value_append(path, NULL, host->value_int(i));
            host->value_append(path, NULL, host->value_string("value"));
            sp_value *change = host->value_record("set");
            host->value_append(change, "path", path);
            host->value_append(change, "value", host->value_int(s->values[i]));
            host->value_append(changes, NULL, change);
        }
        return changes;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)error;
        store_t *s = calloc(1, sizeof(store_t));
        s->context = context;
        *out = s;
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_action actions[] = {
        { sizeof(sp_action), "bump", "Changes item 5, then item 6 as an effect's action.", NULL, 0, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "echo", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "echo", "Applies an effect's action inside a dispatch.", actions, 1, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL, snapshot_changes };
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("A session applies a plugin's changes in place and still diffs from before the action")
struct InPlaceSessionTests {
    /// The send's own read finds nothing new (the read in the middle took the changes):
    /// its diff must still be from the state before the send, not from that read.
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aReadInTheMiddleOfASendLeavesItsDiffWhole(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library("libecho.so", source: echoSource, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        try host.load(library)
        let session = try Session(model: host.model(named: "echo"), host: host)
        var applied: [[String]] = []
        session.onEvent = { event in
            if case .applied(_, let changes, _) = event { applied.append(changes.map(\.path)) }
        }
        for round in 1...3 {
            let result = try session.send(text: "bump")
            #expect(result.changes.map(\.path) == ["items[\"i5\"].value", "items[\"i6\"].value"], "round \(round)")
            #expect(result.changes.map(\.new) == [.int(Int64(round)), .int(Int64(round))])
        }
        #expect(applied.count == 3, "the effect's action was reported each time")
        guard case .array(let items)? = session.state["items"] else {
            Issue.record("no items in \(session.state.brief())")
            return
        }
        #expect(items[6]["value"] == .int(3) && items[5]["value"] == .int(3))
    }
}
