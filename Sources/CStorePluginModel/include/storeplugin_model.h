/*
 * storeplugin_model.h — a C model's glue, declared instead of written.
 *
 * storeplugin.h is the whole ABI; a model written against it alone spells out create,
 * destroy, dispatch, snapshot and restore, its action table and its registration
 * (plugins/CCounter/ccounter.c: about 140 lines of glue for a counter). This header,
 * built only on storeplugin.h, does all of that for a model whose state is one plain C
 * struct, from three tables:
 *
 *   - the state's fields, for snapshot and restore: int64_t, double, bool, char arrays
 *     (text), and fixed-capacity arrays of structs with a count beside them (lists; an
 *     element with a field "id" is diffed and named by it: todos["t1"].done);
 *   - the actions, each a function `int32_t f(void *state, const spm_args *args,
 *     sp_error *error)` with its parameters (spm_int(args, 0), spm_text(args, 1), …),
 *     already checked by the host against the parameters' types and shapes;
 *   - the models, registered by SPM_PLUGIN in one line.
 *
 * Whether an action changed the state is worked out by comparing the struct's bytes
 * before and after, so keep it free of pointers and padding that changes (zero-filled
 * by create, written field by field). A model with effects, services or a state that is
 * not one flat struct uses storeplugin.h directly (plugins/CGreeter/cgreeter.c).
 *
 *     typedef struct { int64_t count; } counter;
 *     static int32_t add(void *s, const spm_args *a, sp_error *e) {
 *         ((counter *)s)->count += spm_int(a, 0); return SP_OK;
 *     }
 *     static const spm_field counter_fields[] = { SPM_INT_FIELD(counter, count), SPM_END };
 *     static const spm_action counter_actions[] = {
 *         SPM_ACTION("add", "Adds to the count.", add, SPM_PARAM("by", "int", "how much")),
 *     };
 *     SPM_PLUGIN("counter", "1.0.0",
 *         SPM_MODEL("counter", "A counter.", counter, NULL, counter_fields, counter_actions))
 */
#ifndef STOREPLUGIN_MODEL_H
#define STOREPLUGIN_MODEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storeplugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The state's fields ------------------------------------------------------------- */

typedef enum spm_kind { SPM_INT, SPM_DOUBLE, SPM_BOOL, SPM_TEXT, SPM_LIST } spm_kind;

typedef struct spm_field spm_field;
struct spm_field {
    const char *name;
    spm_kind kind;
    size_t offset;
    size_t size;              /* TEXT: the char array's capacity; LIST: one element's size */
    size_t count_offset;      /* LIST: where its int64_t count is */
    size_t capacity;          /* LIST: how many elements fit */
    const spm_field *element; /* LIST: the element's fields, ended by SPM_END */
};

#define SPM_MEMBER_SIZE(T, m) sizeof(((T *)0)->m)
/* An int64_t, a double, a bool, a char array, in struct T. */
#define SPM_INT_FIELD(T, m) {#m, SPM_INT, offsetof(T, m), SPM_MEMBER_SIZE(T, m), 0, 0, NULL}
#define SPM_DOUBLE_FIELD(T, m) {#m, SPM_DOUBLE, offsetof(T, m), SPM_MEMBER_SIZE(T, m), 0, 0, NULL}
#define SPM_BOOL_FIELD(T, m) {#m, SPM_BOOL, offsetof(T, m), SPM_MEMBER_SIZE(T, m), 0, 0, NULL}
#define SPM_TEXT_FIELD(T, m) {#m, SPM_TEXT, offsetof(T, m), SPM_MEMBER_SIZE(T, m), 0, 0, NULL}
/* An array m of structs whose fields are `element`, with its length in the int64_t n. */
#define SPM_LIST_FIELD(T, m, n, element)                                                      \
    {#m, SPM_LIST, offsetof(T, m), sizeof(((T *)0)->m[0]), offsetof(T, n),                    \
     SPM_MEMBER_SIZE(T, m) / sizeof(((T *)0)->m[0]), element}
#define SPM_END {NULL, SPM_INT, 0, 0, 0, 0, NULL}

/* ---- Actions ------------------------------------------------------------------------ */

/* An action's arguments, in parameter order (a keyed child action's key first). */
typedef struct spm_args {
    const sp_value *array;
} spm_args;

typedef int32_t (*spm_run)(void *state, const spm_args *args, sp_error *error);

typedef struct spm_action {
    const char *name; /* "add", "child.reset", "todos[].toggle" (the key comes first) */
    const char *doc;
    spm_run run;
    const sp_param *params;
    uint32_t param_count;
} spm_action;

