import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// A plugin built against a compatible future header: every struct it hands over has one
/// more trailing field (and says so in struct_size), and its `deepen N` action makes the
/// state an array nested N levels deep.
private let futurePluginSource = #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <string.h>

    typedef struct { sp_param base; void *added_in_v1_1; } future_param;
    typedef struct { sp_action base; void *added_in_v1_1; } future_action;
    typedef struct { sp_service base; void *added_in_v1_1; } future_service;

    static const storeplugin_host *host;
    typedef struct { int64_t depth; } store_t;

    static int64_t answer(void) { return 42; }

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)error;
        if (strcmp(action, "deepen") == 0 && arguments && arguments->count == 1) {
            ((store_t *)store)->depth = arguments->items[0]->scalar.integer;
            result->state_changed = 1;
            return SP_OK;
        }
        if (strcmp(action, "poke") == 0) { result->state_changed = 0; return SP_OK; }
        return SP_ERR_UNKNOWN_ACTION;
    }

    static sp_value *snapshot(void *store) {
        sp_value *value = host->value_int(((store_t *)store)->depth);
        for (int64_t level = 0; level < ((store_t *)store)->depth; level++) {
            sp_value *outer = host->value_array();
            host->value_append(outer, NULL, value);
            value = outer;
        }
        sp_value *state = host->value_record(NULL);
        host->value_append(state, "tree", value);
        return state;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const future_param deepen_params[] = {
        { { sizeof(future_param), "levels", "int", "how deep" }, (void *)1 },
    };
    static const future_action actions[] = {
        { { sizeof(future_action), "poke", "Does nothing.", NULL, 0, NULL, NULL, NULL }, (void *)1 },
        { { sizeof(future_action), "deepen", "Nests the state.", (const sp_param *)deepen_params, 1, NULL, NULL, NULL }, (void *)1 },
    };
    static const future_service services[] = {
        { { sizeof(future_service), "answer", "The answer.", ">i", (sp_typed_entry)answer }, (void *)1 },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "future", "1.1.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "future", "Built against a newer header.",
            (const sp_action *)actions, 2, (const sp_service *)services, 1, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL };
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("Hostile input: errors, never crashes")
struct HostileInputTests {
    @Test func aPluginFromACompatibleFutureHeaderLoadsWithItsWholeSchema() async throws {
        let library = try await Fixtures.library("libfuture.so", source: futurePluginSource, in: Fixtures.directory())
        let host = makeHost()
        let plugin = try host.load(library)
        let model = try #require(plugin.models.first)
        #expect(model.actions.map(\.name) == ["poke", "deepen"])
        #expect(model.actions[1].params.map(\.label) == ["levels"])
        #expect(model.services.map(\.name) == ["answer"])
        #expect(model.services.first?.signature == ">i")
    }

    @Test func aStateNestedDeeperThanTheLimitIsAnErrorAndTheSessionLives() async throws {
        let library = try await Fixtures.library("libfuture.so", source: futurePluginSource, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library])
        #expect(await shell.run("deepen 2", ":state tree").suffix(2) == ["[0]:", "  [0]: 2"])
        let deep = await shell.run("deepen 20000")
        #expect(
            deep == [
                "deepen 20000: state changed",
                "t.storesh:1: error: the action was applied, but future.future: cannot show the state: the value is nested more than 256 levels deep (the limit)",
            ])
        #expect(
            await shell.run(":state").first
                == "t.storesh:1: error: future.future: cannot show the state: the value is nested more than 256 levels deep (the limit)",
            "never a stale state")
        shell.core.showDiff = false
        _ = await shell.run("deepen 20000")
        #expect(await shell.run(":expect tree == 1").first?.contains("cannot show the state") == true)
        #expect(
            await shell.run("deepen 1", ":state tree") == ["deepen 1: state changed", "[0]: 1"], "the session goes on")
    }

    @Test func literalsNestedTooDeeplyAreAnError() async throws {
        let shell = try ShellHarness()
        let line = "setCount " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let output = await shell.run(line)
        #expect(
            output.first == "t.storesh:1:266: error: lists and records nest more than 256 levels deep here (the limit)",
            "\(output.first ?? "")")
        #expect(await shell.run(":state count") == ["0"])
    }

    @Test func statePathsThatEndEarlyAreErrorsWithACaret() async throws {
        let shell = try ShellHarness()
        #expect(
            await shell.run(":state count.") == [
                "t.storesh:1:14: error: expected a field name after the last '.'", "  :state count.",
                "               ^",
            ])
        #expect(
            await shell.run(#":expect count.  == "b""#).first
                == "t.storesh:1:15: error: expected a field name after '.', found ' '")
        #expect(await shell.run(":state a..b").first == "t.storesh:1:10: error: expected a field name between the dots")
        #expect(await shell.run(":state count[99999999999999999999]").first?.contains("is too large") == true)
        #expect(await shell.run(":state count") == ["0"])
    }

    /// `:import` of a directory said only "cannot read", and `:export` into a missing
    /// directory said Foundation's "The operation could not be completed": the system's reason
    /// is what a user can act on. The history is untouched either way.
    @Test func filesThatCannotBeReadOrWrittenSayWhy() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("increment")
        let directory = FileManager.default.temporaryDirectory.path
        #expect(
            await shell.run(":import \(directory)") == [
                "t.storesh:1: error: cannot read \(directory): it is a directory"
            ])
        // Data(contentsOf:) said "Permission denied" for /dev/null, which anyone can read.
        #expect(await shell.run(":import /dev/null")[0].hasPrefix("t.storesh:1: error: /dev/null"))
        #expect(
            await shell.run(":import /nonexistent/saved.log") == [
                "t.storesh:1: error: cannot read /nonexistent/saved.log: No such file or directory"
            ])
        #expect(
            await shell.run(":export /nonexistent/saved.log") == [
                "t.storesh:1: error: cannot write /nonexistent/saved.log: no such directory /nonexistent"
            ])
        #expect(await shell.run(":state count") == ["1"])
    }

    /// `:expect == 1` (no path: the whole state) said "expectation failed:  is {…}".
    @Test func anExpectationOnTheWholeStateNamesIt() async throws {
        let shell = try ShellHarness()
        #expect(
            await shell.run(":expect == 1") == [
                "t.storesh:1: error: expectation failed: the state is {count: 0}, expected 1"
            ])
        #expect(
            await shell.run(":expect count != 0") == [
                "t.storesh:1: error: expectation failed: count is 0, expected anything else"
            ])
        #expect(await shell.run(":expect == {count: 0}").isEmpty)
    }

    /// `:expect` took only `==` and `!=`; invariants and `:bisect` need the order too.
    @Test func anExpectationComparesInOrder() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("increment")
        #expect(
            await shell.run(":expect count >= 1", ":expect count < 2", ":expect count > 0", ":expect count <= 1")
                .isEmpty)
        #expect(
            await shell.run(":expect count > 1") == ["t.storesh:1: error: expectation failed: count is 1, expected > 1"]
        )
        #expect(
            await shell.run(":expect count < \"a\"") == [
                "t.storesh:1: error: expectation failed: count is 1 (int), which '<' cannot compare with \"a\" (string)"
            ])
        #expect(await shell.run(":expect count >").first == "t.storesh:1:16: error: expected a value after '>'")
        #expect(
            await shell.run(":expect count").first
                == "t.storesh:1: error: expectation failed: count is 1 (int), not true or false; compare it with something (count == …)"
        )
        #expect(await shell.run(":state count") == ["1"], "a failed check changes nothing")
    }

    @Test func durationsOutOfRangeAreErrors() async throws {
        let shell = try ShellHarness()
        for line in [
            ":wait 1e30s", ":wait 10000000000000s", ":advance 99999999999999ms", ":advance -1s", ":wait nan s",
            ":advance 366000000s",
        ] {
            let output = await shell.run(line)
            #expect(
                output.count == 1 && output[0].contains("error:") && output[0].contains("365 days"),
                "\(line): \(output)")
        }
        #expect(await shell.run(":advance 365000000s").first?.contains("365 days") == true, "more than a year")
    }

    @Test func unicodeEscapesTakeSurrogatePairs() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        shell.core.showDiff = false
        _ = await shell.run(#"add title: "party \ud83c\udf89 caf\u00e9", priority: 1"#)
        #expect(await shell.run(":state todos[0].title") == [#""party 🎉 café""#])
        #expect(
            await shell.run(#"add title: "\ud83c", priority: 1"#).first?.contains("is a high surrogate; a low one")
                == true)
        #expect(await shell.run(#"add title: "\udf89", priority: 1"#).first?.contains("lone low surrogate") == true)
    }
}

