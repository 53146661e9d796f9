/*
 * CGreeter: a model in plain C with an effect and a service, against storeplugin.h alone.
 *   greetLater(name: string)   starts an effect: one second later on the host clock it
 *                              asks the service `greeting` for a greeting, and sends
 *                              setGreeting with it
 *   setGreeting(text: string)  sets the greeting
 *   state {greeting: string}
 *   service greeting "s>s"     the plugin's own answers "Hello, NAME!"; `:stub greeting
 *                              "Hi"` replaces it, `:stub greeting fail "offline"` fails it
 * The effect follows the header's effect protocol: STARTED while the action that starts
 * it is dispatched; an action it sends is applied first, then reported as EMITTED (in the
 * shell's action syntax) and passed to action_applied; FINISHED (or FAILED) last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct greeting_effect greeting_effect;

typedef struct greeter_store {
    const sp_store_context *context;
    char *greeting;
    uint64_t effects_started;   /* effect ids count from 1, per store */
    greeting_effect *in_flight; /* a list, so destroy can cancel their timers */
} greeter_store;

struct greeting_effect {
    greeter_store *store;
    uint64_t id;
    uint64_t timer;
    char *name;
    greeting_effect *next;
};

static void fail(sp_error *error, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
}

static void report_result(sp_dispatch_result *result, int changed, uint32_t effects) {
    if (result) {
        result->state_changed = changed ? 1u : 0u;
        result->effects_started = effects;
    }
}

static void effect_event(greeter_store *store, uint32_t kind, uint64_t id, const char *label, const char *action, const char *message, int changed) {
    if (!store->context->effect_event) return;
    sp_effect_event event = {
        .struct_size = sizeof event, .kind = kind, .effect_id = id,
        .label = label, .action = action, .message = message, .state_changed = changed ? 1u : 0u,
    };
    store->context->effect_event(store->context->user_data, &event);
}

static int set_greeting(greeter_store *store, const char *text) {
    if (strcmp(store->greeting, text) == 0) return 0;
    char *copy = strdup(text);
    if (!copy) return 0;
    free(store->greeting);
    store->greeting = copy;
    return 1;
}

/* `setGreeting text: "…"` as the shell writes it: the text in quotes, with JSON's escapes. */
static char *set_greeting_text(const char *text) {
    size_t length = strlen(text);
    char *out = malloc(length * 6 + sizeof "setGreeting text: \"\"");
    if (!out) return NULL;
    char *end = out + sprintf(out, "setGreeting text: \"");
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') { *end++ = '\\'; *end++ = (char)*c; }
        else if (*c == '\n') { *end++ = '\\'; *end++ = 'n'; }
        else if (*c < 0x20) end += sprintf(end, "\\u%04x", *c);
        else *end++ = (char)*c;
    }
    strcpy(end, "\"");
    return out;
}

static void forget(greeting_effect *effect) {
    greeting_effect **link = &effect->store->in_flight;
    while (*link && *link != effect) link = &(*link)->next;
    if (*link) *link = effect->next;
    free(effect->name);
    free(effect);
}

/* The effect's timer fired: ask the service, send the action it makes, finish. */
static void greeting_due(void *user_data) {
    greeting_effect *effect = user_data;
    greeter_store *store = effect->store;
    typedef const char *(*greeting_service)(const char *);
    greeting_service greeting = store->context->service_count > 0 ? (greeting_service)store->context->services[0] : NULL;
    const char *answer = greeting ? greeting(effect->name) : NULL;
    sp_error failure = { sizeof failure, "" };
    if (!greeting || host->service_failure(host->host_data, &failure) != SP_OK) {
        effect_event(store, SP_EFFECT_FAILED, effect->id, NULL, NULL, greeting ? failure.message : "no greeting service", 0);
        forget(effect);
        return;
    }
    /* The answer is valid until the service's next call: use it before calling again. */
    char *action = set_greeting_text(answer ? answer : "");
    int changed = set_greeting(store, answer ? answer : "");
    effect_event(store, SP_EFFECT_EMITTED, effect->id, NULL, action, NULL, changed);
    if (store->context->action_applied && action) store->context->action_applied(store->context->user_data, action);
    free(action);
    effect_event(store, SP_EFFECT_FINISHED, effect->id, NULL, NULL, NULL, 0);
    forget(effect);
}

static int32_t greet_later(greeter_store *store, const char *name, sp_dispatch_result *result, sp_error *error) {
    greeting_effect *effect = calloc(1, sizeof *effect);
    if (!effect || !(effect->name = strdup(name))) {
        free(effect);
        fail(error, "out of memory");
        return SP_ERR_NO_MEMORY;
    }
    effect->store = store;
    effect->id = ++store->effects_started;
    effect->next = store->in_flight;
    store->in_flight = effect;
    effect_event(store, SP_EFFECT_STARTED, effect->id, "greetLater", NULL, NULL, 0);
    effect->timer = host->clock_wake(host->host_data, host->clock_now(host->host_data) + 1000000000, greeting_due, effect);
    report_result(result, 0, 1);
    return SP_OK;
}

