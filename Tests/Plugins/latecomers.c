/*
 * Latecomers: two models whose bugs live in the order in which service answers arrive,
 * for `storesh explore --schedules`. Each asks its service asynchronously (the host's
 * service_answer, storeplugin.h): the answer is the host's to deliver, at once by default.
 * Built with -DFIXED, each is the corrected model.
 *   search    `search query:` shows "results for" the query; the model's invariant is
 *             `loading || results_for == query`. The bug: an answer to an older search
 *             that arrives after a newer one's overwrites it (fixed: an answer for another
 *             query than the one shown is dropped).
 *   download  `start` asks for a file, `cancel` stops it. The bug: cancel does not cancel
 *             the call, so an answer that arrives after the cancel finishes the download
 *             (fixed: cancel cancels the answer, and a late one is ignored).
 * With every answer at once (no schedule) neither bug can happen: an answer arrives before
 * the next action can be sent.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct call call;

typedef struct store {
    const sp_store_context *context;
    int is_search;
    char *query;       /* search: what is asked for */
    char *results_for; /* search: the query whose results are shown */
    int loading;       /* search */
    const char *status; /* download: "idle", "loading", "done", "cancelled" */
    char *file;         /* download */
    uint64_t effects_started;
    call *calls; /* in flight: cancelled when the store goes */
} store;

struct call {
    store *store;
    uint64_t effect;
    uint64_t answer; /* the host's id for the answer's arrival */
    char *query;
    char *result;
    call *next;
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

static int replace(char **field, const char *text) {
    if (strcmp(*field, text) == 0) return 0;
    char *copy = strdup(text);
    if (!copy) return 0;
    free(*field);
    *field = copy;
    return 1;
}

/* `text` in double quotes with JSON's escapes, appended to `out`. */
static char *quoted(char *out, const char *text) {
    *out++ = '"';
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\') { *out++ = '\\'; *out++ = (char)*c; }
        else if (*c < 0x20) out += sprintf(out, "\\u%04x", *c);
        else *out++ = (char)*c;
    }
    *out++ = '"';
    *out = 0;
    return out;
}

static void forget(call *c) {
    call **link = &c->store->calls;
    while (*link && *link != c) link = &(*link)->next;
    if (*link) *link = c->next;
    free(c->query);
    free(c->result);
    free(c);
}

/* ---- The updates -------------------------------------------------------------------- */

static int loaded(store *s, const char *query, const char *results) {
    (void)results;
#ifdef FIXED
    if (strcmp(query, s->query) != 0) return 0; /* an answer to a search no longer shown */
#endif
    int changed = replace(&s->results_for, query) | s->loading;
    s->loading = 0;
    return changed;
}

static int finished(store *s, const char *file) {
#ifdef FIXED
    if (strcmp(s->status, "loading") != 0) return 0;
#endif
    int changed = replace(&s->file, file) | (strcmp(s->status, "done") != 0);
    s->status = "done";
    return changed;
}

/* ---- Effects: one asynchronous service call each ------------------------------------ */

static void answered(void *user_data) {
    call *c = user_data;
    store *s = c->store;
    char *action = malloc(strlen(c->query) * 6 + strlen(c->result) * 6 + 64);
    int changed = 0;
    if (action) {
        char *end;
        if (s->is_search) {
            end = action + sprintf(action, "loaded query: ");
            end = quoted(end, c->query);
            end += sprintf(end, ", results: ");
            quoted(end, c->result);
            changed = loaded(s, c->query, c->result);
        } else {
            end = action + sprintf(action, "finished file: ");
            quoted(end, c->result);
            changed = finished(s, c->result);
        }
        effect_event(s, SP_EFFECT_EMITTED, c->effect, NULL, action, changed);
        if (s->context->action_applied) s->context->action_applied(s->context->user_data, action);
        free(action);
    }
    effect_event(s, SP_EFFECT_FINISHED, c->effect, NULL, NULL, 0);
    forget(c);
}