@MainActor
@Suite("Errors point at the mistake, in words")
struct ErrorWordingTests {
    @Test func undoRedoAndSkipAtTheEdgesSayWhy() async throws {
        let shell = try ShellHarness()
        #expect(await shell.run(":undo") == ["t.storesh:1: error: nothing to undo: at the start of the history"])
        #expect(await shell.run(":redo") == ["t.storesh:1: error: nothing to redo: at the last action (0 of 0)"])
        #expect(await shell.run(":skip 1") == ["t.storesh:1: error: there is no history yet: nothing to skip"])
        #expect(
            await shell.run(":goto 3") == [
                "t.storesh:1: error: there is no history yet: :goto 0 is the only place to go"
            ])
    }

    /// ':reset count' reset, ':undo junk' undid and ':plugins x' listed: words a command
    /// does not take were passed over in silence, so a mistyped line did something else.
    @Test func wordsACommandDoesNotTakeAreAnError() async throws {
        let shell = try ShellHarness()
        _ = await shell.run("increment", "increment")
        #expect(await shell.run(":reset count") == ["t.storesh:1: error: :reset takes no arguments"])
        #expect(await shell.run(":undo junk") == ["t.storesh:1: error: usage: :undo [--with-effects]"])
        #expect(await shell.run(":redo 2") == ["t.storesh:1: error: usage: :redo [--with-effects]"])
        #expect(await shell.run(":plugins x") == ["t.storesh:1: error: :plugins takes no arguments"])
        #expect(await shell.run(":quit now") == ["t.storesh:1: error: :quit takes no arguments"])
        #expect(await shell.run(":diff on off") == ["t.storesh:1: error: usage: :diff [on|off]"])
        #expect(
            await shell.run(":wait 1s 2s") == [
                "t.storesh:1: error: usage: :wait [TIMEOUT] (seconds, like 5, or 500ms, 2s, 1m; at most 365 days)"
            ])
        #expect(await shell.run(":help reset undo") == ["t.storesh:1: error: usage: :help [COMMAND | ACTION]"])
        #expect(await shell.run(":import a.log b.log") == ["t.storesh:1: error: usage: :import FILE [--force]"])
        #expect(await shell.run(":state count") == ["2"], "nothing was reset or undone")
        #expect(await shell.run(":undo --with-effects").first == "sent 1 action again with their effects; at 1 of 1")
    }

    @Test func aKeyOfTheWrongTypeIsPointedAtAndNoABIConstantIsShown() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        shell.core.showDiff = false
        _ = await shell.run(#"add title: "a", priority: 1"#)
        #expect(
            await shell.run("todos[0].toggle") == [
                "t.storesh:1:7: error: todos[].toggle: the key is a string, not int 0", "  todos[0].toggle",
                "        ^",
            ])
        #expect(await shell.run(#":state todos["t1"].title"#) == [#""a""#], "keyed paths work where :help shows them")
        #expect(
            await shell.run(#":state todos["t9"]"#) == [
                #"t.storesh:1: error: no element with id "t9" in todos; ids: "t1""#
            ])
    }
}

