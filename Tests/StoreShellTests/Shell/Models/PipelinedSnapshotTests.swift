import HostTestSupport
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

/// A counter in C with an alarm: `arm` starts an effect that sends `ring` (one more)
/// when the host clock is a second on. Restoring a snapshot cancels it, as storeplugin.h
/// says restore does with effects in flight.
private let alarmSource = #"""
    #include "storeplugin.h"
    #include <stdlib.h>
    #include <string.h>

    static const storeplugin_host *host;
    typedef struct { int64_t count; uint64_t timer; const sp_store_context *context; } store_t;

    static void event(store_t *s, uint32_t kind, const char *label, const char *action, uint32_t changed) {
        sp_effect_event e = { sizeof(sp_effect_event), kind, 1, label, action, NULL, changed };
        s->context->effect_event(s->context->user_data, &e);
    }

    static void ring(void *data) {
        store_t *s = data;
        s->timer = 0;
        s->count += 1;
        s->context->action_applied(s->context->user_data, "ring");
        event(s, SP_EFFECT_EMITTED, NULL, "ring", 1);
        event(s, SP_EFFECT_FINISHED, NULL, NULL, 0);
    }

    static int32_t apply(void *store, const char *action, sp_dispatch_result *result, int effects) {
        store_t *s = store;
        if (strcmp(action, "ring") == 0) { s->count += 1; result->state_changed = 1; }
        if (strcmp(action, "arm") == 0 && effects && !s->timer) {
            s->timer = host->clock_wake(host->host_data, host->clock_now(host->host_data) + 1000000000, ring, s);
            event(s, SP_EFFECT_STARTED, "arm", NULL, 0);
            result->effects_started = 1;
        }
        return SP_OK;
    }
    static int32_t dispatch(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        return apply(store, action, result, 1);
    }
    static int32_t replay(void *store, const char *action, const sp_value *arguments, sp_dispatch_result *result, sp_error *error) {
        (void)arguments; (void)error;
        return apply(store, action, result, 0);
    }

    static sp_value *snapshot(void *store) {
        sp_value *state = host->value_record("Alarm");
        host->value_append(state, "count", host->value_int(((store_t *)store)->count));
        return state;
    }

    static int32_t restore(void *store, const sp_value *state, sp_error *error) {
        (void)error;
        store_t *s = store;
        s->count = state->items[0]->scalar.integer;
        if (s->timer) {
            host->clock_cancel(host->host_data, s->timer);
            s->timer = 0;
            event(s, SP_EFFECT_CANCELLED, NULL, NULL, 0);
        }
        return SP_OK;
    }

    static int32_t create(void *data, const sp_store_context *context, void **out, sp_error *error) {
        (void)data; (void)error;
        store_t *s = calloc(1, sizeof(store_t));
        s->context = context;
        *out = s;
        return SP_OK;
    }
    static void destroy(void *store) {
        store_t *s = store;
        if (s->timer) host->clock_cancel(host->host_data, s->timer);
        free(s);
    }

    static const sp_action actions[] = {
        { sizeof(sp_action), "tick", "Changes nothing.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "arm", "Rings in a second.", NULL, 0, NULL, NULL, NULL },
        { sizeof(sp_action), "ring", "Adds one.", NULL, 0, NULL, NULL, NULL },
    };
    static const storeplugin_info info = { sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "alarm", "1.0.0", 0 };
    const storeplugin_info *storeplugin_info_v1(void) { return &info; }
    int32_t storeplugin_register_v1(const storeplugin_host *h, sp_error *error) {
        host = h;
        sp_model model = { sizeof(sp_model), "alarm", "Rings a second after it is armed.", actions, 3, NULL, 0, NULL,
            create, destroy, dispatch, snapshot, replay, restore };
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
        let library = try await Fixtures.library("libstepper.so", source: stepperSource, in: Fixtures.directory())
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
            #expect(
                await shell.run(":goto \(position)", ":state count") == ["at \(position) of \(steps)", "\(position)"],
                "seed \(seed)")
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
        let source = stepperSource.replacingOccurrences(
            of: "dispatch, snapshot, dispatch, restore", with: "dispatch, snapshot, dispatch, NULL")
        let library = try await Fixtures.library("libstepper.so", source: source, in: Fixtures.directory())
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

    /// A request answered while a batch sent before it is still in flight: waiting for its
    /// answer must leave the batch's answer for the batch. Before, it was taken off the
    /// pipe and dropped, and the batch was waited for until the worker counted as hung.
    @Test func aRequestMadeWhileABatchIsInFlightLeavesTheBatchItsAnswer() async throws {
        let library = try await Fixtures.library("libstepper.so", source: stepperSource, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = .workers
        try host.load(library)
        let session = try Session(model: host.model(named: "stepper"), host: host)
        let step = try #require(session.model.action(named: "step"))
        let batch = try session.startBatch(
            Array(repeating: (step, []), count: 300), stopAtFailure: false, stateAfter: false)
        #expect(try session.read(whole: true).state["count"] == .int(300), "answered after the batch")
        let result = try session.finishBatch(batch)
        #expect(result.outcomes.count == 300)
        #expect(result.outcomes.allSatisfy { (try? $0.get())?.changed == true })
    }

    /// The same question in a quiet run, which asked it while the next batch was in flight.
    /// The restore reached the worker after that batch and cancelled the effect it had
    /// started (as a restore does); and waiting for the restore's answer took the batch's
    /// answer off the pipe, so the shell waited for it until the worker counted as hung
    /// (5 s), then restarted it and sent the batch's lines again.
    @Test func aQuietRunAsksTheRestoreQuestionWithNoBatchInFlight() async throws {
        let library = try await Fixtures.library("libalarm.so", source: alarmSource, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [library], historyLimit: 64, isolation: .workers)
        shell.core.reportActions = false
        let lines = (Array(repeating: "tick", count: 1_100) + ["arm"]).enumerated().map {
            (text: $1, origin: LineOrigin(file: "s.storesh", line: $0 + 1))
        }
        let run = shell.core.executeActions(lines, stopAtFailure: false)
        #expect(run.failures == 0 && !run.stopped)
        let kinds = shell.outputs.compactMap { if case .effect(let report) = $0 { report.event.kind } else { nil } }
        #expect(
            kinds == [.started] && shell.outputs.count == 1,
            "the alarm started; nothing was cancelled, lost or restarted: \(shell.outputs)")
        #expect(await shell.run(":advance 2s", ":state count").last == "1", "the alarm rang")
    }
}