static int32_t ask(store *s, const char *label, const char *query, sp_dispatch_result *result, sp_error *error) {
    typedef const char *(*service_fn)(const char *);
    if (s->context->service_count < 1) return refuse(error, SP_ERR_SERVICE, "no service");
    service_fn service = (service_fn)s->context->services[0];
    const char *answer = service(query);
    sp_error failure = { sizeof failure, "" };
    if (host->service_failure(host->host_data, &failure) != SP_OK) return refuse(error, SP_ERR_SERVICE, failure.message);
    if (host->struct_size < offsetof(storeplugin_host, service_answer) + sizeof host->service_answer)
        return refuse(error, SP_ERR_SERVICE, "this host cannot answer a service later (service_answer)");
    call *c = calloc(1, sizeof *c);
    if (!c || !(c->query = strdup(query)) || !(c->result = strdup(answer ? answer : ""))) {
        if (c) { free(c->query); free(c); }
        return refuse(error, SP_ERR_NO_MEMORY, "out of memory");
    }
    c->store = s;
    c->effect = ++s->effects_started;
    c->next = s->calls;
    s->calls = c;
    effect_event(s, SP_EFFECT_STARTED, c->effect, label, NULL, 0);
    c->answer = host->service_answer(host->host_data, s->is_search ? "fetch" : "download", answered, c);
    result->effects_started = 1;
    return SP_OK;
}

static void cancel_calls(store *s, int report) {
    while (s->calls) {
        host->clock_cancel(host->host_data, s->calls->answer);
        if (report) effect_event(s, SP_EFFECT_CANCELLED, s->calls->effect, NULL, NULL, 0);
        forget(s->calls);
    }
}

/* ---- Dispatch ----------------------------------------------------------------------- */

static const char *string_argument(const sp_value *arguments, uint32_t index) {
    if (!arguments || arguments->kind != SP_ARRAY || arguments->count <= index || arguments->items[index]->kind != SP_STRING)
        return NULL;
    return arguments->items[index]->text;
}

static int32_t apply(void *opaque, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error, int effects) {
    store *s = opaque;
    result->state_changed = 0;
    result->effects_started = 0;
    if (s->is_search && strcmp(action, "search") == 0) {
        const char *query = string_argument(arguments, 0);
        if (!query) return refuse(error, SP_ERR_BAD_ARGUMENTS, "search takes query: a string");
        /* The call first: a refusal (a stub told to fail) leaves the state as it was. */
        if (effects) {
            int32_t status = ask(s, "search", query, result, error);
            if (status != SP_OK) return status;
        }
        result->state_changed = replace(&s->query, query) | !s->loading;
        s->loading = 1;
        return SP_OK;
    }
    if (s->is_search && strcmp(action, "loaded") == 0) {
        const char *query = string_argument(arguments, 0), *results = string_argument(arguments, 1);
        if (!query || !results) return refuse(error, SP_ERR_BAD_ARGUMENTS, "loaded takes query: and results: strings");
        result->state_changed = loaded(s, query, results);
        return SP_OK;
    }
    if (!s->is_search && strcmp(action, "start") == 0) {
        if (strcmp(s->status, "loading") == 0) return refuse(error, SP_ERR_REJECTED, "already loading");
        if (effects) {
            int32_t status = ask(s, "start", "report.pdf", result, error);
            if (status != SP_OK) return status;
        }
        s->status = "loading";
        result->state_changed = 1;
        return SP_OK;
    }
    if (!s->is_search && strcmp(action, "cancel") == 0) {
        if (strcmp(s->status, "loading") != 0) return refuse(error, SP_ERR_REJECTED, "nothing to cancel");
        s->status = "cancelled";
        result->state_changed = 1;
#ifdef FIXED
        if (effects) cancel_calls(s, 1);
#endif
        return SP_OK;
    }
    if (!s->is_search && strcmp(action, "finished") == 0) {
        const char *file = string_argument(arguments, 0);
        if (!file) return refuse(error, SP_ERR_BAD_ARGUMENTS, "finished takes file: a string");
        result->state_changed = finished(s, file);
        return SP_OK;
    }
    return refuse(error, SP_ERR_UNKNOWN_ACTION, "no such action");
}

static int32_t dispatch(void *s, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(s, action, arguments, result, error, 1);
}

/* Time travel runs only the update. */
static int32_t replay(void *s, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    return apply(s, action, arguments, result, error, 0);
}

/* Every effect waits on the host (its answer): nothing of the plugin's own can run. */
static int32_t effects_idle(void *opaque) {
    (void)opaque;
    return 1;
}

