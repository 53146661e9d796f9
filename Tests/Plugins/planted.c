/*
 * Planted: models with bugs on purpose, for `storesh explore`'s tests, built with the
 * system's C compiler against storeplugin.h alone. Built with -DFIXED, every bug is
 * fixed: the same actions, the behaviour a careful author meant.
 *   bank     deposit(int), withdraw(int): withdraw refuses more than the balance only
 *            while the balance is 0; it declares the invariant balance >= 0
 *   deep     a, b, c, d, e, reset: stage moves on when the next letter comes; at e
 *            after a, b, c, d the update aborts (a crash five actions deep)
 *   stall    increment, poke: poke never returns once count is 3 (a hang)
 *   shelf    add, items[].remove(key): removing the first of two or more items aborts
 *   dice     roll: count becomes a value read from the clock (not deterministic)
 *   sound    increment, add(int), reset: no bug
 *   ring     push(value: int), clear: a buffer of two whose size goes on counting when
 *            it is full (size == count(contents) breaks at the third push); the fix
 *            also keeps the newest first, so every state before the failure changes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <unistd.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct store {
    const char *model;
    int64_t count;       /* balance, stage, count */
    int64_t ids[64];     /* shelf: item ids, in order */
    int64_t item_count;
    int64_t next_id;
} store;

static int32_t refuse(sp_error *error, int32_t code, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
    return code;
}

static const sp_value *argument(const sp_value *arguments, sp_kind kind) {
    if (!arguments || arguments->kind != SP_ARRAY || arguments->count < 1) return NULL;
    return arguments->items[0]->kind == (uint32_t)kind ? arguments->items[0] : NULL;
}

static int32_t amount(const sp_value *arguments, int64_t *out, sp_error *error) {
    const sp_value *value = argument(arguments, SP_INT);
    if (!value) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one int");
    if (value->scalar.integer <= 0 || value->scalar.integer > 1000000) return refuse(error, SP_ERR_BAD_ARGUMENTS, "the amount must be from 1 to 1000000");
    *out = value->scalar.integer;
    return SP_OK;
}

static int32_t dispatch(void *opaque, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    store *s = opaque;
    result->state_changed = 1;
    result->effects_started = 0;
    int64_t value = 0;
    if (strcmp(s->model, "bank") == 0) {
        if (amount(arguments, &value, error) != SP_OK) return SP_ERR_BAD_ARGUMENTS;
        if (strcmp(action, "deposit") == 0) { s->count += value; return SP_OK; }
#ifdef FIXED
        if (value > s->count) return refuse(error, SP_ERR_BAD_ARGUMENTS, "not enough money");
#else
        if (value > s->count && s->count == 0) return refuse(error, SP_ERR_BAD_ARGUMENTS, "not enough money");
#endif
        s->count -= value;
        return SP_OK;
    }
    if (strcmp(s->model, "deep") == 0) {
        if (strcmp(action, "reset") == 0) { s->count = 0; return SP_OK; }
        if (action[0] - 'a' == s->count) {
            s->count += 1;
#ifndef FIXED
            if (s->count == 5) abort();
#else
            if (s->count == 5) s->count = 0;
#endif
            return SP_OK;
        }
        result->state_changed = 0;
        return SP_OK;
    }
    if (strcmp(s->model, "stall") == 0) {
        if (strcmp(action, "increment") == 0) { s->count += 1; return SP_OK; }
#ifndef FIXED
        while (s->count == 3) usleep(1000);
#endif
        result->state_changed = 0;
        return SP_OK;
    }
    if (strcmp(s->model, "shelf") == 0) {
        if (strcmp(action, "add") == 0) {
            if (s->item_count == 64) return refuse(error, SP_ERR_BAD_ARGUMENTS, "the shelf is full");
            s->ids[s->item_count++] = ++s->next_id;
            return SP_OK;
        }
        const sp_value *key = argument(arguments, SP_STRING);
        if (!key) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes the item's id");
        for (int64_t i = 0; i < s->item_count; i++) {
            char id[32];
            snprintf(id, sizeof id, "i%lld", (long long)s->ids[i]);
            if (strcmp(id, key->text) != 0) continue;
#ifndef FIXED
            if (i == 0 && s->item_count >= 2) abort();
#endif
            memmove(&s->ids[i], &s->ids[i + 1], (size_t)(s->item_count - i - 1) * sizeof s->ids[0]);
            s->item_count -= 1;
            return SP_OK;
        }
        return refuse(error, SP_ERR_BAD_ARGUMENTS, "no item with that id");
    }
    if (strcmp(s->model, "dice") == 0) {
#ifndef FIXED
        /* Its own draw from the system: the clocks and getrandom are the session's under a
         * virtual clock (docs/decisions/0002), a device the model opens itself is not. */
        unsigned short draw = 0;
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd >= 0) {
            if (read(fd, &draw, sizeof draw) != (ssize_t)sizeof draw) draw = 0;
            close(fd);
        }
        s->count = (int64_t)(draw % 1000);
#else
        s->count = (s->count * 7 + 3) % 1000;
#endif
        return SP_OK;
    }
    if (strcmp(s->model, "ring") == 0) {
        if (strcmp(action, "clear") == 0) { s->count = 0; s->item_count = 0; return SP_OK; }
        const sp_value *pushed = argument(arguments, SP_INT);
        if (!pushed) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one int");
#ifdef FIXED
        if (s->item_count == 2) s->item_count = 1;
        memmove(&s->ids[1], &s->ids[0], (size_t)s->item_count * sizeof s->ids[0]);
        s->ids[0] = pushed->scalar.integer;
        s->item_count += 1;
        s->count = s->item_count;
#else
        if (s->item_count == 2) { s->ids[0] = s->ids[1]; s->item_count = 1; }
        s->ids[s->item_count++] = pushed->scalar.integer;
        s->count += 1;
#endif
        return SP_OK;
    }
    /* sound */
    if (strcmp(action, "increment") == 0) { s->count += 1; return SP_OK; }
    if (strcmp(action, "reset") == 0) { s->count = 0; return SP_OK; }
    const sp_value *number = argument(arguments, SP_INT);
    if (!number) return refuse(error, SP_ERR_BAD_ARGUMENTS, "takes one int");
    s->count += number->scalar.integer;
    return SP_OK;
}

