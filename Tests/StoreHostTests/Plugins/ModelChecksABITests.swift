import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A C model with checks in code (`sp_model.checks`, `check`): "below three", an
/// invariant that says what it found, and "increment adds one", a postcondition of the
/// last action, which the plugin keeps itself.
private let checkedSource = #"""
    #include "storeplugin.h"
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; int64_t before; int last; } store_t;  /* last: 0 none, 1 increment, 2 double */

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        store_t *s = store;
        s->before = s->count;
        s->last = 0;
        if (strcmp(action, "increment") == 0) { s->count += 1; s->last = 1; }
        else if (strcmp(action, "double") == 0) { s->count *= 2; s->last = 2; }
        else if (strcmp(action, "slip") == 0) { s->count += 2; s->last = 1; }  /* an increment that adds two */
        else return SP_ERR_UNKNOWN_ACTION;
        result->state_changed = 1;
        return SP_OK;
    }
    static sp_value *snapshot(void *store) {
        sp_value *state = host->value_record("Checked");
        host->value_append(state, "count", host->value_int(((store_t *)store)->count));
        return state;
    }
    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error; *out = calloc(1, sizeof(store_t)); return SP_OK;
    }
    static void destroy(void *store) { free(store); }
    static int32_t check(void *store, uint32_t index, int32_t *holds, sp_error *error) {
        store_t *s = store;
        if (index == 0) {
            *holds = s->count < 3;
            if (!*holds) snprintf(error->message, sizeof error->message, "count is %lld", (long long)s->count);
            return SP_OK;
        }
        if (index == 1) { *holds = s->last != 1 || s->count == s->before + 1; return SP_OK; }
        snprintf(error->message, sizeof error->message, "no check %u", index);
        return SP_ERR_INTERNAL;
    }

    static const sp_action actions[] = {
        { sizeof(sp_action), "increment", "Adds one.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "double", "Doubles.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "slip", "Increments by two.", NULL, 0, NULL, NULL, NULL },
    };
    static const sp_check checks[] = {
        { sizeof(sp_check), SP_CHECK_INVARIANT, "below three", "The count stays below 3." },
        { sizeof(sp_check), SP_CHECK_POSTCONDITION, "increment adds one", NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "checked", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "checked", "Checks itself.", actions, 3, NULL, 0, NULL,
            create, destroy, dispatch, snapshot };
        model.checks = CHECKS;
        model.check_count = CHECK_COUNT;
        model.check = CHECK;
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("Checks in a model's code (sp_model.checks): read at registration, asked for by index")
struct ModelChecksABITests {
    private func source(checks: String = "checks", count: String = "2", check: String = "check") -> String {
        checkedSource.replacingOccurrences(of: "CHECKS", with: checks)
            .replacingOccurrences(of: "CHECK_COUNT", with: count)
            .replacingOccurrences(of: "= CHECK;", with: "= \(check);")
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aCheckIsAskedForOnTheStoreNow(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library("libchecked.so", source: source(), in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        try host.load(library)
        let model = try host.model(named: "checked")
        #expect(
            model.checks == [
                ModelCheck(name: "below three", isPostcondition: false, doc: "The count stays below 3."),
                ModelCheck(name: "increment adds one", isPostcondition: true),
            ])
        let session = try Session(model: model, host: host)
        #expect(try session.check(0) == CheckVerdict(holds: true))
        _ = try session.send(text: "increment")
        _ = try session.send(text: "double")
        #expect(try session.check(0) == CheckVerdict(holds: true))
        #expect(try session.check(1) == CheckVerdict(holds: true), "the last action was not an increment")
        _ = try session.send(text: "increment")
        #expect(try session.check(0) == CheckVerdict(holds: false, message: "count is 3"))
        #expect(try session.check(1) == CheckVerdict(holds: true))
        _ = try session.send(text: "slip")
        #expect(try session.check(1) == CheckVerdict(holds: false), "an increment that added two")
        #expect(throws: SessionError.self) { try session.check(2) }
    }

    @Test(arguments: [
        ("checks", "65", "check", "check_count is 65; at most 64"),
        ("NULL", "2", "check", "check_count is 2 but checks is NULL"),
        ("checks", "2", "NULL", "it declares 2 checks but check is NULL"),
        ("twins", "2", "check", #"two checks are named "below three""#),
        (
            "oddKind", "1", "check",
            #"check "below three" has kind 7; expected SP_CHECK_INVARIANT (0) or SP_CHECK_POSTCONDITION (1)"#
        ),
        ("unnamed", "1", "check", "check 0 has no name"),
    ])
    func aMalformedListIsRefusedSayingWhat(checks: String, count: String, check: String, refusal: String) async throws {
        let extra = """
            static const sp_check twins[] = {
                { sizeof(sp_check), SP_CHECK_INVARIANT, "below three", NULL },
                { sizeof(sp_check), SP_CHECK_POSTCONDITION, "below three", NULL },
            };
            static const sp_check oddKind[] = { { sizeof(sp_check), 7, "below three", NULL } };
            static const sp_check unnamed[] = { { sizeof(sp_check), SP_CHECK_INVARIANT, NULL, NULL } };

            """
        let text = source(checks: checks, count: count, check: check)
            .replacingOccurrences(
                of: "static const storeplugin_info info", with: extra + "static const storeplugin_info info")
        let library = try await Fixtures.library("libbadchecks.so", source: text, in: Fixtures.directory())
        let host = makeHost()
        do {
            try host.load(library)
            Issue.record("loaded")
        } catch {
            guard case .registrationFailed(_, _, let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains("model 'checked': " + refusal), "\(message)")
        }
    }
}
