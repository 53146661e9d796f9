/*
 * storeplugin.h — the storesh plugin ABI, version 1.
 *
 * This header is the whole contract between a host (storesh, or any program that
 * embeds StoreHost) and a plugin: a shared library that provides one or more
 * store-based models. Nothing else crosses the boundary: no Swift type, no C++ type,
 * no allocator other than the ones named here. A plugin written in plain C needs only
 * this file; a Swift plugin uses the StorePlugin SDK, which is built on it.
 *
 * ------------------------------------------------------------------------------------
 * How a host loads a plugin
 *
 *   1. dlopen() the library. A plugin must not do work in static constructors.
 *   2. dlsym(STOREPLUGIN_INFO_SYMBOL) and call it. It returns a pointer to a constant
 *      storeplugin_info and must run no other code. The host checks struct_size,
 *      magic, abi_version and toolchain; on any mismatch it reports a specific error
 *      and never calls into the plugin again.
 *   3. dlsym(STOREPLUGIN_ENTRY_SYMBOL) and call it with the host's services table.
 *      The plugin registers each of its models with host->register_model, then
 *      returns SP_OK, or an error code with a message in *error.
 *   4. The host creates stores (one per session) with model->create, sends actions
 *      with model->dispatch or an action's typed entry point, reads state with
 *      model->snapshot, and releases stores with model->destroy.
 *
 * Versioning. The ABI version is part of both symbol names: an incompatible change
 * means version 2 and new symbols. Compatible growth only appends fields to the end
 * of a struct. Every struct starts with its own size (struct_size, in bytes, written
 * by whoever fills it in); a reader ignores fields beyond the size it was given and
 * treats missing trailing fields as zero/NULL.
 *
 * Threads. All calls between host and plugin happen on the host's main thread. A
 * plugin whose effects run elsewhere (a Swift plugin's tasks, say) delivers their
 * results to the main thread itself (the host keeps the main dispatch queue and run
 * loop serviced) and calls the store context's callbacks from there.
 *
 * Errors. Functions that can fail return int32_t: SP_OK (0) or one of the SP_ERR_*
 * codes below, and fill in the caller's sp_error with a human-readable message. A
 * plugin never aborts the host on bad input: it returns an error.
 * ------------------------------------------------------------------------------------
 */
#ifndef STOREPLUGIN_H
#define STOREPLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version this header describes. */
#define STOREPLUGIN_ABI_VERSION 1u
/* storeplugin_info.magic: the bytes "STRP". Anything else is not a storesh plugin. */
#define STOREPLUGIN_MAGIC 0x53545250u
/* The two symbols a plugin exports (see the top of this file). */
#define STOREPLUGIN_INFO_SYMBOL "storeplugin_info_v1"
#define STOREPLUGIN_ENTRY_SYMBOL "storeplugin_register_v1"

/* ---- Return codes ------------------------------------------------------------------ */

enum {
    SP_OK = 0,
    SP_ERR_UNKNOWN_ACTION = 1, /* no action with that name */
    SP_ERR_BAD_ARGUMENTS = 2,  /* wrong number or type of arguments */
    SP_ERR_REJECTED = 3,       /* the model refused the action (say why in the message) */
    SP_ERR_REGISTRATION = 4,   /* the plugin could not register its models */
    SP_ERR_SERVICE = 5,        /* an environment service is missing or failed */
    SP_ERR_NO_MEMORY = 6,
    SP_ERR_INTERNAL = 7        /* a bug in the plugin or host; the message says more */
};

/* The message that goes with an error code. The caller owns it (usually on its stack)
 * and zero-fills it; the callee writes a NUL-terminated UTF-8 message, truncated to
 * fit. No allocation, so nothing to free. */
typedef struct sp_error {
    uint32_t struct_size;
    char message[1024];
} sp_error;

/* ---- Values -------------------------------------------------------------------------
 * A language-neutral value tree: how action arguments and state snapshots travel.
 * Values are built only with the host's value_* functions (see storeplugin_host) and
 * freed only with host->value_free, so plugin and host never mix allocators.
 *
 * Ownership: a value passed *to* a plugin (dispatch arguments) belongs to the host and
 * is valid only during that call; read it, do not keep or free it. A value a plugin
 * returns (snapshot) or appends into another belongs to the receiver from then on.
 */