/* A parameter: label (NULL for positional), "int" | "double" | "bool" | "string", a line
 * of doc. SPM_SHAPED adds a shape (storeplugin.h, sp_param.shape) and a default (NULL:
 * required), as literal text. */
#define SPM_PARAM(label, type, doc) {sizeof(sp_param), label, type, doc, NULL, NULL}
#define SPM_SHAPED(label, type, doc, shape, default_value) \
    {sizeof(sp_param), label, type, doc, shape, default_value}
/* A choice among names, for a "string" parameter: SPM_CHOICE("Size", SPM_CASE("s") ","
 * SPM_CASE("m")) is the shape of an enum whose raw values are its case names. */
#define SPM_CASE(name) "{case: \"" name "\", raw: \"" name "\"}"
#define SPM_CHOICE(type_name, cases) "{choice: \"" type_name "\", cases: [" cases "]}"
/* The whole numbers from low to high, for an "int" parameter: SPM_RANGE(1, 4). The host
 * refuses others at their column, and explore draws within the range. */
#define SPM_RANGE(low, high) "{int: [" #low ", " #high "]}"
/* A UUID, for a "string" parameter: text of 32 hex digits, 8-4-4-4-12. */
#define SPM_UUID "\"uuid\""

/* An action with parameters (each an SPM_PARAM or SPM_SHAPED), and one without. */
#define SPM_ACTION(name, doc, run, ...)                                                         \
    {name, doc, run, (const sp_param[]){__VA_ARGS__},                                          \
     (uint32_t)(sizeof((const sp_param[]){__VA_ARGS__}) / sizeof(sp_param))}
#define SPM_ACTION0(name, doc, run) {name, doc, run, NULL, 0}

/* The arguments, by position. */
static inline int64_t spm_int(const spm_args *args, uint32_t index) {
    return args->array->items[index]->scalar.integer;
}
static inline double spm_double(const spm_args *args, uint32_t index) {
    const sp_value *value = args->array->items[index];
    return value->kind == SP_INT ? (double)value->scalar.integer : value->scalar.real;
}
static inline bool spm_bool(const spm_args *args, uint32_t index) {
    return args->array->items[index]->scalar.boolean;
}
static inline const char *spm_text(const spm_args *args, uint32_t index) {
    const sp_value *value = args->array->items[index];
    return value->kind == SP_STRING ? value->text : "";
}

/* Copies text into a char array of the state, cut to fit. */
#define SPM_COPY(array, text) snprintf((array), sizeof(array), "%s", (text))

/* Refuses the action with a message (the state must be as it was). */
static inline int32_t spm_refuse(sp_error *error, const char *format, ...) {
    if (error) {
        va_list list;
        va_start(list, format);
        vsnprintf(error->message, sizeof error->message, format, list);
        va_end(list);
    }
    return SP_ERR_REJECTED;
}

/* ---- Models and the plugin ---------------------------------------------------------- */

typedef struct spm_model {
    const char *name;
    const char *doc;
    const char *type_name;
    size_t state_size;
    void (*init)(void *state); /* the initial state past zeroes, or NULL */
    const spm_field *fields;
    const spm_action *actions;
    uint32_t action_count;
} spm_model;

