import Foundation
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// A C model whose lists are keyed by `sku`, declared in `identity_fields`; `swap`
/// reverses its two lines. `IDENTITY` and `SIZE` are replaced per test.
private let keyedPluginSource = #"""
    #include "storeplugin.h"
    #include <stddef.h>
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int swapped; } store_t;

    static sp_value *line(const char *sku, int64_t quantity) {
        sp_value *record = host->value_record("Line");
        host->value_append(record, "sku", host->value_string(sku));
        host->value_append(record, "quantity", host->value_int(quantity));
        return record;
    }

    static sp_value *snapshot(void *store) {
        sp_value *lines = host->value_array();
        int swapped = ((store_t *)store)->swapped;
        host->value_append(lines, NULL, line(swapped ? "B-2" : "A-1", swapped ? 2 : 1));
        host->value_append(lines, NULL, line(swapped ? "A-1" : "B-2", swapped ? 1 : 2));
        sp_value *state = host->value_record(NULL);
        host->value_append(state, "lines", lines);
        return state;
    }

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        if (strcmp(action, "swap") != 0) return SP_ERR_UNKNOWN_ACTION;
        ((store_t *)store)->swapped = !((store_t *)store)->swapped;
        result->state_changed = 1;
        return SP_OK;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)context; (void)error;
        *out = calloc(1, sizeof(store_t));
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_action actions[] = { { sizeof(sp_action), "swap", "Reverses the lines.", NULL, 0, NULL, NULL, NULL } };
    static const char *const identity[] = IDENTITY;
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "keyed", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { SIZE, "keyed", "Lines keyed by sku.", actions, 1, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, NULL, NULL, NULL, identity };
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("Identity a model declares")
struct IdentityFieldsTests {
    static func lines(_ skus: [String]) -> Value {
        .record(["lines": .array(skus.map { .record(["sku": .string($0), "quantity": .int(1)]) })])
    }

    @Test func aDeclaredFieldIdentifiesListElementsAsIdDoes() {
        let diff = StateDiff(identityFields: ["sku"])
        #expect(diff.identityFields == ["sku", "id"], "id always counts, after what is declared")
        let changes = diff.changes(from: Self.lines(["a", "b", "c"]), to: Self.lines(["c", "a", "b"]))
        #expect(changes.map(\.description) == [#"↕ lines["c"]: moved from [2] to [0]"#])
        #expect(
            StateDiff.changes(from: Self.lines(["a", "b", "c"]), to: Self.lines(["c", "a", "b"])).count == 2,
            "undeclared, the same lists differ by place")
        let edited: Value = .record(["lines": .array([.record(["sku": .string("a"), "quantity": .int(5)])])])
        #expect(
            diff.changes(from: Self.lines(["a"]), to: edited).map(\.description) == [#"~ lines["a"].quantity: 1 → 5"#])
    }

    @Test func elementsWithoutTheFieldOrWithRepeatsAreNotIdentified() {
        let diff = StateDiff(identityFields: ["sku"])
        #expect(diff.identity(.record(["sku": .int(3)])) == nil, "only strings identify")
        #expect(diff.identity(.record(["id": .string("x")])) == "x")
        #expect(
            diff.identity(.record(["sku": .string("s"), "id": .string("x")])) == "s", "the declared field comes first")
        let repeated = diff.changes(from: Self.lines(["a", "a"]), to: Self.lines(["a"]))
        #expect(repeated.map(\.description) == [#"- lines[1]: {sku: "a", quantity: 1}"#])
    }

    @Test func pathsNameElementsByTheDeclaredField() throws {
        let state = Self.lines(["A-1", "B-2"])
        let diff = StateDiff(identityFields: ["sku"])
        #expect(try PathSyntax.lookup(#"lines["B-2"].sku"#, in: state, identity: diff) == .string("B-2"))
        #expect(throws: TextError.self) { try PathSyntax.lookup(#"lines["B-2"]"#, in: state) }
        do {
            _ = try PathSyntax.lookup(#"lines["Z"]"#, in: state, identity: diff)
        } catch {
            #expect(error.message.contains(#"ids: "A-1", "B-2""#), "\(error.message)")
        }
    }

    private func library(identity: String, size: String = "sizeof(sp_model)") async throws -> String {
        let source = keyedPluginSource.replacingOccurrences(of: "IDENTITY", with: identity).replacingOccurrences(
            of: "SIZE", with: size)
        return try await Fixtures.library("libkeyed.so", source: source, in: Fixtures.directory())
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aPluginDeclaresItsIdentityFieldsThroughTheABI(isolation: PluginHost.Isolation) async throws {
        let library = try await library(identity: #"{ "sku", NULL }"#)
        let shell = try ShellHarness(plugins: [library], isolation: isolation)
        #expect(shell.core.current?.model.identityFields == ["sku"])
        #expect(await shell.run("swap") == ["swap: state changed", #"  ↕ lines["B-2"]: moved from [1] to [0]"#])
        #expect(await shell.run(#":state lines["A-1"].quantity"#) == ["1"])
    }

    @Test func anOlderPluginsIdentityFieldIsNeverRead() async throws {
        // Built before the field: its struct ends at snapshot_changes, and what follows
        // in memory (here a pointer to garbage) is not the host's to read.
        let library = try await library(identity: "{ (const char *)1 }", size: "offsetof(sp_model, identity_fields)")
        let shell = try ShellHarness(plugins: [library])
        #expect(shell.core.current?.model.identityFields == [])
        #expect(await shell.run("swap").count == 3, "lines compared by place: two changes")
    }

    @Test func badIdentityFieldsAreRefusedWithTheModelsName() async throws {
        let host = makeHost()
        for (identity, expected) in [
            (#"{ "not a field!", NULL }"#, #"model 'keyed': identity field 0 is "not a field!""#),
            (
                "{ " + String(repeating: #""f", "#, count: 17) + "NULL }",
                "model 'keyed': identity_fields has no NULL after 16 names"
            ),
        ] {
            let library = try await library(identity: identity)
            do {
                try host.load(library)
                Issue.record("\(identity) loaded")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }
}
