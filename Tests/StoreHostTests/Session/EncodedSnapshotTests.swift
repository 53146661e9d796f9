import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A plugin in C with both snapshots: its tree says `from: "tree"`; its encoding, written
/// in two pieces, holds every kind of value, or — by action — a broken encoding, or a
/// refusal (the host must then read the tree).
private let encodedSource = #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <stddef.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; int mode; const sp_store_context *context; } store_t;
    enum { FINE, TRUNCATED, TRAILING, REFUSED, DEEP, UNLABELLED, BAD_KIND, REENTRANT };

    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        store_t *s = store;
        result->state_changed = 1;
        static const char *modes[] = { "fine", "truncated", "trailing", "refused", "deep", "unlabelled", "badKind", "reentrant" };
        if (strcmp(action, "increment") == 0) { s->count += 1; return SP_OK; }
        for (int m = 0; m < 8; m++) if (strcmp(action, modes[m]) == 0) { s->mode = m; return SP_OK; }
        return SP_ERR_UNKNOWN_ACTION;
    }

    static sp_value *snapshot(void *store) {
        store_t *s = store;
        sp_value *state = host->value_record("Tree");
        host->value_append(state, "from", host->value_string("tree"));
        host->value_append(state, "count", host->value_int(s->count));
        return state;
    }

    \#(wireBytesC)

    static int32_t snapshot_encoded(void *store, int32_t (*write)(void *, const void *, size_t), void *sink) {
        store_t *s = store;
        if (s->mode == REENTRANT) {
            /* An effect's action applied while the state is written: the host reads the state
             * (this function again) before this call returns. */
            s->mode = FINE;
            s->count += 1;
            s->context->action_applied(s->context->user_data, "increment");
        }
        used = 0;
        if (s->mode == REFUSED) return SP_ERR_NO_MEMORY;
        if (s->mode == DEEP) {
            for (int i = 0; i < 300; i++) { u8(5); u32(1); }
            u8(0);
        } else {
            u8(6); label("Encoded"); u32(s->mode == UNLABELLED ? 8 : 7);
            label("count"); u8(2); u64((uint64_t)s->count);
            label("name"); u8(4); text("caf\xc3\xa9");
            double ratio = 0.5; uint64_t bits; memcpy(&bits, &ratio, 8);
            label("ratio"); u8(3); u64(bits);
            label("on"); u8(1); u8(1);
            label("none"); u8(0);
            label("tags"); u8(5); u32(2); u8(4); text("a"); u8(4); text("");
            label("mode"); u8(7); text("on"); u32(1); u8(0); u8(2); u64(1);
            if (s->mode == UNLABELLED) { u8(0); u8(0); }
            if (s->mode == BAD_KIND) { used = 0; u8(9); }
        }
        if (s->mode == TRUNCATED) used -= 3;
        if (s->mode == TRAILING) u8(0);
        size_t half = used / 2;
        if (write(sink, buffer, half) != 0) return SP_ERR_NO_MEMORY;
        return write(sink, buffer + half, used - half) == 0 ? SP_OK : SP_ERR_NO_MEMORY;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)error;
        store_t *s = calloc(1, sizeof(store_t));
        s->context = context;
        *out = s;
        return SP_OK;
    }
    static void destroy(void *store) { free(store); }

    static const sp_action actions[] = {
        { sizeof(sp_action), "increment", "Adds one.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "fine", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "truncated", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "trailing", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "refused", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "deep", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "unlabelled", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "badKind", "", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "reentrant", "", NULL, 0, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "encoded", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "encoded", "Writes its state as bytes.", actions, 9, NULL, 0, NULL,
            create, destroy, dispatch, snapshot };
        model.snapshot_encoded = snapshot_encoded;
        return host->register_model(host->host_data, &model, error);
    }
    """#

@MainActor
@Suite("A state a plugin writes as bytes (snapshot_encoded) is read as its tree would be, and checked")
struct EncodedSnapshotTests {
    private func session(_ isolation: PluginHost.Isolation, source: String = encodedSource) async throws -> Session {
        let library = try await Fixtures.library("libencoded.so", source: source, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        try host.load(library)
        return try Session(model: host.model(named: "encoded"), host: host)
    }

    private func expected(count: Int64) -> Value {
        .record(
            type: "Encoded",
            fields: [
                .init("count", .int(count)), .init("name", .string("café")), .init("ratio", .double(0.5)),
                .init("on", .bool(true)), .init("none", .null), .init("tags", .array([.string("a"), .string("")])),
                .init("mode", .enumCase(name: "on", payload: [.init(nil, .int(1))])),
            ])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func everyKindOfValueReadsBackAndDiffs(isolation: PluginHost.Isolation) async throws {
        let session = try await session(isolation)
        #expect(session.state == expected(count: 0))
        let result = try session.send(text: "increment")
        #expect(result.stateError == nil)
        #expect(result.changes.map(\.description) == ["~ count: 0 → 1"])
        #expect(session.state == expected(count: 1))
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aRefusalReadsTheTreeInstead(isolation: PluginHost.Isolation) async throws {
        let session = try await session(isolation)
        _ = try session.send(text: "increment")
        _ = try session.send(text: "refused")
        #expect(
            session.state == .record(type: "Tree", fields: [.init("from", .string("tree")), .init("count", .int(1))]))
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func anOlderPluginsEncodedSnapshotIsNeverCalled(isolation: PluginHost.Isolation) async throws {
        // Built before the member: its struct ends before snapshot_encoded, and what follows
        // in memory (here the function after all) is not the host's to call.
        let source = encodedSource.replacingOccurrences(
            of: "sp_model model = { sizeof(sp_model),", with: "sp_model model = { offsetof(sp_model, snapshot_encoded),"
        )
        #expect(source != encodedSource)
        let session = try await session(isolation, source: source)
        _ = try session.send(text: "increment")
        #expect(
            session.state == .record(type: "Tree", fields: [.init("from", .string("tree")), .init("count", .int(1))]))
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aPluginThatCallsBackWhileWritingIsReadAgainInside(isolation: PluginHost.Isolation) async throws {
        let session = try await session(isolation)
        let result = try session.send(text: "reentrant")
        #expect(result.stateError == nil)
        #expect(session.state == expected(count: 1), "the effect's action is in the state")
        _ = try session.send(text: "increment")
        #expect(session.state == expected(count: 2))
    }

    @Test(arguments: [
        ("truncated", "ends early"), ("trailing", "1 byte follows the value"), ("deep", "nested more than 256"),
        ("unlabelled", "a record's field has no label"), ("badKind", "unknown value kind 9"),
    ])
    func anEncodingThatDoesNotParseIsThePluginsErrorAndTheSessionGoesOn(action: String, reason: String) async throws {
        for isolation in [PluginHost.Isolation.inProcess, .workers] {
            let session = try await session(isolation)
            _ = try session.send(text: "increment")
            let broken = try session.send(text: action)
            let message = try #require(broken.stateError, "\(isolation) \(action)")
            #expect(
                message.contains("encoded: snapshot_encoded wrote a state that does not parse")
                    && message.contains(reason), "\(isolation): \(message)")
            // The action was applied; the next readable state shows it and what came after.
            _ = try session.send(text: "fine")
            _ = try session.send(text: "increment")
            #expect(session.state == expected(count: 2), "\(isolation) \(action)")
        }
    }
}
