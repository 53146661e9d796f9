/*
 * CCounter: the Counter model written in plain C against storeplugin.h alone, to show
 * the ABI is language-neutral. Same model name ("ccounter" plugin, "ccounter" model),
 * same actions and results as the Swift Counter plugin:
 *   increment, decrement, setCount(int), reset   —  state {count: int}
 * Every action has a typed entry point (called through libffi) and also works through
 * dispatch (value-tree arguments).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct counter_store {
    int64_t count;
} counter_store;

static void fail(sp_error *error, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
}

static void report(sp_dispatch_result *result, int changed) {
    if (result) {
        result->state_changed = changed ? 1u : 0u;
        result->effects_started = 0;
    }
}

static int32_t set_count(counter_store *store, int64_t value, sp_dispatch_result *result) {
    int changed = store->count != value;
    store->count = value;
    report(result, changed);
    return SP_OK;
}

/* Typed entry points: int32_t entry(void *store, void *action_data, result, error, args...) */
static int32_t increment(void *store, void *data, sp_dispatch_result *result, sp_error *error) {
    (void)data; (void)error;
    counter_store *counter = store;
    return set_count(counter, counter->count + 1, result);
}

static int32_t decrement(void *store, void *data, sp_dispatch_result *result, sp_error *error) {
    (void)data; (void)error;
    counter_store *counter = store;
    return set_count(counter, counter->count - 1, result);
}

static int32_t set_count_entry(void *store, void *data, sp_dispatch_result *result, sp_error *error, int64_t value) {
    (void)data; (void)error;
    return set_count(store, value, result);
}

static int32_t reset(void *store, void *data, sp_dispatch_result *result, sp_error *error) {
    (void)data; (void)error;
    return set_count(store, 0, result);
}

/* The value-tree path. */
static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    if (strcmp(action, "increment") == 0) return increment(store, NULL, result, error);
    if (strcmp(action, "decrement") == 0) return decrement(store, NULL, result, error);
    if (strcmp(action, "reset") == 0) return reset(store, NULL, result, error);
    if (strcmp(action, "setCount") == 0) {
        if (!arguments || arguments->kind != SP_ARRAY || arguments->count != 1 || arguments->items[0]->kind != SP_INT) {
            fail(error, "setCount takes one int");
            return SP_ERR_BAD_ARGUMENTS;
        }
        return set_count(store, arguments->items[0]->scalar.integer, result);
    }
    fail(error, "no such action");
    return SP_ERR_UNKNOWN_ACTION;
}

/* Time travel: this model has no effects, so replaying is dispatching. */
static int32_t replay(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return dispatch(store, action, arguments, result, error);
}

/* Puts back a state that snapshot produced: a record with an int field "count". */
static int32_t restore(void *store, const sp_value *state, sp_error *error) {
    if (state && state->kind == SP_RECORD) {
        for (uint32_t i = 0; i < state->count; i++) {
            if (state->names[i] && strcmp(state->names[i], "count") == 0 && state->items[i]->kind == SP_INT) {
                ((counter_store *)store)->count = state->items[i]->scalar.integer;
                return SP_OK;
            }
        }
    }
    fail(error, "a ccounter state is a record with an int field 'count'");
    return SP_ERR_BAD_ARGUMENTS;
}

static sp_value *snapshot(void *store) {
    sp_value *state = host->value_record("CCounter");
    if (!state) return NULL;
    if (host->value_append(state, "count", host->value_int(((counter_store *)store)->count)) != SP_OK) {
        host->value_free(state);
        return NULL;
    }
    return state;
}

static int32_t create(void *model_data, const sp_store_context *context, void **store_out, sp_error *error) {
    (void)model_data; (void)context;
    counter_store *store = calloc(1, sizeof *store);
    if (!store) {
        fail(error, "out of memory");
        return SP_ERR_NO_MEMORY;
    }
    *store_out = store;
    return SP_OK;
}

static void destroy(void *store) { free(store); }

static const sp_param set_count_params[] = {
    { sizeof(sp_param), NULL, "int", "the new count" },
};

static const sp_action actions[] = {
    { sizeof(sp_action), "increment", "Adds one.", NULL, 0, "", (sp_typed_entry)increment, NULL },
    { sizeof(sp_action), "decrement", "Subtracts one.", NULL, 0, "", (sp_typed_entry)decrement, NULL },
    { sizeof(sp_action), "setCount", "Sets the count.", set_count_params, 1, "i", (sp_typed_entry)set_count_entry, NULL },
    { sizeof(sp_action), "reset", "Sets the count to zero.", NULL, 0, "", (sp_typed_entry)reset, NULL },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "ccounter", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model model = {
        .struct_size = sizeof(sp_model),
        .name = "ccounter",
        .doc = "A counter, written in plain C.",
        .actions = actions,
        .action_count = sizeof actions / sizeof actions[0],
        .services = NULL,
        .service_count = 0,
        .model_data = NULL,
        .create = create,
        .destroy = destroy,
        .dispatch = dispatch,
        .snapshot = snapshot,
        .replay = replay,
        .restore = restore,
    };
    return host->register_model(host->host_data, &model, error);
}
