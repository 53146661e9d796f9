/*
 * Checkout: a model whose bug lives in the order of two timers due at the same instant,
 * for `storesh explore --schedules`. `checkout` starts two effects that each wait 100 ms
 * on the host clock, one to reserve the goods and one to charge; the charge assumes the
 * reservation came first, as it was started first, and records a failure when it did
 * not. Two concurrent calls may finish in either order: by default the host fires timers
 * due together in the order they were scheduled, so only a schedule that picks the other
 * order (`:ties 2`) shows it. The model's invariant is `failure == ""`.
 * Built with -DFIXED, one effect reserves and then charges, in that order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct step step;

typedef struct store {
    const sp_store_context *context;
    int started, reserved, charged;
    char failure[64];
    uint64_t effects_started;
    step *steps; /* in flight: cancelled when the store goes */
} store;

/* One effect: a timer, then the actions it sends (`reserve`, `charge`, or both). */
struct step {
    store *store;
    uint64_t effect, timer;
    const char *actions[2];
    step *next;
};

static int32_t refuse(sp_error *error, int32_t code, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
    return code;
}

static void effect_event(store *s, uint32_t kind, uint64_t id, const char *label, const char *action, int changed) {
    if (!s->context->effect_event) return;
    sp_effect_event event = {
        .struct_size = sizeof event, .kind = kind, .effect_id = id, .label = label, .action = action,
        .state_changed = changed ? 1u : 0u,
    };
    s->context->effect_event(s->context->user_data, &event);
}

static int update(store *s, const char *action) {
    if (strcmp(action, "reserve") == 0) {
        int changed = !s->reserved;
        s->reserved = 1;
        return changed;
    }
    /* charge: the goods must be reserved by now. */
    if (s->reserved) {
        int changed = !s->charged;
        s->charged = 1;
        return changed;
    }
    if (s->failure[0]) return 0;
    snprintf(s->failure, sizeof s->failure, "charged before the goods were reserved");
    return 1;
}

static void forget(step *p) {
    step **link = &p->store->steps;
    while (*link && *link != p) link = &(*link)->next;
    if (*link) *link = p->next;
    free(p);
}

static void due(void *user_data) {
    step *p = user_data;
    for (int i = 0; i < 2 && p->actions[i]; i++) {
        int changed = update(p->store, p->actions[i]);
        effect_event(p->store, SP_EFFECT_EMITTED, p->effect, NULL, p->actions[i], changed);
        if (p->store->context->action_applied) p->store->context->action_applied(p->store->context->user_data, p->actions[i]);
    }
    effect_event(p->store, SP_EFFECT_FINISHED, p->effect, NULL, NULL, 0);
    forget(p);
}

static int start(store *s, const char *first, const char *second) {
    step *p = calloc(1, sizeof *p);
    if (!p) return 0;
    p->store = s;
    p->effect = ++s->effects_started;
    p->actions[0] = first;
    p->actions[1] = second;
    p->next = s->steps;
    s->steps = p;
    effect_event(s, SP_EFFECT_STARTED, p->effect, "checkout", NULL, 0);
    p->timer = host->clock_wake(host->host_data, host->clock_now(host->host_data) + 100000000, due, p);
    return 1;
}

static int32_t apply(void *opaque, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error, int effects) {
    (void)arguments;
    store *s = opaque;
    result->state_changed = 0;
    result->effects_started = 0;
    if (strcmp(action, "checkout") == 0) {
        if (s->started) return refuse(error, SP_ERR_REJECTED, "already checked out");
        s->started = 1;
        result->state_changed = 1;
        if (!effects) return SP_OK;
#ifdef FIXED
        result->effects_started = (uint32_t)start(s, "reserve", "charge");
#else
        result->effects_started = (uint32_t)(start(s, "reserve", NULL) + start(s, "charge", NULL));
#endif
        return SP_OK;
    }
    if (strcmp(action, "reserve") == 0 || strcmp(action, "charge") == 0) {
        result->state_changed = (uint32_t)update(s, action);
        return SP_OK;
    }
    return refuse(error, SP_ERR_UNKNOWN_ACTION, "no such action");
}

static int32_t dispatch(void *s, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(s, action, arguments, result, error, 1);
}

static int32_t replay(void *s, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(s, action, arguments, result, error, 0);
}

static sp_value *snapshot(void *opaque) {
    store *s = opaque;
    sp_value *state = host->value_record(NULL);
    if (!state) return NULL;
    if (host->value_append(state, "started", host->value_bool(s->started)) == SP_OK
        && host->value_append(state, "reserved", host->value_bool(s->reserved)) == SP_OK
        && host->value_append(state, "charged", host->value_bool(s->charged)) == SP_OK
        && host->value_append(state, "failure", host->value_string(s->failure)) == SP_OK)
        return state;
    host->value_free(state);
    return NULL;
}

static void destroy(void *opaque) {
    store *s = opaque;
    while (s->steps) {
        host->clock_cancel(host->host_data, s->steps->timer);
        forget(s->steps);
    }
    free(s);
}

static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data;
    store *s = calloc(1, sizeof *s);
    if (!s) return refuse(error, SP_ERR_NO_MEMORY, "out of memory");
    s->context = context;
    *out = s;
    return SP_OK;
}

static const sp_action actions[] = {
    { sizeof(sp_action), "checkout", "Reserves the goods and charges, both in 100 ms.", NULL, 0, NULL, NULL, NULL },
    { sizeof(sp_action), "reserve", "The goods are reserved (sent by an effect).", NULL, 0, NULL, NULL, NULL },
    { sizeof(sp_action), "charge", "The card is charged (sent by an effect).", NULL, 0, NULL, NULL, NULL },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "checkout", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

static const char *const invariants[] = { "failure == \"\"", NULL };

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model model = {
        .struct_size = sizeof(sp_model), .name = "checkout", .doc = "Reserve, then charge.",
        .actions = actions, .action_count = 3, .create = create, .destroy = destroy, .dispatch = dispatch,
        .snapshot = snapshot, .replay = replay, .invariants = invariants,
    };
    return host->register_model(host->host_data, &model, error);
}
