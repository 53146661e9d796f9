/*
 * Unruly: a test model that misbehaves at the process boundary, built by the end-to-end
 * tests with the system's C compiler against storeplugin.h alone. Every action goes
 * through dispatch (value-tree arguments); the state is {count: int, items: [int]}.
 *   increment            count + 1
 *   exitNow              _exit(0): the worker ends without a word, mid-request
 *   say(text)            printf("%s\n") to stdout, never flushed (a pipe buffers it)
 *   shout(text)          one line to stderr
 *   flood(bytes)         one line of `bytes` x's to stdout, flushed
 *   grow(count)          items becomes 0, 1, ... count-1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct unruly_store {
    int64_t count;
    int64_t item_count;
} unruly_store;

static int32_t refuse(sp_error *error, int32_t code, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
    return code;
}

static const sp_value *argument(const sp_value *arguments, sp_kind kind) {
    if (!arguments || arguments->kind != SP_ARRAY || arguments->count != 1) return NULL;
    return arguments->items[0]->kind == (uint32_t)kind ? arguments->items[0] : NULL;
}

static int32_t dispatch(void *opaque, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    unruly_store *store = opaque;
    result->state_changed = 0;
    result->effects_started = 0;
    if (strcmp(action, "increment") == 0) {
        store->count += 1;
        result->state_changed = 1;
        return SP_OK;
    }
    if (strcmp(action, "exitNow") == 0) _exit(0);
    if (strcmp(action, "say") == 0 || strcmp(action, "shout") == 0) {
        const sp_value *text = argument(arguments, SP_STRING);
        if (!text) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one string");
        fprintf(action[1] == 'a' ? stdout : stderr, "%s\n", text->text);
        return SP_OK;
    }
    if (strcmp(action, "note") == 0) {
        /* Leans on the zero-filled error storeplugin.h promises: the text is copied without
         * its NUL. "ok: ..." succeeds (a message written all the same), anything else fails. */
        const sp_value *text = argument(arguments, SP_STRING);
        if (!text) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one string");
        size_t length = strlen(text->text);
        memcpy(error->message, text->text, length < sizeof error->message ? length : sizeof error->message - 1);
        return strncmp(text->text, "ok:", 3) == 0 ? SP_OK : SP_ERR_BAD_ARGUMENTS;
    }
    if (strcmp(action, "flood") == 0 || strcmp(action, "grow") == 0) {
        const sp_value *number = argument(arguments, SP_INT);
        if (!number || number->scalar.integer < 0) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one int, 0 or more");
        if (action[0] == 'g') {
            result->state_changed = store->item_count != number->scalar.integer;
            store->item_count = number->scalar.integer;
            return SP_OK;
        }
        for (int64_t left = number->scalar.integer; left > 0; left -= 4096) {
            static const char xs[4096] = { [0 ... 4095] = 'x' };
            fwrite(xs, 1, left < 4096 ? (size_t)left : 4096, stdout);
        }
        fputc('\n', stdout);
        fflush(stdout);
        return SP_OK;
    }
    return refuse(error, SP_ERR_UNKNOWN_ACTION, "no such action");
}

static int32_t replay(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    if (strcmp(action, "increment") != 0 && strcmp(action, "grow") != 0) {
        result->state_changed = 0;
        result->effects_started = 0;
        return SP_OK; /* output and exits are not part of the state */
    }
    return dispatch(store, action, arguments, result, error);
}

static sp_value *snapshot(void *opaque) {
    unruly_store *store = opaque;
    sp_value *state = host->value_record("Unruly");
    sp_value *items = host->value_array();
    if (!state || !items) return NULL;
    for (int64_t i = 0; i < store->item_count; i++) {
        if (host->value_append(items, NULL, host->value_int(i)) != SP_OK) goto failed;
    }
    if (host->value_append(state, "count", host->value_int(store->count)) != SP_OK) goto failed;
    if (host->value_append(state, "items", items) != SP_OK) { items = NULL; goto failed; }
    return state;
failed:
    host->value_free(items);
    host->value_free(state);
    return NULL;
}

static int32_t create(void *model_data, const sp_store_context *context, void **store_out, sp_error *error) {
    (void)model_data; (void)context;
    unruly_store *store = calloc(1, sizeof *store);
    if (!store) return refuse(error, SP_ERR_NO_MEMORY, "out of memory");
    *store_out = store;
    return SP_OK;
}

static void destroy(void *store) { free(store); }

static const sp_param text_param[] = { { sizeof(sp_param), NULL, "string", "what to write" } };
static const sp_param count_param[] = { { sizeof(sp_param), NULL, "int", "how many" } };

static const sp_action actions[] = {
    { sizeof(sp_action), "increment", "Adds one to count.", NULL, 0, "", NULL, NULL },
    { sizeof(sp_action), "exitNow", "Ends the process with _exit(0).", NULL, 0, "", NULL, NULL },
    { sizeof(sp_action), "say", "Writes a line to stdout without flushing it.", text_param, 1, "s", NULL, NULL },
    { sizeof(sp_action), "shout", "Writes a line to stderr.", text_param, 1, "s", NULL, NULL },
    { sizeof(sp_action), "note", "Copies its text into the error without a NUL; fails unless it starts with ok:.", text_param, 1, "s", NULL, NULL },
    { sizeof(sp_action), "flood", "Writes one line of that many bytes to stdout.", count_param, 1, "i", NULL, NULL },
    { sizeof(sp_action), "grow", "Makes items that long.", count_param, 1, "i", NULL, NULL },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "unruly", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model model = {
        .struct_size = sizeof(sp_model),
        .name = "unruly",
        .doc = "Misbehaves at the process boundary, for storesh's tests.",
        .actions = actions,
        .action_count = sizeof actions / sizeof actions[0],
        .create = create,
        .destroy = destroy,
        .dispatch = dispatch,
        .snapshot = snapshot,
        .replay = replay,
    };
    return host->register_model(host->host_data, &model, error);
}