/* A model whose state is struct T, made zeroed then by init (or NULL). */
#define SPM_MODEL(name, doc, T, init, fields, actions) \
    {name, doc, #T, sizeof(T), init, fields, actions, (uint32_t)(sizeof(actions) / sizeof((actions)[0]))}

/* ---- What the macros above expand to use (not called by models directly) ------------ */

static const storeplugin_host *spm_host;

/* A store: its model and its state's bytes. */
typedef struct spm_store {
    const spm_model *model;
    unsigned char state[];
} spm_store;

static inline int32_t spm_fail(sp_error *error, int32_t code, const char *format, ...) {
    if (error) {
        va_list list;
        va_start(list, format);
        vsnprintf(error->message, sizeof error->message, format, list);
        va_end(list);
    }
    return code;
}

static inline int32_t spm_create(void *model_data, const sp_store_context *context, void **store_out,
                                 sp_error *error) {
    (void)context;
    const spm_model *model = (const spm_model *)model_data;
    spm_store *store = (spm_store *)calloc(1, sizeof(spm_store) + model->state_size);
    if (!store) return spm_fail(error, SP_ERR_NO_MEMORY, "no memory for a %s", model->type_name);
    store->model = model;
    if (model->init) model->init(store->state);
    *store_out = store;
    return SP_OK;
}

static inline void spm_destroy(void *store) { free(store); }

/* Runs the action; a refused one leaves the state as it was. Whether it changed the
 * state is whether the struct's bytes changed. */
static inline int32_t spm_dispatch(void *handle, const char *name, const sp_value *arguments,
                                   sp_dispatch_result *result, sp_error *error) {
    spm_store *store = (spm_store *)handle;
    const spm_model *model = store->model;
    for (uint32_t index = 0; index < model->action_count; index++) {
        const spm_action *action = &model->actions[index];
        if (strcmp(action->name, name) != 0) continue;
        unsigned char *before = (unsigned char *)malloc(model->state_size ? model->state_size : 1);
        if (!before) return spm_fail(error, SP_ERR_NO_MEMORY, "no memory to run %s", name);
        memcpy(before, store->state, model->state_size);
        spm_args args = {arguments};
        int32_t status = action->run(store->state, &args, error);
        if (status != SP_OK) memcpy(store->state, before, model->state_size);
        if (result) {
            result->state_changed = status == SP_OK && memcmp(before, store->state, model->state_size) != 0;
            result->effects_started = 0;
        }
        free(before);
        return status;
    }
    return spm_fail(error, SP_ERR_UNKNOWN_ACTION, "no action named '%s'", name);
}

static inline sp_value *spm_snapshot_fields(const spm_field *fields, const unsigned char *base, const char *type) {
    sp_value *record = spm_host->value_record(type);
    for (const spm_field *field = fields; record && field->name; field++) {
        const unsigned char *at = base + field->offset;
        sp_value *child = NULL;
        switch (field->kind) {
        case SPM_INT: {
            int64_t value;
            memcpy(&value, at, sizeof value);
            child = spm_host->value_int(value);
            break;
        }
        case SPM_DOUBLE: {
            double value;
            memcpy(&value, at, sizeof value);
            child = spm_host->value_double(value);
            break;
        }
        case SPM_BOOL: {
            bool value;
            memcpy(&value, at, sizeof value);
            child = spm_host->value_bool(value);
            break;
        }
        case SPM_TEXT: {
            const unsigned char *end = (const unsigned char *)memchr(at, 0, field->size);
            size_t length = end ? (size_t)(end - at) : field->size;
            char *text = (char *)malloc(length + 1);
            if (text) {
                memcpy(text, at, length);
                text[length] = 0;
                child = spm_host->value_string(text);
                free(text);
            }
            break;
        }
        case SPM_LIST: {
            int64_t count;
            memcpy(&count, base + field->count_offset, sizeof count);
            if (count < 0) count = 0;
            if ((size_t)count > field->capacity) count = (int64_t)field->capacity;
            child = spm_host->value_array();
            for (int64_t index = 0; child && index < count; index++) {
                sp_value *element = spm_snapshot_fields(field->element, at + (size_t)index * field->size, NULL);
                if (!element || spm_host->value_append(child, NULL, element) != SP_OK) {
                    spm_host->value_free(child);
                    child = NULL;
                }
            }
            break;
        }
        }
        if (!child || spm_host->value_append(record, field->name, child) != SP_OK) {
            spm_host->value_free(record);
            record = NULL;
        }
    }
    return record;
}

static inline sp_value *spm_snapshot(void *handle) {
    spm_store *store = (spm_store *)handle;
    return spm_snapshot_fields(store->model->fields, store->state, store->model->type_name);
}

/* Reads a record a snapshot made back into the fields at base; says which field did not
 * fit (path: where the record is in the state). */
static inline int32_t spm_restore_fields(const spm_field *fields, unsigned char *base, const sp_value *record,
                                         const char *path, sp_error *error) {
    if (!record || record->kind != SP_RECORD) return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s: not a record", path);
    for (const spm_field *field = fields; field->name; field++) {
        const sp_value *value = NULL;
        for (uint32_t index = 0; index < record->count; index++) {
            if (record->names[index] && strcmp(record->names[index], field->name) == 0) value = record->items[index];
        }
        if (!value) return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s: no field '%s'", path, field->name);
        unsigned char *at = base + field->offset;
        switch (field->kind) {
        case SPM_INT:
            if (value->kind != SP_INT) return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s.%s: not an int", path, field->name);
            memcpy(at, &value->scalar.integer, sizeof(int64_t));
            break;
        case SPM_DOUBLE: {
            if (value->kind != SP_DOUBLE && value->kind != SP_INT)
                return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s.%s: not a number", path, field->name);
            double number = value->kind == SP_INT ? (double)value->scalar.integer : value->scalar.real;
            memcpy(at, &number, sizeof number);
            break;
        }
        case SPM_BOOL:
            if (value->kind != SP_BOOL) return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s.%s: not a bool", path, field->name);
            memcpy(at, &value->scalar.boolean, sizeof(bool));
            break;
        case SPM_TEXT:
            if (value->kind != SP_STRING || strlen(value->text) >= field->size)
                return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s.%s: not text of under %zu bytes", path, field->name,
                                field->size);
            memset(at, 0, field->size);
            memcpy(at, value->text, strlen(value->text));
            break;
        case SPM_LIST: {
            if (value->kind != SP_ARRAY || value->count > field->capacity)
                return spm_fail(error, SP_ERR_BAD_ARGUMENTS, "%s.%s: not a list of at most %zu", path, field->name,
                                field->capacity);
            memset(at, 0, field->size * field->capacity);
            for (uint32_t index = 0; index < value->count; index++) {
                char inner[256];
                snprintf(inner, sizeof inner, "%s.%s[%u]", path, field->name, index);
                int32_t status = spm_restore_fields(field->element, at + index * field->size, value->items[index],
                                                    inner, error);
                if (status != SP_OK) return status;
            }
            int64_t count = value->count;
            memcpy(base + field->count_offset, &count, sizeof count);
            break;
        }
        }
    }
    return SP_OK;
}

