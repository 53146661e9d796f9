import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// A gauge in C whose level is not measured yet: a NaN, as a model written in any language
/// keeps "no reading". `bump` changes only its count.
private let gaugeSource = #"""
    #include "storeplugin.h"
    #include <math.h>
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; double level; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        store_t *s = store;
        if (strcmp(action, "bump") == 0) { s->count += 1; result->state_changed = 1; return SP_OK; }
        return SP_ERR_REJECTED;
    }

    static sp_value *snapshot(void *store) {
        store_t *s = store;
        sp_value *state = host->value_record("Gauge");
        host->value_append(state, "count", host->value_int(s->count));
        host->value_append(state, "level", host->value_double(s->level));
        return state;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        store_t *s = calloc(1, sizeof(store_t));
        s->level = NAN;
        *out = s;
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_action actions[] = {
        { sizeof(sp_action), "bump", "Adds one to the count.", NULL, 0, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "gauge", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "gauge", "A count, and a level not measured yet.", actions, 1, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, dispatch, NULL };
        return host->register_model(host->host_data, &model, error);
    }
    """#

/// A double that is not a number is still the same value when it did not change: a diff
/// reports only what changed, and a state equals itself.
@MainActor
@Suite("States holding NaN")
struct NotANumberTests {
    @Test func aNaNEqualsItselfAndHashesAlike() {
        let state = Value.record(["count": .int(1), "level": .double(.nan)], type: "Gauge")
        #expect(state == state)
        #expect(Value.double(.nan) == .double(.nan))
        #expect(Set([Value.double(.nan), .double(.nan)]).count == 1)
        // A NaN is not a number, and a number is not a NaN; zero's two signs are one number.
        #expect(Value.double(.nan) != .double(0))
        #expect(Value.double(-0.0) == .double(0.0))
        #expect(Value.double(-0.0).hashValue == Value.double(0.0).hashValue)
        #expect(StateDiff.changes(from: state, to: state).isEmpty)
    }

    /// Before, every action that changed anything reported `level: nan → nan` as well, in
    /// process and in a worker, with `--format json` and in the tree.
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aNaNThatStaysIsNotInTheDiff(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library("libgauge.so", source: gaugeSource, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library], isolation: isolation)
        #expect(
            await shell.run("bump", "bump") == [
                "bump: state changed", "  ~ count: 0 → 1", "bump: state changed", "  ~ count: 1 → 2",
            ])
        shell.formatter = OutputFormatter(format: .json)
        #expect(
            await shell.run("bump") == [
                #"{"kind":"action","action":"bump","name":"bump","changed":true,"effects":0,"diff":[{"op":"changed","path":"count","old":2,"new":3}]}"#
            ])
    }
}
