import StoreHost
import StoreShell
import StoreValue
import Testing

/// A counter in C that refuses `refuse`: a refused action is not in the history, so the
/// places where the history keeps its snapshots move by one each time. It restores
/// snapshots, so a jump starts from one.
private let stepperSource = #"""
#include "storeplugin.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const storeplugin_host *host;
typedef struct { int64_t count; } store_t;

static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
    (void)arguments;
    if (strcmp(action, "step") == 0) { ((store_t *)store)->count += 1; result->state_changed = 1; return SP_OK; }
    snprintf(error->message, sizeof error->message, "refused on purpose");
    return SP_ERR_REJECTED;
}

static sp_value *snapshot(void *store) {
    sp_value *state = host->value_record("Stepper");
    host->value_append(state, "count", host->value_int(((store_t *)store)->count));
    return state;
}

static int32_t restore(void *store, const sp_value *state, sp_error *error) {
    (void)error;
    ((store_t *)store)->count = state->items[0]->scalar.integer;
    return SP_OK;
}

static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
    (void)data; (void)context; (void)error;
    *out = calloc(1, sizeof(store_t));
    return SP_OK;
}
static void destroy(void *store) { free(store); }

static const sp_action actions[] = {
    { sizeof(sp_action), "step", "Adds one.", NULL, 0, NULL, NULL, NULL },
    { sizeof(sp_action), "refuse", "Is refused.", NULL, 0, NULL, NULL, NULL },
};
static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "stepper", "1.0.0", 0 };
const storeplugin_info *storeplugin_info_v1(void) { return &info; }
int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
    host = h;
    sp_model model = { sizeof(sp_model), "stepper", "Counts steps, refuses the rest.", actions, 2, NULL, 0, NULL,
        create, destroy, dispatch, snapshot, dispatch, restore };
    return host->register_model(host->host_data, &model, error);
}
"""#

/// Script lines whose results are shown, sent to a worker in batches, the next batch sent
/// while one is shown: without diffs the states do not come back per action, so a batch
/// ends where the history keeps a snapshot and brings the state there.
@MainActor
@Suite("History snapshots of pipelined batches")
struct PipelinedSnapshotTests {
    /// Every jump back lands on the state after that many steps, for scripts with
    /// refusals anywhere: a snapshot taken as the state read after its batch would be the
    /// worker's later state, with the next batch applied, and the jumps from it wrong.
    @Test(arguments: 1...12)
    func jumpsLandOnTheStateThereWhateverIsRefused(seed: UInt64) async throws {
        let library = try Fixtures.library("libstepper.so", source: stepperSource, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library], isolation: .workers)
        _ = await shell.run(":diff off")
        shell.core.reportActions = true
        var generator = SplitMix(seed: seed)
        let texts = (0..<700).map { _ in generator.next() % 25 == 0 ? "refuse" : "step" }
        let lines = texts.enumerated().map { (text: $1, origin: LineOrigin(file: "s.storesh", line: $0 + 1)) }
        let run = shell.core.executeActions(lines, stopAtFailure: false)
        let steps = texts.filter { $0 == "step" }.count
        #expect(run.failures == texts.count - steps && !run.stopped)
        for position in [steps, 1, 63, 64, 65, 127, 128, 129, 191, 192, 300, 447, 448, 449, steps - 1, steps] {
            #expect(await shell.run(":goto \(position)", ":state count") == ["at \(position) of \(steps)", "\(position)"], "seed \(seed)")
        }
    }

    /// A history limit holds while batches are pipelined, with diffs shown or not: the
    /// first trim asks the model whether it can restore, which waits for a moment with no
    /// batch in flight (a restore then would undo the later batch). Before, a pipelined run
    /// had none until its lines ran out, so the question — and every trim — waited for the
    /// end of the call, however many lines it had. A model that cannot restore says so
    /// once, where the limit was passed.
    @Test(arguments: [false, true])
    func theHistoryLimitHoldsWhileBatchesArePipelined(diff: Bool) async throws {
        let source = stepperSource.replacingOccurrences(of: "dispatch, snapshot, dispatch, restore", with: "dispatch, snapshot, dispatch, NULL")
        let library = try Fixtures.library("libstepper.so", source: source, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library], historyLimit: 200, isolation: .workers)
        shell.core.reportActions = true
        _ = await shell.run(diff ? ":diff on" : ":diff off")
        let lines = (1...3_000).map { (text: "step", origin: LineOrigin(file: "s.storesh", line: $0)) }
        _ = shell.core.executeActions(lines, stopAtFailure: false)
        let actionsBeforeNote = shell.outputs.prefix { if case .info(kind: "history", _) = $0 { false } else { true } }
            .filter { if case .action = $0 { true } else { false } }.count
        #expect(actionsBeforeNote < 3_000, "the note came at the end of the script")
        // The limit plus the slack a trim waits for, plus what two batches in flight hold.
        #expect(actionsBeforeNote <= 200 + 64 + 2 * 256, "\(actionsBeforeNote) actions before the note")
    }
}
