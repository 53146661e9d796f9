import Foundation

/// `storesh new --c NAME`: a plain-C plugin whose glue is declared with
/// storeplugin_model.h (the state's fields, the actions with their parameters, and the
/// registration, as tables: about 15 lines), with a Makefile and a transcript. The model
/// is a counter and a list: an int parameter, a string, an enum with a default and keyed
/// child actions, each a pattern to copy. The name is used only in text and file names,
/// so any plugin name builds.
extension Scaffold {
    static func plainC(_ options: NewOptions) throws -> Files {
        let name = options.name
        let model = name.lowercased()
        let storesh = Invocation.storesh()
        return [
            ("\(model).c", cSource(name: name, model: model)),
            (
                "Makefile",
                """
                # Builds lib\(name).so against storeplugin.h and storeplugin_model.h, wherever storesh
                # says they are. STORESH is the storesh that made this package (storesh when it was on
                # the PATH). An installed storesh keeps both headers in one folder; a checkout keeps
                # storeplugin_model.h in Sources/CStorePluginModel/include, the second -I.
                STORESH ?= \(storesh)
                INCLUDE ?= $(shell $(STORESH) --include-dir)
                CFLAGS ?= -O2 -Wall -Wextra
                # A machine with the Swift toolchain has its clang, but may have no cc.
                ifeq ($(origin CC),default)
                CC := $(shell command -v cc >/dev/null 2>&1 && echo cc || echo clang)
                endif

                lib\(name).so: \(model).c
                \t$(if $(INCLUDE),,$(error storeplugin.h not found: '$(STORESH) --include-dir' printed nothing; run make STORESH=/path/to/storesh, or INCLUDE=/folder/with/storeplugin.h))
                \t$(CC) $(CFLAGS) -shared -fPIC -I$(INCLUDE) -I$(INCLUDE)/../../CStorePluginModel/include -o $@ $<

                # The same for storesh explore, guided by the code each run takes (clang's
                # SanitizerCoverage): make coverage/lib\(name).so
                coverage/lib\(name).so: \(model).c
                \t$(if $(INCLUDE),,$(error storeplugin.h not found: '$(STORESH) --include-dir' printed nothing; run make STORESH=/path/to/storesh, or INCLUDE=/folder/with/storeplugin.h))
                \tmkdir -p coverage
                \tclang $(CFLAGS) -fsanitize-coverage=trace-pc-guard -shared -fPIC -I$(INCLUDE) -I$(INCLUDE)/../../CStorePluginModel/include -o $@ $<
                clean:
                \trm -rf lib\(name).so coverage

                .PHONY: clean

                """
            ),
            ("\(name).transcript", cTranscript(name: name, model: model)),
            (
                "README.md",
                readme(
                    name: name, build: "make", libraries: ".", language: "C",
                    coverage: (build: "make coverage/lib\(name).so", libraries: "coverage"))
            ),
        ]
    }

    /// The model: plain C functions over a plain struct, then the glue between
    /// "glue" and "end of glue".
    static func cSource(name: String, model: String) -> String {
        """
        /*
         * \(name): a model written in plain C. Its state is one struct and each action a function;
         * the glue (between "glue" and "end of glue") declares them with storeplugin_model.h, which
         * makes snapshot, restore, dispatch and registration from those tables. The host checks
         * each argument against its parameter (type, enum cases) before an action runs.
         */
        #include "storeplugin_model.h"

        typedef struct item {
            char id[12];
            char title[40];
            char size[8];
            bool done;
        } item;

        typedef struct model_state {
            int64_t count;
            item items[16];
            int64_t item_count;
            int64_t added;
        } model_state;

        static int32_t increment(void *state, const spm_args *args, sp_error *error) {
            (void)args;
            model_state *s = state;
            /* Past INT64_MAX, += 1 is undefined behaviour: refused instead. */
            if (s->count == INT64_MAX) return spm_refuse(error, "the count is at its largest");
            s->count += 1;
            return SP_OK;
        }

        static int32_t set_count(void *state, const spm_args *args, sp_error *error) {
            (void)error;
            ((model_state *)state)->count = spm_int(args, 0);
            return SP_OK;
        }

        static int32_t add(void *state, const spm_args *args, sp_error *error) {
            model_state *s = state;
            if (s->item_count == 16) return spm_refuse(error, "the list is full");
            if (spm_text(args, 0)[0] == 0) return spm_refuse(error, "an item needs a title");
            item *new_item = &s->items[s->item_count++];
            snprintf(new_item->id, sizeof new_item->id, "i%lld", (long long)++s->added);
            SPM_COPY(new_item->title, spm_text(args, 0));
            SPM_COPY(new_item->size, spm_text(args, 1));
            return SP_OK;
        }

        static int32_t toggle(void *state, const spm_args *args, sp_error *error) {
            model_state *s = state;
            for (int64_t i = 0; i < s->item_count; i++) {
                if (strcmp(s->items[i].id, spm_text(args, 0)) == 0) {
                    s->items[i].done = !s->items[i].done;
                    return SP_OK;
                }
            }
            return spm_refuse(error, "no item %s", spm_text(args, 0));
        }

        /* glue */
        static const spm_field item_fields[] = {
            SPM_TEXT_FIELD(item, id), SPM_TEXT_FIELD(item, title), SPM_TEXT_FIELD(item, size),
            SPM_BOOL_FIELD(item, done), SPM_END,
        };
        static const spm_field model_fields[] = {
            SPM_INT_FIELD(model_state, count), SPM_LIST_FIELD(model_state, items, item_count, item_fields),
            SPM_INT_FIELD(model_state, added), SPM_END,
        };
        #define SIZES SPM_CHOICE("Size", SPM_CASE("small") ", " SPM_CASE("large"))
        static const spm_action model_actions[] = {
            SPM_ACTION0("increment", "Adds one to the count.", increment),
            SPM_ACTION("setCount", "Sets the count.", set_count, SPM_PARAM(NULL, "int", "the new count")),
            SPM_ACTION("add", "Adds an item to the list.", add, SPM_PARAM("title", "string", "what it is"),
                       SPM_SHAPED("size", "string", "how big it is", SIZES, "\\"small\\"")),
            SPM_ACTION("items[].toggle", "Marks an item done, or not done.", toggle,
                       SPM_PARAM(NULL, "string", "the item's id")),
        };
        SPM_PLUGIN(\(quoted(model)), "1.0.0",
                   SPM_MODEL(\(quoted(model)), "A counter and a list, in C.", model_state, NULL, model_fields,
                             model_actions))
        /* end of glue */

        """
    }

    /// The C model's transcript: each kind of parameter, a refused enum value, a keyed child.
    static func cTranscript(name: String, model: String) -> String {
        transcript(name: name, model: model, library: "lib\(name).so", effect: false) + """
            > add title: "milk"
            add title: "milk": state changed
              + items["i1"]: {id: "i1", title: "milk", size: "small", done: false}
              ~ added: 0 → 1
            > add title: "flour", size: "large"
            add title: "flour", size: "large": state changed
              + items["i2"]: {id: "i2", title: "flour", size: "large", done: false}
              ~ added: 1 → 2
            !> add title: "tea", size: "huge"
            error: add: size: "huge" is not one of "small", "large"
              add title: "tea", size: "huge"
                                      ^
            > items["i1"].toggle
            items["i1"].toggle: state changed
              ~ items["i1"].done: false → true

            """
    }
}