/* Puts back a state; one that does not fit leaves the store as it was. */
static inline int32_t spm_restore(void *handle, const sp_value *state, sp_error *error) {
    spm_store *store = (spm_store *)handle;
    size_t size = store->model->state_size;
    unsigned char *scratch = (unsigned char *)malloc(size ? size : 1);
    if (!scratch) return spm_fail(error, SP_ERR_NO_MEMORY, "no memory to restore a %s", store->model->type_name);
    memcpy(scratch, store->state, size);
    int32_t status = spm_restore_fields(store->model->fields, scratch, state, "state", error);
    if (status == SP_OK) memcpy(store->state, scratch, size);
    free(scratch);
    return status;
}

static inline int32_t spm_register(const storeplugin_host *host, const spm_model *models, uint32_t count,
                                   sp_error *error) {
    spm_host = host;
    for (uint32_t index = 0; index < count; index++) {
        const spm_model *model = &models[index];
        sp_action *actions = (sp_action *)calloc(model->action_count ? model->action_count : 1, sizeof(sp_action));
        if (!actions) return spm_fail(error, SP_ERR_NO_MEMORY, "no memory to register %s", model->name);
        for (uint32_t action = 0; action < model->action_count; action++) {
            actions[action].struct_size = sizeof(sp_action);
            actions[action].name = model->actions[action].name;
            actions[action].doc = model->actions[action].doc;
            actions[action].params = model->actions[action].params;
            actions[action].param_count = model->actions[action].param_count;
        }
        sp_model description;
        memset(&description, 0, sizeof description);
        description.struct_size = sizeof(sp_model);
        description.name = model->name;
        description.doc = model->doc;
        description.actions = actions;
        description.action_count = model->action_count;
        description.model_data = (void *)model;
        description.create = spm_create;
        description.destroy = spm_destroy;
        description.dispatch = spm_dispatch;
        description.snapshot = spm_snapshot;
        description.replay = spm_dispatch; /* no effects: replaying is dispatching */
        description.restore = spm_restore;
        int32_t status = host->register_model(host->host_data, &description, error);
        free(actions);
        if (status != SP_OK) return status;
    }
    return SP_OK;
}

/* The plugin's two exported functions, registering the models listed. */
#define SPM_PLUGIN(plugin_name, plugin_version, ...)                                         \
    static const storeplugin_info spm_plugin_info = {                                        \
        sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, plugin_name,   \
        plugin_version, NULL};                                                               \
    static const spm_model spm_plugin_models[] = {__VA_ARGS__};                              \
    const storeplugin_info *storeplugin_info_v1(void) { return &spm_plugin_info; }           \
    int32_t storeplugin_register_v1(const storeplugin_host *host, sp_error *error) {         \
        return spm_register(host, spm_plugin_models,                                         \
                            (uint32_t)(sizeof spm_plugin_models / sizeof spm_plugin_models[0]), \
                            error);                                                          \
    }

#ifdef __cplusplus
}
#endif

#endif /* STOREPLUGIN_MODEL_H */