typedef enum sp_kind {
    SP_NULL = 0,
    SP_BOOL = 1,   /* scalar.boolean */
    SP_INT = 2,    /* scalar.integer */
    SP_DOUBLE = 3, /* scalar.real */
    SP_STRING = 4, /* text: UTF-8, NUL-terminated */
    SP_ARRAY = 5,  /* items[0..count) */
    SP_RECORD = 6, /* fields: names[i] = items[i], in order; text = type name or NULL */
    SP_ENUM = 7    /* a case: text = case name; payload: names[i] (NULL if unlabelled) = items[i] */
} sp_kind;

typedef struct sp_value sp_value;
struct sp_value {
    uint32_t kind; /* an sp_kind */
    uint32_t count; /* number of items (ARRAY, RECORD, ENUM); 0 otherwise */
    union {
        bool boolean;
        int64_t integer;
        double real;
    } scalar;
    const char *text;           /* STRING: the text; RECORD: type name or NULL; ENUM: case name */
    const char *const *names;   /* RECORD/ENUM: a label per item (NULL = no label); else NULL */
    sp_value *const *items;     /* ARRAY/RECORD/ENUM: the children; else NULL */
};

/* ---- Effects ------------------------------------------------------------------------ */

/* The effect protocol. An effect is work an action starts that ends later (a timer, a
 * service call) and may send actions back to its store. For each effect a plugin calls
 * the store context's effect_event, on the host's main thread, in this order:
 *
 *   1. STARTED, while the action that starts it is being dispatched (before dispatch
 *      returns), with that action's name as the label; the dispatch result counts it in
 *      effects_started. Ids count from 1 per store, in the order effects start.
 *   2. For each action the effect sends: first apply it to the store, as dispatch would;
 *      then EMITTED, with the action written in the shell's action syntax (the text a
 *      user types: `setGreeting text: "Hi"`, `todos["t1"].toggle`, strings in double
 *      quotes with JSON's escapes) and state_changed set; then action_applied with the
 *      same text. The host records that text in the session's history and sends it
 *      again through dispatch or replay for time travel, recovery and :reload, so it
 *      must parse against the model's own schema.
 *   3. Last, exactly one of FINISHED (it ended), FAILED (with a message) or CANCELLED
 *      (the model cancelled it). After it, nothing more for that id.
 *
 * Waits go through the host clock (clock_wake), never the system's, so a transcript
 * replays the same way. replay starts no effect; restore and destroy cancel the effects
 * in flight (cancel their timers) without reporting them. plugins/CGreeter/cgreeter.c
 * follows every step. */

typedef enum sp_effect_kind {
    SP_EFFECT_STARTED = 1,   /* label: what started it (an action name), or NULL */
    SP_EFFECT_EMITTED = 2,   /* action: the action it sent back, as text */
    SP_EFFECT_FINISHED = 3,
    SP_EFFECT_FAILED = 4,    /* message: why */
    SP_EFFECT_CANCELLED = 5
} sp_effect_kind;

/* One thing that happened to one effect. Strings are valid during the callback only. */
typedef struct sp_effect_event {
    uint32_t struct_size;
    uint32_t kind;       /* an sp_effect_kind */
    uint64_t effect_id;  /* per store, counting from 1 in the order effects start */
    const char *label;   /* STARTED */
    const char *action;  /* EMITTED */
    const char *message; /* FAILED */
    /* EMITTED: 1 when the action the effect sent changed the state. Reported after the
     * action has been applied (readers check struct_size: older plugins lack it). */
    uint32_t state_changed;
} sp_effect_event;

/* ---- Schema ------------------------------------------------------------------------- */

/* Parameter types, as strings in sp_param.type and as letters in signatures:
 *   "int"    'i'  int64_t
 *   "double" 'd'  double
 *   "bool"   'b'  bool (C99 _Bool)
 *   "string" 's'  const char * (UTF-8; host-owned, valid during the call)
 *   "value"  -    any value tree (dispatch only; no typed entry point can take it)
 */
