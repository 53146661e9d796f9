import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// A C plugin that writes its parameters' shapes and defaults by hand, beside an action
/// whose parameters are laid out as before those fields existed (struct_size 32).
private func shapedPluginSource(shape: String, defaultValue: String) -> String {
    #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <string.h>

    /* sp_param as it was before shape and default_value. */
    typedef struct { uint32_t struct_size; const char *label, *type, *doc; } old_param;

    static const storeplugin_host *host;
    typedef struct { char via[32]; int64_t count; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)error;
        store_t *s = store;
        if (strcmp(action, "ship") == 0) {
            strncpy(s->via, arguments->items[1]->text, sizeof(s->via) - 1);
        } else if (strcmp(action, "add") == 0) {
            s->count += arguments->items[0]->scalar.integer;
        }
        result->state_changed = 1;
        return SP_OK;
    }

    static sp_value *snapshot(void *store) {
        sp_value *state = host->value_record(NULL);
        host->value_append(state, "via", host->value_string(((store_t *)store)->via));
        host->value_append(state, "count", host->value_int(((store_t *)store)->count));
        return state;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_param ship_params[] = {
        { sizeof(sp_param), "sku", "string", "the product", NULL, NULL },
        { sizeof(sp_param), "via", "string", "how it travels", "\#(shape)", "\#(defaultValue)" },
    };
    static const old_param add_params[] = { { sizeof(old_param), NULL, "int", "how many" } };
    static const sp_action actions[] = {
        { sizeof(sp_action), "ship", "Ships a product.", ship_params, 2, NULL, NULL, NULL },
        { sizeof(sp_action), "add", "Adds some.", (const sp_param *)add_params, 1, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "shaped", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "post", "Parcels by post.", actions, 2, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL };
        return host->register_model(host->host_data, &model, error);
    }
    """#
}

private let viaShape =
    #"{choice: \"Via\", cases: [{case: \"ground\", raw: \"ground\"}, {case: \"air\", raw: \"air\"}]}"#

@MainActor
@Suite("a C plugin's parameter shapes and defaults (sp_param.shape, default_value)")
struct ParamShapeABITests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aHandWrittenShapeIsCheckedShownAndDefaulted(isolation: PluginHost.Isolation) async throws {
        let library = try await Fixtures.library(
            "libshaped.so", source: shapedPluginSource(shape: viaShape, defaultValue: #"\"ground\""#),
            in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library], isolation: isolation)
        #expect(
            await shell.run(":actions") == [
                #"ship(sku: string, via: Via = "ground")  Ships a product."#,
                #"    Via: "ground" | "air""#,
                "add(int)" + String(repeating: " ", count: 32) + "Adds some.",
            ])
        #expect(await shell.run(#"ship sku: "a""#).contains("  ~ via: \"\" → \"ground\""))
        #expect(await shell.run(#"ship sku: "a", via: "air""#).contains("  ~ via: \"ground\" → \"air\""))
        #expect(
            await shell.run(#"ship sku: "a", via: "boat""#) == [
                #"t.storesh:1:21: error: ship: via: "boat" is not one of "ground", "air""#,
                #"  ship sku: "a", via: "boat""#,
                String(repeating: " ", count: 22) + "^",
            ])
        #expect(await shell.run("add 2").contains("  ~ count: 0 → 2"), "an old-size sp_param still loads")
        let line = "ship sku: \"a\", via: "
        #expect(shell.core.completions(line: line, cursor: line.utf8.count).candidates == [#""air""#, #""ground""#])
    }

    @Test func aShapeOrDefaultThatDoesNotReadOrFitIsARegistrationErrorNamingTheParameter() async throws {
        let cases = [
            (#"{choice: \"Via\", cases: [{case: \"ground\""#, #"\"ground\""#, "does not read: column"),
            (#"{list: \"string\"}"#, #"\"ground\""#, "its shape [string] cannot travel as type string"),
            (viaShape, #"\"boat\""#, #"its default "boat" does not fit: "boat" is not one of "ground", "air""#),
        ]
        for (index, (shape, defaultValue, expected)) in cases.enumerated() {
            let library = try await Fixtures.library(
                "libbad\(index).so", source: shapedPluginSource(shape: shape, defaultValue: defaultValue),
                in: Fixtures.directory())
            let host = makeHost()
            do {
                _ = try host.load(library)
                Issue.record("\(shape) loaded")
            } catch {
                #expect(error.description.contains("model 'post', action 'ship': parameter 'via': "), "\(error)")
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }
}