/* The one string argument of `action`, labelled `label`. */
static const char *string_argument(const sp_value *arguments, sp_error *error, const char *usage) {
    if (!arguments || arguments->kind != SP_ARRAY || arguments->count != 1 || arguments->items[0]->kind != SP_STRING) {
        fail(error, usage);
        return NULL;
    }
    return arguments->items[0]->text;
}

static int32_t apply(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error, int run_effects) {
    greeter_store *greeter = store;
    if (strcmp(action, "setGreeting") == 0) {
        const char *text = string_argument(arguments, error, "setGreeting takes text: a string");
        if (!text) return SP_ERR_BAD_ARGUMENTS;
        report_result(result, set_greeting(greeter, text), 0);
        return SP_OK;
    }
    if (strcmp(action, "greetLater") == 0) {
        const char *name = string_argument(arguments, error, "greetLater takes name: a string");
        if (!name) return SP_ERR_BAD_ARGUMENTS;
        if (!run_effects) { report_result(result, 0, 0); return SP_OK; }
        return greet_later(greeter, name, result, error);
    }
    fail(error, "no such action");
    return SP_ERR_UNKNOWN_ACTION;
}

static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(store, action, arguments, result, error, 1);
}

/* Time travel runs only the update: greetLater starts nothing. */
static int32_t replay(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(store, action, arguments, result, error, 0);
}

static void cancel_effects(greeter_store *store) {
    while (store->in_flight) {
        host->clock_cancel(host->host_data, store->in_flight->timer);
        forget(store->in_flight);
    }
}

/* Puts back a state snapshot produced; effects in flight are cancelled (the header's rule). */
static int32_t restore(void *store, const sp_value *state, sp_error *error) {
    if (state && state->kind == SP_RECORD) {
        for (uint32_t i = 0; i < state->count; i++) {
            if (state->names[i] && strcmp(state->names[i], "greeting") == 0 && state->items[i]->kind == SP_STRING) {
                cancel_effects(store);
                set_greeting(store, state->items[i]->text);
                return SP_OK;
            }
        }
    }
    fail(error, "a cgreeter state is a record with a string field 'greeting'");
    return SP_ERR_BAD_ARGUMENTS;
}

static sp_value *snapshot(void *store) {
    sp_value *state = host->value_record("CGreeter");
    if (!state) return NULL;
    if (host->value_append(state, "greeting", host->value_string(((greeter_store *)store)->greeting)) != SP_OK) {
        host->value_free(state);
        return NULL;
    }
    return state;
}

static int32_t create(void *model_data, const sp_store_context *context, void **store_out, sp_error *error) {
    (void)model_data;
    greeter_store *store = calloc(1, sizeof *store);
    if (!store || !(store->greeting = strdup(""))) {
        free(store);
        fail(error, "out of memory");
        return SP_ERR_NO_MEMORY;
    }
    store->context = context;
    *store_out = store;
    return SP_OK;
}

/* Cancels the effects' timers: no callback for the store arrives after this. */
static void destroy(void *store) {
    greeter_store *greeter = store;
    cancel_effects(greeter);
    free(greeter->greeting);
    free(greeter);
}

/* The plugin's own greeting. A returned string must stay valid until the next call of
 * the same service (storeplugin.h): a static buffer is. */
static const char *greeting(const char *name) {
    static char answer[256];
    snprintf(answer, sizeof answer, "Hello, %s!", name ? name : "");
    return answer;
}

static const sp_param name_params[] = { { sizeof(sp_param), "name", "string", "who to greet" } };
static const sp_param text_params[] = { { sizeof(sp_param), "text", "string", "the greeting" } };

static const sp_action actions[] = {
    { sizeof(sp_action), "greetLater", "Asks the greeting service for a greeting a second later, and shows it.", name_params, 1, NULL, NULL, NULL },
    { sizeof(sp_action), "setGreeting", "Sets the greeting.", text_params, 1, NULL, NULL, NULL },
};

static const sp_service services[] = {
    { sizeof(sp_service), "greeting", "The greeting for a name.", "s>s", (sp_typed_entry)greeting },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "cgreeter", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

int32_t storeplugin_register_v1(const storeplugin_host *services_table, sp_error *error) {
    host = services_table;
    sp_model model = {
        .struct_size = sizeof(sp_model),
        .name = "cgreeter",
        .doc = "A greeter with an effect on the host clock and a greeting service, in plain C.",
        .actions = actions,
        .action_count = sizeof actions / sizeof actions[0],
        .services = services,
        .service_count = sizeof services / sizeof services[0],
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