/* The struct's tag names its layout (sp_param_v2: with shape and default_value). Swift
 * identifies an imported C struct by its tag across the whole process, so a Swift plugin
 * built against the earlier header and a host built against this one would otherwise
 * share one idea of its size, and the plugin would lay its array out at the host's. Grow
 * a struct, change its tag; C code uses the typedef. */
typedef struct sp_param_v2 {
    uint32_t struct_size;
    const char *label; /* NULL or "" for a positional parameter */
    const char *type;  /* one of the type names above */
    const char *doc;   /* one line, or NULL */
    /* Appended (readers check struct_size: older plugins lack them). */
    /* What the argument looks like, deeper than type, as a literal (the syntax of action
     * arguments), or NULL for just type. The host checks arguments against it before
     * dispatch (the plugin then gets them in the form below), completes and shows it,
     * and generates arguments from it:
     *   "int" "double" "bool" "string" "any"          {int: [LOW, HIGH]}   (a range)
     *   "uuid"                  text of 32 hex digits, 8-4-4-4-12 (a host older than it
     *                           refuses it, naming the parameter)
     *   {optional: SHAPE}       the value or null
     *   {list: SHAPE}           an SP_ARRAY of SHAPE
     *   {dictionary: [KEY, VALUE]}   with KEY "string": an SP_RECORD, one field per key
     *   {record: "Name" or null, fields: [["label", SHAPE], ...]}   an SP_RECORD; an
     *                           optional field may be absent
     *   {choice: "Name" or null, cases: [{case: "name", payload: [["label" or null,
     *                           SHAPE], ...], raw: VALUE}, ...]}   an enum: with raw
     *                           values (every case, a string or number, no payload) the
     *                           argument is the raw value; without, a record with one
     *                           field named after the case holding a record of its
     *                           payload (unlabelled payload values are _0, _1, ...):
     *                           {courier: {days: 2}}, {pickup: {}}
     * e.g. {choice: "Shipping", cases: [{case: "ground", raw: "ground"}, {case: "air",
     * raw: "air"}]}. The shape must fit type: "value" takes any shape; "int", "double" and
     * "string" also take a choice whose raw values are of that type (a C plugin's enum
     * of names), "int" a range, "string" a "uuid". A shape that does not read or fit is a registration
     * error naming the parameter. */
    const char *shape;
    /* The argument's default, as literal text ("ground", 3, null, [1, 2]), taken when the
     * argument is left out; NULL when it must be given. Checked against shape (or type)
     * at registration. */
    const char *default_value;
} sp_param;

/* A typed entry point, called by the host through libffi as
 *     int32_t entry(void *store, void *action_data, sp_dispatch_result *result,
 *                   sp_error *error, <one C argument per parameter>);
 * with the C types listed above, in parameter order. Declared here without a
 * prototype because its real signature is known only at run time. */
typedef void (*sp_typed_entry)(void);

/* One action a model accepts. Names may be dotted for a tagged child action
 * ("child.increment"); a keyed child action is written "todos[].toggle" and takes the
 * key as its first parameter. */
typedef struct sp_action {
    uint32_t struct_size;
    const char *name;
    const char *doc;            /* one line, or NULL */
    const sp_param *params;
    uint32_t param_count;
    /* Optional fast path. signature: one letter per parameter (see above), "" for none;
     * it must agree with params. NULL entry means: use model->dispatch. */
    const char *signature;
    sp_typed_entry typed_entry;
    void *action_data;          /* passed back to typed_entry unchanged */
} sp_action;

/* A service the model needs from its environment (a network client, a clock, a
 * random source). The host passes an implementation of each in sp_store_context; it
 * passes default_impl unless the user replaced the service (storesh's :stub). The host
 * may replace an entry while the store lives, so read it from the array at each call.
 * After calling a service, ask host->service_failure whether a replacement was told to
 * fail (the C signature has no room for an error).
 *
 * signature: parameter letters, '>', then the return letter or 'v' for void; e.g.
 * "ss>b" is bool fn(const char *, const char *). A returned string must stay valid
 * until the next call of the same service. */
typedef struct sp_service {
    uint32_t struct_size;
    const char *name;
    const char *doc;
    const char *signature;
    sp_typed_entry default_impl; /* the plugin's own implementation; must not be NULL */
} sp_service;

