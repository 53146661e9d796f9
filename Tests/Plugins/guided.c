/*
 * Guided: models whose failure needs one long exact sequence, for `storesh explore`'s
 * guidance tests, built with the system's C compiler against storeplugin.h alone.
 *   keypad   ten buttons (b0 … b9): eight presses in the code's order open it; a wrong
 *            press starts over. Its progress is in the state (`entered`), so a search
 *            that keeps runs reaching new states climbs it press by press. Random
 *            search opens it once in about 10^8 tries.
 *   vault    ten buttons and a reset: three presses, a reset, three presses open it (7
 *            steps); any other order starts over. Its progress is hidden: the state says
 *            only whether it is open, so only the code it runs shows how far a run got.
 * Each declares the invariant `open == false`: opening it is the failure to find.
 * Built with -DSWIFT_VAULT, the vault's stages are Swift code (Tests/Plugins/SwiftVault.swift,
 * linked in by swiftc): what a Swift model built for coverage shows a search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "storeplugin.h"

static const storeplugin_host *host;

typedef struct store {
    int keypad;    /* 1: keypad, 0: vault */
    int entered;   /* keypad: presses of the code so far */
    int stage;     /* vault: hidden progress */
    int open;
} store;

static const int keypad_code[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

static int32_t refuse(sp_error *error, int32_t code, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
    return code;
}

/* The vault's stages, one branch each, so a run's progress shows in the code it runs. */
#ifdef SWIFT_VAULT
int guided_vault_next(int stage, int button);
#define vault_next guided_vault_next
#else
static int vault_next(int stage, int button) {
    switch (stage) {
    case 0: return button == 2 ? 1 : 0;
    case 1: return button == 7 ? 2 : 0;
    case 2: return button == 1 ? 3 : 0;
    case 3: return button == -1 ? 4 : 0;
    case 4: return button == 8 ? 5 : 0;
    case 5: return button == 2 ? 6 : 0;
    case 6: return button == 8 ? 7 : 0;
    default: return stage;
    }
}
#endif

static int32_t dispatch(void *opaque, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    (void)arguments;
    store *s = opaque;
    result->effects_started = 0;
    int button = strcmp(action, "reset") == 0 ? -1 : (action[0] == 'b' && action[1] >= '0' && action[1] <= '9' && !action[2]) ? action[1] - '0' : -2;
    if (button == -2) return refuse(error, SP_ERR_UNKNOWN_ACTION, "no such button");
    int was_open = s->open, was_entered = s->entered;
    if (s->keypad) {
        if (!s->open) {
            if (button == keypad_code[s->entered]) s->entered += 1;
            else s->entered = button == keypad_code[0] ? 1 : 0;
            s->open = s->entered == 8;
        }
    } else if (!s->open) {
        s->stage = vault_next(s->stage, button);
        s->open = s->stage == 7;
    }
    result->state_changed = s->open != was_open || s->entered != was_entered;
    return SP_OK;
}

static sp_value *snapshot(void *opaque) {
    store *s = opaque;
    sp_value *state = host->value_record(NULL);
    if (!state) return NULL;
    if (s->keypad && host->value_append(state, "entered", host->value_int(s->entered)) != SP_OK) goto failed;
    if (host->value_append(state, "open", host->value_bool(s->open)) != SP_OK) goto failed;
    return state;
failed:
    host->value_free(state);
    return NULL;
}

static void destroy(void *opaque) { free(opaque); }

static int32_t create(int keypad, void **out, sp_error *error) {
    store *s = calloc(1, sizeof *s);
    if (!s) return refuse(error, SP_ERR_NO_MEMORY, "out of memory");
    s->keypad = keypad;
    *out = s;
    return SP_OK;
}
static int32_t create_keypad(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data; (void)context;
    return create(1, out, error);
}
static int32_t create_vault(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data; (void)context;
    return create(0, out, error);
}

#define BUTTON(name) { sizeof(sp_action), name, "Presses the button.", NULL, 0, "", NULL, NULL }
#define BUTTONS BUTTON("b0"), BUTTON("b1"), BUTTON("b2"), BUTTON("b3"), BUTTON("b4"), \
    BUTTON("b5"), BUTTON("b6"), BUTTON("b7"), BUTTON("b8"), BUTTON("b9")
static const sp_action keypad_actions[] = { BUTTONS };
static const sp_action vault_actions[] = {
    BUTTONS, { sizeof(sp_action), "reset", "Starts over.", NULL, 0, "", NULL, NULL },
};

static const storeplugin_info info = {
    sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "guided", "1.0.0", NULL,
};

const storeplugin_info *storeplugin_info_v1(void) { return &info; }

static const char *const closed[] = { "open == false", NULL };

int32_t storeplugin_register_v1(const storeplugin_host *services, sp_error *error) {
    host = services;
    sp_model models[] = {
        { .struct_size = sizeof(sp_model), .name = "keypad", .doc = "Eight presses in order open it.",
          .actions = keypad_actions, .action_count = 10, .create = create_keypad, .destroy = destroy,
          .dispatch = dispatch, .snapshot = snapshot, .replay = dispatch, .invariants = closed },
        { .struct_size = sizeof(sp_model), .name = "vault", .doc = "Three presses, a reset, three presses open it.",
          .actions = vault_actions, .action_count = 11, .create = create_vault, .destroy = destroy,
          .dispatch = dispatch, .snapshot = snapshot, .replay = dispatch, .invariants = closed },
    };
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        int32_t status = host->register_model(host->host_data, &models[i], error);
        if (status != SP_OK) return status;
    }
    return SP_OK;
}
