/*
 * CKitchen: a kitchen's order board, a C model whose glue is declared with
 * storeplugin_model.h (the lines between "glue" and "end of glue": the tables and the
 * registration) instead of written against storeplugin.h. It has an int parameter, a
 * string, an enum with a default (an order's size) and keyed child actions
 * (orders["o1"].serve). examples/ckitchen.transcript runs it.
 */
#include "storeplugin_model.h"

typedef struct order {
    char id[12];
    char dish[48];
    char size[4];
    bool served;
} order;

typedef struct kitchen {
    char name[32];
    int64_t covers;
    int64_t placed;
    int64_t served;
    order orders[16];
    int64_t order_count;
} kitchen;

static void open_kitchen(void *state) { SPM_COPY(((kitchen *)state)->name, "kitchen"); }

static order *find(kitchen *k, const char *id) {
    for (int64_t i = 0; i < k->order_count; i++) {
        if (strcmp(k->orders[i].id, id) == 0) return &k->orders[i];
    }
    return NULL;
}

static int32_t rename_kitchen(void *state, const spm_args *args, sp_error *error) {
    (void)error;
    SPM_COPY(((kitchen *)state)->name, spm_text(args, 0));
    return SP_OK;
}

static int32_t set_covers(void *state, const spm_args *args, sp_error *error) {
    if (spm_int(args, 0) < 0) return spm_refuse(error, "covers cannot be negative");
    ((kitchen *)state)->covers = spm_int(args, 0);
    return SP_OK;
}

static int32_t place(void *state, const spm_args *args, sp_error *error) {
    kitchen *k = state;
    if (k->order_count == 16) return spm_refuse(error, "the board is full: serve or cancel an order first");
    if (spm_text(args, 0)[0] == 0) return spm_refuse(error, "an order needs a dish");
    order *o = &k->orders[k->order_count++];
    snprintf(o->id, sizeof o->id, "o%lld", (long long)++k->placed);
    SPM_COPY(o->dish, spm_text(args, 0));
    SPM_COPY(o->size, spm_text(args, 1));
    return SP_OK;
}

static int32_t serve(void *state, const spm_args *args, sp_error *error) {
    order *o = find(state, spm_text(args, 0));
    if (!o) return spm_refuse(error, "no order %s", spm_text(args, 0));
    if (o->served) return spm_refuse(error, "order %s was served already", o->id);
    o->served = true;
    ((kitchen *)state)->served += 1;
    return SP_OK;
}

static int32_t cancel(void *state, const spm_args *args, sp_error *error) {
    kitchen *k = state;
    order *o = find(k, spm_text(args, 0));
    if (!o) return spm_refuse(error, "no order %s", spm_text(args, 0));
    int64_t index = o - k->orders;
    memmove(o, o + 1, (size_t)(k->order_count - index - 1) * sizeof *o);
    memset(&k->orders[--k->order_count], 0, sizeof *o);
    return SP_OK;
}

/* glue */
static const spm_field order_fields[] = {
    SPM_TEXT_FIELD(order, id), SPM_TEXT_FIELD(order, dish), SPM_TEXT_FIELD(order, size),
    SPM_BOOL_FIELD(order, served), SPM_END,
};
static const spm_field kitchen_fields[] = {
    SPM_TEXT_FIELD(kitchen, name), SPM_INT_FIELD(kitchen, covers), SPM_INT_FIELD(kitchen, placed),
    SPM_INT_FIELD(kitchen, served), SPM_LIST_FIELD(kitchen, orders, order_count, order_fields), SPM_END,
};
#define SIZES SPM_CHOICE("Size", SPM_CASE("s") ", " SPM_CASE("m") ", " SPM_CASE("l"))
static const spm_action kitchen_actions[] = {
    SPM_ACTION("rename", "Names the kitchen.", rename_kitchen, SPM_PARAM("name", "string", "the new name")),
    SPM_ACTION("setCovers", "How many guests are seated.", set_covers,
               SPM_SHAPED(NULL, "int", "guests", SPM_RANGE(0, 500), NULL)),
    SPM_ACTION("place", "Places an order.", place, SPM_PARAM("dish", "string", "what to cook"),
               SPM_SHAPED("size", "string", "the portion", SIZES, "\"m\"")),
    SPM_ACTION("orders[].serve", "Serves an order.", serve, SPM_PARAM(NULL, "string", "the order's id")),
    SPM_ACTION("orders[].cancel", "Takes an order off the board.", cancel,
               SPM_PARAM(NULL, "string", "the order's id")),
};
SPM_PLUGIN("ckitchen", "1.0.0",
           SPM_MODEL("ckitchen", "A kitchen's order board, in C with declared glue.", kitchen, open_kitchen,
                     kitchen_fields, kitchen_actions))
/* end of glue */