/* A property the model checks in its own code (a Swift closure, a C function): the host
 * asks for it through sp_model.check. An invariant holds of every state; a postcondition
 * holds of every action the host dispatched: of the state before it, the action, and the
 * state now (what the action's effects did since included). */
#define SP_CHECK_INVARIANT 0u
#define SP_CHECK_POSTCONDITION 1u
typedef struct sp_check {
    uint32_t struct_size;
    uint32_t kind;    /* SP_CHECK_INVARIANT or SP_CHECK_POSTCONDITION */
    const char *name; /* unique within the model, any text: reports and :check-model name it */
    const char *doc;  /* one line, or NULL */
} sp_check;

/* ---- Stores ------------------------------------------------------------------------- */

/* What the host tells a new store. Valid until model->destroy returns. */
typedef struct sp_store_context {
    uint32_t struct_size;
    void *user_data; /* the host's; passed back to every callback below */
    /* Each effect event, as it happens. */
    void (*effect_event)(void *user_data, const sp_effect_event *event);
    /* An action the host did not dispatch (one an effect sent) has been applied. */
    void (*action_applied)(void *user_data, const char *action_text);
    /* Service implementations, one per sp_model.services entry, in the same order. */
    const sp_typed_entry *services; /* may change between calls: read at each call */
    uint32_t service_count;
} sp_store_context;

/* What one dispatch did. Filled in by the plugin. */
typedef struct sp_dispatch_result {
    uint32_t struct_size;
    uint32_t state_changed;   /* 1 if the state differs from before the action */
    uint32_t effects_started; /* how many effects the action started */
} sp_dispatch_result;

/* One model. The host copies the names, docs and schema during register_model, so this
 * struct and its strings may be freed when register_model returns; the function
 * pointers and model_data must stay valid while the plugin is loaded. */
