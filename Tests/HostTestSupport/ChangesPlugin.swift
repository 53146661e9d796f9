/// A counter in C whose `snapshot_changes` says what `mode N` tells it to: the truth (0),
/// a path the state does not have (1), NULL (2), something that is not a list (3), a
/// splice of a record (4), or a change to the wrong field (5: a lie that fits).
package let changesPluginSource = changesPluginTemplate.replacingOccurrences(of: "/* ENCODED */", with: "")

/// The same counter with only `snapshot_changes_encoded`, which writes the same answers as
/// bytes (NULL is a refusal), and for modes 6-8 bytes that end early, bytes after the
/// list, and a list whose second change is not a record.
package let changesEncodedPluginSource = changesPluginTemplate.replacingOccurrences(
    of: "/* ENCODED */",
    with: "model.snapshot_changes = NULL; model.snapshot_changes_encoded = snapshot_changes_encoded;"
)

private let changesPluginTemplate = #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; int64_t mode; } store_t;

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)error;
        store_t *s = store;
        if (strcmp(action, "increment") == 0) { s->count += 1; result->state_changed = 1; return SP_OK; }
        if (strcmp(action, "mode") == 0 && arguments && arguments->count == 1) {
            s->mode = arguments->items[0]->scalar.integer; result->state_changed = 0; return SP_OK;
        }
        return SP_ERR_UNKNOWN_ACTION;
    }

    static sp_value *snapshot(void *store) {
        sp_value *state = host->value_record("Counter");
        host->value_append(state, "count", host->value_int(((store_t *)store)->count));
        host->value_append(state, "label", host->value_string("c"));
        return state;
    }

    static sp_value *change(const char *field, sp_value *value) {
        sp_value *patch = host->value_record("set");
        sp_value *path = host->value_array();
        host->value_append(path, NULL, host->value_string(field));
        host->value_append(patch, "path", path);
        host->value_append(patch, "value", value);
        return patch;
    }

    static sp_value *snapshot_changes(void *store) {
        store_t *s = store;
        sp_value *list = host->value_array();
        switch (s->mode) {
        case 0: host->value_append(list, NULL, change("count", host->value_int(s->count))); break;
        case 1: host->value_append(list, NULL, change("nope", host->value_int(s->count))); break;
        case 2: host->value_free(list); return NULL;
        case 3: host->value_free(list); return host->value_string("changes");
        case 4: {
            sp_value *patch = host->value_record("splice");
            host->value_append(patch, "path", host->value_array());
            host->value_append(patch, "at", host->value_int(0));
            host->value_append(patch, "remove", host->value_int(0));
            host->value_append(patch, "insert", host->value_array());
            host->value_append(list, NULL, patch);
            break;
        }
        default: host->value_append(list, NULL, change("label", host->value_string("lie"))); break;
        }
        return list;
    }

    \#(wireBytesC)
    /* A "set" record of one field's path; its value follows. */
    static void set(const char *field) { u8(6); label("set"); u32(2); label("path"); u8(5); u32(1); u8(4); text(field); label("value"); }

    __attribute__((unused)) static int32_t snapshot_changes_encoded(void *store, int32_t (*write)(void *, const void *, size_t), void *sink) {
        store_t *s = store;
        used = 0;
        switch (s->mode) {
        case 0: u8(5); u32(1); set("count"); u8(2); u64((uint64_t)s->count); break;
        case 1: u8(5); u32(1); set("nope"); u8(2); u64((uint64_t)s->count); break;
        case 2: return SP_ERR_INTERNAL;
        case 3: u8(4); text("changes"); break;
        case 4:
            u8(5); u32(1); u8(6); label("splice"); u32(4);
            label("path"); u8(5); u32(0); label("at"); u8(2); u64(0); label("remove"); u8(2); u64(0); label("insert"); u8(5); u32(0);
            break;
        case 5: u8(5); u32(1); set("label"); u8(4); text("lie"); break;
        case 6: u8(5); u32(1); set("count"); u8(2); u32(7); break;
        case 7: u8(5); u32(1); set("count"); u8(2); u64((uint64_t)s->count); u8(0); break;
        default: u8(5); u32(2); set("count"); u8(2); u64((uint64_t)s->count); u8(2); u64(1); break;
        }
        size_t half = used / 2;
        if (write(sink, buffer, half) != 0) return SP_ERR_NO_MEMORY;
        return write(sink, buffer + half, used - half) == 0 ? SP_OK : SP_ERR_NO_MEMORY;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_param mode_params[] = { { sizeof(sp_param), NULL, "int", "what snapshot_changes says" } };
    static const sp_action actions[] = {
        { sizeof(sp_action), "increment", "Adds one.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "mode", "Chooses what snapshot_changes says.", mode_params, 1, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "changes", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "changes", "Reports changes as told.", actions, 2, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL, snapshot_changes };
        /* ENCODED */
        return host->register_model(host->host_data, &model, error);
    }
    """#

/// C for a test plugin that writes storeplugin.h's value encoding by hand (what
/// `snapshot_encoded` and `snapshot_changes_encoded` write): a buffer of 4 KB, `used`
/// bytes of it so far, and a writer for each part of a value (an optional string's label
/// is `label`).
package let wireBytesC = #"""
    static uint8_t buffer[4096];
    static size_t used;
    static void put(const void *bytes, size_t count) { memcpy(buffer + used, bytes, count); used += count; }
    static void u8(uint8_t v) { put(&v, 1); }
    static void u32(uint32_t v) { uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 }; put(b, 4); }
    static void u64(uint64_t v) { for (int i = 0; i < 8; i++) u8((uint8_t)(v >> (8 * i))); }
    static void text(const char *s) { u32((uint32_t)strlen(s)); put(s, strlen(s)); }
    static void label(const char *s) { u8(1); text(s); }
    """#