static sp_value *snapshot(void *opaque) {
    store *s = opaque;
    sp_value *state = host->value_record(NULL);
    if (!state) return NULL;
    const char *field = strcmp(s->model, "bank") == 0 ? "balance" : strcmp(s->model, "deep") == 0 ? "stage" : "count";
    if (strcmp(s->model, "ring") == 0) {
        sp_value *contents = host->value_array();
        if (!contents) goto failed;
        for (int64_t i = 0; i < s->item_count; i++) {
            if (host->value_append(contents, NULL, host->value_int(s->ids[i])) != SP_OK) {
                host->value_free(contents);
                goto failed;
            }
        }
        if (host->value_append(state, "size", host->value_int(s->count)) != SP_OK
            || host->value_append(state, "contents", contents) != SP_OK) goto failed;
        return state;
    }
    if (strcmp(s->model, "shelf") == 0) {
        sp_value *items = host->value_array();
        if (!items) goto failed;
        for (int64_t i = 0; i < s->item_count; i++) {
            char id[32];
            snprintf(id, sizeof id, "i%lld", (long long)s->ids[i]);
            sp_value *item = host->value_record(NULL);
            if (!item || host->value_append(item, "id", host->value_string(id)) != SP_OK
                || host->value_append(items, NULL, item) != SP_OK) { host->value_free(items); goto failed; }
        }
        if (host->value_append(state, "items", items) != SP_OK) goto failed;
        return state;
    }
    if (host->value_append(state, field, host->value_int(s->count)) != SP_OK) goto failed;
    return state;
failed:
    host->value_free(state);
    return NULL;
}

static void destroy(void *opaque) { free(opaque); }

#define CREATE(m) \
    static int32_t create_##m(void *data, const sp_store_context *context, void **out, sp_error *error) { \
        (void)data; (void)context; \
        store *s = calloc(1, sizeof *s); \
        if (!s) return refuse(error, SP_ERR_NO_MEMORY, "out of memory"); \
        s->model = #m; \
        *out = s; \
        return SP_OK; \
    }
CREATE(bank) CREATE(deep) CREATE(stall) CREATE(shelf) CREATE(dice) CREATE(sound) CREATE(ring)

static const sp_param amount_param[] = { { sizeof(sp_param), NULL, "int", "the amount" } };
static const sp_param value_param[] = { { sizeof(sp_param), "value", "int", "the value pushed" } };
static const sp_param key_param[] = { { sizeof(sp_param), NULL, "string", "the item's id" } };
#define PLAIN(name) { sizeof(sp_action), name, "One step.", NULL, 0, "", NULL, NULL }

static const sp_action bank_actions[] = {
    { sizeof(sp_action), "deposit", "Adds money.", amount_param, 1, "i", NULL, NULL },
    { sizeof(sp_action), "withdraw", "Takes money out, if there is enough.", amount_param, 1, "i", NULL, NULL },
};
static const sp_action deep_actions[] = { PLAIN("a"), PLAIN("b"), PLAIN("c"), PLAIN("d"), PLAIN("e"), PLAIN("reset") };
static const sp_action stall_actions[] = { PLAIN("increment"), PLAIN("poke") };
static const sp_action shelf_actions[] = {
    PLAIN("add"),
    { sizeof(sp_action), "items[].remove", "Removes the item.", key_param, 1, "s", NULL, NULL },
};
static const sp_action dice_actions[] = { PLAIN("roll") };
static const sp_action sound_actions[] = {
    PLAIN("increment"), PLAIN("reset"),
    { sizeof(sp_action), "add", "Adds an amount.", amount_param, 1, "i", NULL, NULL },
};

static const sp_action ring_actions[] = {
    { sizeof(sp_action), "push", "Adds a value, dropping the oldest when full.", value_param, 1, "i", NULL, NULL },
    PLAIN("clear"),
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "planted", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

static const char *const bank_invariants[] = { "balance >= 0", NULL };

#define MODEL(m, list) { \
        .struct_size = sizeof(sp_model), .name = #m, .doc = "A model with a bug on purpose.", \
        .actions = list, .action_count = sizeof list / sizeof list[0], \
        .create = create_##m, .destroy = destroy, .dispatch = dispatch, .snapshot = snapshot, \
        .replay = dispatch, .identity_fields = NULL }

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model models[] = {
        MODEL(bank, bank_actions), MODEL(deep, deep_actions), MODEL(stall, stall_actions),
        MODEL(shelf, shelf_actions), MODEL(dice, dice_actions), MODEL(sound, sound_actions),
        MODEL(ring, ring_actions),
    };
    models[0].invariants = bank_invariants;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        int32_t status = host->register_model(host->host_data, &models[i], error);
        if (status != SP_OK) return status;
    }
    return SP_OK;
}