typedef struct sp_model {
    uint32_t struct_size;
    const char *name; /* unique within the plugin: [A-Za-z_][A-Za-z0-9_-]* */
    const char *doc;  /* one line */
    const sp_action *actions;
    uint32_t action_count;
    const sp_service *services;
    uint32_t service_count;
    void *model_data; /* passed back to create unchanged */

    /* A new store in its initial state. *store_out is the plugin's handle for it. */
    int32_t (*create)(void *model_data, const sp_store_context *context, void **store_out,
                      sp_error *error);
    /* Releases a store; cancels its effects. No callbacks for it arrive afterwards. */
    void (*destroy)(void *store);
    /* Applies one action. arguments is an SP_ARRAY holding the parameters in schema
     * order, already checked by the host against the schema. */
    int32_t (*dispatch)(void *store, const char *action, const sp_value *arguments,
                        sp_dispatch_result *result, sp_error *error);
    /* The current state as a value tree built with the host's value functions, owned by
     * the host from then on; NULL if it cannot be produced (out of memory). */
    sp_value *(*snapshot)(void *store);

    /* ---- Time travel (optional; NULL when not supported). Hosts use these to replay a
     * session's history: undo, jump to an earlier action, resume from a journal. ---- */

    /* Applies one action like dispatch, but runs only the update: the effects it would
     * start are dropped, not started. Every action an effect can send should be in the
     * schema, so a history that contains it can be replayed. */
    int32_t (*replay)(void *store, const char *action, const sp_value *arguments,
                      sp_dispatch_result *result, sp_error *error);
    /* Replaces the store's state with a snapshot this model produced earlier (a jump in
     * time); effects in flight are cancelled and none are started. NULL: the host starts
     * from a new store and replays instead. */
    int32_t (*restore)(void *store, const sp_value *state, sp_error *error);

    /* ---- Incremental snapshots (optional; NULL when not supported). A host that shows
     * the state after every action need not read a large state whole each time. ---- */

    /* What changed in the state since this store's last report — its last call of
     * snapshot, snapshot_encoded, snapshot_changes or snapshot_changes_encoded, whatever
     * that call returned — as a value tree owned by the host from then on: an SP_ARRAY of changes, in the
     * order to apply them, each an SP_RECORD named
     *     "set"     {path, value}: the value at path is now value;
     *     "splice"  {path, at, remove, insert}: in the array at path, `remove` (SP_INT)
     *               elements from index `at` (SP_INT) on are replaced by the elements of
     *               `insert` (SP_ARRAY).
     * A path is an SP_ARRAY of steps from the root: SP_STRING for a record's field,
     * SP_INT for an array's index; an empty path is the whole state. An empty SP_ARRAY
     * means nothing changed. NULL means the plugin cannot tell (no earlier snapshot, or it
     * ran out of memory): the host calls snapshot instead. A host that applies every
     * answer, in order, to the state it read before holds the state snapshot would return;
     * when it cannot (a change does not fit), it calls snapshot to start again. */
    sp_value *(*snapshot_changes)(void *store);

    /* ---- List identity (optional; NULL when not declared). ---- */

    /* Field names that identify the elements of the state's lists of records, tried in
     * order before "id" (which counts without being declared), NULL-terminated, at most
     * 16: an element is identified by the SP_STRING value of the first of these fields it
     * has. A list whose elements all have unique identities is diffed by them (moves,
     * inserts, removes) and its elements are named by them in paths: lines["A-1"].qty. */
    const char *const *identity_fields;

    /* ---- Encoded snapshots (optional; NULL when not supported). ---- */

    /* The state snapshot would return, written as bytes instead of built as a tree: one
     * allocation in all rather than one per value, on both sides, which is most of what
     * showing a small state after every action costs. The plugin passes the encoding to
     * write(sink, bytes, count), in one call or several (the bytes are their
     * concatenation), and returns SP_OK; or an error code, and the host calls snapshot.
     * A write that returns non-zero takes no more: return SP_ERR_NO_MEMORY.
     *
     * A value is a kind byte and what that kind holds (integers little-endian):
     *   0 null        nothing
     *   1 bool        one byte, 0 or 1
     *   2 int         8 bytes, two's complement
     *   3 double      8 bytes, IEEE 754 binary64
     *   4 string      a uint32 byte count, then that many bytes of UTF-8
     *   5 array       a uint32 count, then that many values
     *   6 record      an optional string (the type name), a uint32 count, then per field
     *                 an optional string (the label, which a record's fields must have)
     *                 and a value
     *   7 enum        a string (the case name), a uint32 count, then per payload value
     *                 an optional string (its label) and the value
     * An optional string is a byte, 0 (none) or 1 followed by a string. Values nest at
     * most 256 levels, as trees do. It is the worker protocol's value (docs/). A host
     * checks every byte: an encoding that does not parse is the plugin's error. */
    int32_t (*snapshot_encoded)(void *store, int32_t (*write)(void *sink, const void *bytes, size_t count),
                                void *sink);

    /* ---- Invariants (optional; NULL when not declared). ---- */

    /* What must hold of the state after every action, NULL-terminated, at most 64: each
     * an expression of storesh's property language (docs/shell/explore.md) over the state
     * ("balance >= 0", "todos[0].title != \"\"", "size == count(contents)"). `storesh
     * explore` checks them after every step with no flags; a path that names nothing in a
     * state holds there. A text that does not read as a check fails the registration,
     * naming it and the column. */
    const char *const *invariants;

    /* ---- Encoded changes (optional; NULL when not supported). ---- */

    /* What snapshot_changes would return, written as bytes in snapshot_encoded's encoding
     * instead of built as a tree: one array value holding the "set" and "splice" records,
     * passed to write(sink, bytes, count) in one call or several. A sort of a long list
     * is one "set" of the whole list, thousands of values: as bytes they cost neither
     * side an allocation each. The changes are since the same report snapshot_changes
     * counts from, and this call is a report too. SP_OK: the bytes are the changes. Any
     * other code (having written anything or nothing) is what NULL is to
     * snapshot_changes: the plugin cannot tell, and the host reads the whole state
     * instead (the Swift SDK says SP_ERR_INTERNAL when it has no baseline). write and
     * sink are valid during the call only; a write that returns non-zero takes no more:
     * return SP_ERR_NO_MEMORY. A host that has this calls it instead of snapshot_changes,
     * and warns of bytes that do not parse or are not a list of changes, then reads the
     * whole state. Keep snapshot_changes as well for hosts older than this member. */
    int32_t (*snapshot_changes_encoded)(void *store,
                                        int32_t (*write)(void *sink, const void *bytes, size_t count),
                                        void *sink);

    /* ---- Settling (optional; NULL when not supported). ---- */

    /* 1 when none of the plugin's effect work can go on without the host: nothing of its
     * own is runnable or on its way to the main thread, and every effect that is not
     * finished waits on a host timer (clock_wake) — so until the host fires a timer or
     * calls in, the plugin will report nothing (an answer asked for with service_answer
     * is such a wait). 0 otherwise: work is running, queued, or
     * waiting on something the host clock does not control (a real sleep, a network
     * call). Main thread only; cheap. On a virtual clock the host asks it after every step
     * and moves time only once it says 1 (docs/ARCHITECTURE.md, "The order of events"); a
     * plugin without it is settled by comparing its effects in flight with its timers. */
    int32_t (*effects_idle)(void *store);

    /* ---- Checks in code (optional; NULL and 0 when not declared). ---- */

    /* Properties the plugin evaluates itself, at most 64 (sp_check above). `storesh
     * explore` asks for them with no flags: an invariant after every step, a
     * postcondition after every step that took an action the model accepted. */
    const sp_check *checks;
    uint32_t check_count;
    /* Evaluates checks[index] on the store now: SP_OK with *holds set to 1 (it holds) or 0
     * (it is broken; a message in *error says what was found, or none), or an error code
     * and a message when it could not be evaluated. A postcondition looks at the last
     * action dispatch took and holds while there is none: before the first, after one it
     * refused, and after a replay or restore. Main thread only. */
    int32_t (*check)(void *store, uint32_t index, int32_t *holds, sp_error *error);
} sp_model;