@MainActor
@Suite("Completion where :help shows paths and keys")
struct CompletionTests {
    @Test func keyedActionsFieldsAndFiles() async throws {
        let shell = try ShellHarness(plugins: ["Todos"])
        _ = await shell.run(#"add title: "a", priority: 1"#)
        let keyed = #"todos["t1"]."#
        #expect(
            shell.core.completions(line: keyed, cursor: keyed.utf8.count).candidates.contains(#"todos["t1"].toggle"#))
        let state = #":state todos["t1"].t"#
        #expect(shell.core.completions(line: state, cursor: state.utf8.count).candidates == [#"todos["t1"].title"#])
        let help = shell.core.completions(line: ":help ", cursor: 6).candidates
        #expect(help.count == Set(help).count && help.contains("actions"), "each topic once: \(help)")
        let directory = try Fixtures.directory()
        #expect(
            FileManager.default.createFile(atPath: directory.appendingPathComponent("saved.log").path, contents: Data())
        )
        shell.core.baseDirectory = directory.path
        #expect(shell.core.completions(line: ":import sa", cursor: 10).candidates == ["saved.log"])
    }
}

@MainActor
@Suite("Two copies of one plugin")
struct TwinPluginTests {
    @Test func aSecondPluginOfTheSameNameIsRefusedNamingBothFiles() throws {
        let copy = try Fixtures.directory().appendingPathComponent("libCCounter.so").path
        try FileManager.default.copyItem(atPath: buildDirectory + "/libStoreshExampleCCounter.so", toPath: copy)
        let host = makeHost()
        let first = try host.load("CCounter")
        #expect(throws: PluginError.nameTaken(path: copy, name: "ccounter", loadedFrom: first.path)) {
            try host.load(copy)
        }
        #expect(try host.model(named: "ccounter.ccounter").plugin == "ccounter", "the first stays, unambiguous")
    }
}