static sp_value *snapshot(void *opaque) {
    store *s = opaque;
    sp_value *state = host->value_record(NULL);
    if (!state) return NULL;
    int ok = s->is_search
        ? host->value_append(state, "query", host->value_string(s->query)) == SP_OK
            && host->value_append(state, "results_for", host->value_string(s->results_for)) == SP_OK
            && host->value_append(state, "loading", host->value_bool(s->loading)) == SP_OK
        : host->value_append(state, "status", host->value_string(s->status)) == SP_OK
            && host->value_append(state, "file", host->value_string(s->file)) == SP_OK;
    if (ok) return state;
    host->value_free(state);
    return NULL;
}

static void destroy(void *opaque) {
    store *s = opaque;
    cancel_calls(s, 0);
    free(s->query);
    free(s->results_for);
    free(s->file);
    free(s);
}

static int32_t create(int is_search, const sp_store_context *context, void **out, sp_error *error) {
    store *s = calloc(1, sizeof *s);
    if (!s || !(s->query = strdup("")) || !(s->results_for = strdup("")) || !(s->file = strdup(""))) {
        if (s) { free(s->query); free(s->results_for); free(s); }
        return refuse(error, SP_ERR_NO_MEMORY, "out of memory");
    }
    s->context = context;
    s->is_search = is_search;
    s->status = "idle";
    *out = s;
    return SP_OK;
}
static int32_t create_search(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data;
    return create(1, context, out, error);
}
static int32_t create_download(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data;
    return create(0, context, out, error);
}

/* The services' own answers; a returned string stays valid until the next call. */
static const char *fetch(const char *query) {
    static char answer[512];
    snprintf(answer, sizeof answer, "results for %s", query ? query : "");
    return answer;
}
static const char *download(const char *file) {
    static char answer[512];
    snprintf(answer, sizeof answer, "%s", file ? file : "");
    return answer;
}

static const sp_param query_params[] = { { sizeof(sp_param), "query", "string", "what to search for" } };
static const sp_param loaded_params[] = {
    { sizeof(sp_param), "query", "string", "the search answered" },
    { sizeof(sp_param), "results", "string", "its results" },
};
static const sp_param file_params[] = { { sizeof(sp_param), "file", "string", "the file downloaded" } };
static const sp_action search_actions[] = {
    { sizeof(sp_action), "search", "Searches; the results arrive later.", query_params, 1, NULL, NULL, NULL },
    { sizeof(sp_action), "loaded", "An answer arrived (sent by the search's effect).", loaded_params, 2, NULL, NULL, NULL },
};
static const sp_action download_actions[] = {
    { sizeof(sp_action), "start", "Starts downloading the report.", NULL, 0, NULL, NULL, NULL },
    { sizeof(sp_action), "cancel", "Stops the download.", NULL, 0, NULL, NULL, NULL },
    { sizeof(sp_action), "finished", "The file arrived (sent by the download's effect).", file_params, 1, NULL, NULL, NULL },
};
static const sp_service search_services[] = {
    { sizeof(sp_service), "fetch", "Results for a query.", "s>s", (sp_typed_entry)fetch },
};
static const sp_service download_services[] = {
    { sizeof(sp_service), "download", "A file's contents.", "s>s", (sp_typed_entry)download },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "latecomers", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

static const char *const search_invariants[] = { "loading || results_for == query", NULL };

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model models[] = {
        { .struct_size = sizeof(sp_model), .name = "search", .doc = "Search results that arrive later.",
          .actions = search_actions, .action_count = 2, .services = search_services, .service_count = 1,
          .create = create_search, .destroy = destroy, .dispatch = dispatch, .snapshot = snapshot,
          .replay = replay, .invariants = search_invariants, .effects_idle = effects_idle },
        { .struct_size = sizeof(sp_model), .name = "download", .doc = "A download that can be cancelled.",
          .actions = download_actions, .action_count = 3, .services = download_services, .service_count = 1,
          .create = create_download, .destroy = destroy, .dispatch = dispatch, .snapshot = snapshot,
          .replay = replay, .effects_idle = effects_idle },
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        int32_t status = host->register_model(host->host_data, &models[i], error);
        if (status != SP_OK) return status;
    }
    return SP_OK;
}