/* storeplugin_host.virtual_clock */
#define STOREPLUGIN_CLOCK_REAL 0u
#define STOREPLUGIN_CLOCK_VIRTUAL 1u
#define STOREPLUGIN_CLOCK_VIRTUAL_WORLD 2u

/* ---- What a plugin exports ---------------------------------------------------------- */

typedef struct storeplugin_info {
    uint32_t struct_size;
    uint32_t magic;       /* STOREPLUGIN_MAGIC */
    uint32_t abi_version; /* STOREPLUGIN_ABI_VERSION the plugin was built against */
    const char *name;     /* the plugin's name, e.g. "counter" */
    const char *version;  /* the plugin's own version, e.g. "1.2.0" */
    /* The compiler a plugin's runtime depends on, when it has one: Swift plugins set it
     * to storeplugin_compiler_tag(), and the host refuses a plugin built by another
     * toolchain (its runtime libraries would not match). NULL for plugins with no such
     * dependency, such as plain C. */
    const char *toolchain;
} storeplugin_info;

/* ---- What the host provides --------------------------------------------------------- */

/* Log levels for host->log. */
enum { SP_LOG_DEBUG = 0, SP_LOG_INFO = 1, SP_LOG_WARNING = 2, SP_LOG_ERROR = 3 };

/* The host's services. Append-only: new members go at the end, behind struct_size.
 * The table and host_data stay valid while the plugin is loaded. */
typedef struct storeplugin_host {
    uint32_t struct_size;
    uint32_t abi_version;
    void *host_data; /* pass to every function below that takes it */

    /* Registers one model; call during the entry point only. Fails with
     * SP_ERR_REGISTRATION (and a message) on a malformed model or a duplicate name. */
    int32_t (*register_model)(void *host_data, const sp_model *model, sp_error *error);
    /* A message for the host's log. */
    void (*log)(void *host_data, int32_t level, const char *message);

    /* Value builders. Each returns a new value owned by the caller, or NULL when out
     * of memory. value_string copies its argument. */
    sp_value *(*value_null)(void);
    sp_value *(*value_bool)(bool value);
    sp_value *(*value_int)(int64_t value);
    sp_value *(*value_double)(double value);
    sp_value *(*value_string)(const char *utf8);
    sp_value *(*value_array)(void);
    sp_value *(*value_record)(const char *type_name /* may be NULL */);
    sp_value *(*value_enum)(const char *case_name);
    /* Appends child to an ARRAY (label must be NULL), RECORD (label required) or ENUM
     * (label optional), taking ownership of child whatever the result. */
    int32_t (*value_append)(sp_value *container, const char *label, sp_value *child);
    /* Frees a value and everything in it. NULL is ignored. */
    void (*value_free)(sp_value *value);

    /* The host clock, in nanoseconds from an arbitrary origin. It is real time in an
     * interactive shell and virtual time under tests: use it, not the system clock, for
     * everything an effect waits for, so sessions replay identically. */
    int64_t (*clock_now)(void *host_data);
    /* Calls fire(user_data) on the main thread once the clock reaches deadline.
     * Returns a timer id (never 0) for clock_cancel. Timers due at the same instant
     * fire in the order they were scheduled, unless the user picks another (storesh's
     * `:ties`) or `storesh explore --schedules` does: a plugin must not rely on it for
     * work that could finish in either order. */
    uint64_t (*clock_wake)(void *host_data, int64_t deadline, void (*fire)(void *user_data),
                           void *user_data);
    /* Cancels a timer that has not fired; fire is then never called. */
    void (*clock_cancel)(void *host_data, uint64_t timer);

    /* After a service call: SP_OK, or SP_ERR_SERVICE with a message in *error when the
     * host's replacement for the service was told to fail (storesh's `:stub S fail "…"`).
     * The failure is reported once. A plugin's own implementations never set it. */
    int32_t (*service_failure)(void *host_data, sp_error *error);

    /* STOREPLUGIN_CLOCK_VIRTUAL (1) when the clock is virtual: time moves only when the
     * host moves it, after the plugin's effects have settled (sp_model.effects_idle). A
     * plugin that can should then run its effects' work one piece at a time, in the order
     * it became runnable (the Swift SDK runs every effect task on the main queue), so the
     * same actions give the same events in the same order. STOREPLUGIN_CLOCK_VIRTUAL_WORLD
     * (2): virtual, and the whole process is the host's too (a worker's deterministic
     * world): every clock, entropy source, delayed dispatch and task sleep goes through the
     * host, so a suspended task is waiting on the host and effects_idle may count it as
     * quiet. STOREPLUGIN_CLOCK_REAL (0) on a real clock. */
    uint32_t virtual_clock;

    /* Appended (check struct_size: an older host lacks it). An asynchronous service call:
     * the plugin calls the service as it would a synchronous one (the store context's
     * services[i]) and keeps its answer; then it hands the answer's arrival to the host,
     * which calls deliver(user_data) on the main thread when the answer arrives. service
     * is the sp_service name. Returns an id (never 0) that clock_cancel takes: a
     * cancelled answer never arrives. restore and destroy cancel a store's answers.
     * When an answer arrives is the host's choice. By default, at once: once what the
     * store is doing has settled, answers arrive in the order the calls were made. The
     * user may make them wait (storesh's `:latency SERVICE 100ms, next, never`) and
     * `storesh explore --schedules` chooses the waits from its seed: a duration on the
     * host clock, until after the next action the host sends, or until cancelled. So a
     * response that arrives late, after a newer one or after a cancel, is a case tests
     * and searches reach. */
    uint64_t (*service_answer)(void *host_data, const char *service, void (*deliver)(void *user_data),
                               void *user_data);
} storeplugin_host;

/* The two exported functions, for reference (a plugin defines them; the host finds
 * them with dlsym):
 *
 *   const storeplugin_info *storeplugin_info_v1(void);
 *   int32_t storeplugin_register_v1(const storeplugin_host *host, sp_error *error);
 */
typedef const storeplugin_info *(*storeplugin_info_fn)(void);
typedef int32_t (*storeplugin_register_fn)(const storeplugin_host *host, sp_error *error);

/* The compiler that compiled the code calling this. Swift code that imports this header
 * gets the version of the clang inside its Swift toolchain, which names that toolchain
 * exactly; host and Swift plugins compare these tags. */
static inline const char *storeplugin_compiler_tag(void) {
#if defined(__clang_version__)
    return "clang " __clang_version__;
#else
    return "unknown";
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* STOREPLUGIN_H */
