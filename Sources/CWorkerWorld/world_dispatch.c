// Delays and executors: a model's dispatch times read the virtual clock, its delayed
// dispatches wait on the session's clock, and (in a worker) every job for Swift's global
// executor runs on the main queue, counted until it has run.
#include "world_private.h"

#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

// libdispatch, declared here (its header is Swift's, not the C compiler's).
typedef uint64_t dispatch_time_t;
typedef void *dispatch_queue_t;
typedef void *dispatch_block_t;
typedef void (*dispatch_function_t)(void *);
#define DISPATCH_TIME_NOW 0ull
#define DISPATCH_TIME_FOREVER (~0ull)
// A time is nanoseconds of libdispatch's uptime clock, (1 << 63) | nanoseconds of its
// monotonic clock, or the negated nanoseconds of the wall clock (libdispatch on Linux).
#define MONOTONIC_FLAG (1ull << 63)
#define WALL_BITS (3ull << 62)

extern void dispatch_async_f(dispatch_queue_t queue, void *context, dispatch_function_t work);
extern dispatch_queue_t dispatch_get_global_queue(intptr_t identifier, uintptr_t flags);
extern void dispatch_retain(void *object);
extern void dispatch_release(void *object);
extern struct dispatch_queue_s _dispatch_main_q;
extern void *_Block_copy(const void *block);
extern void _Block_release(const void *block);
#define MAIN_QUEUE ((dispatch_queue_t)&_dispatch_main_q)

// A block as the blocks ABI lays it out: enough to call one without -fblocks.
struct block_layout {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *block);
};

#define CALLER __builtin_return_address(0)

// ---- Times ---------------------------------------------------------------------------------

dispatch_time_t dispatch_time(dispatch_time_t when, int64_t delta) {
    REAL(dispatch_time, dispatch_time_t, (dispatch_time_t, int64_t));
    if (when == DISPATCH_TIME_FOREVER || (when & WALL_BITS) == WALL_BITS
        || world_model_calling(CALLER, STORESH_WORLD_CALL_CLOCK) < 0)
        return real_dispatch_time(when, delta);
    dispatch_time_t flag = when & MONOTONIC_FLAG;
    int64_t base = (when & ~MONOTONIC_FLAG) == 0 ? world_virtual_uptime_ns() : (int64_t)(when & ~MONOTONIC_FLAG);
    int64_t sum;
    // As libdispatch: a time past what the encoding holds is never.
    if (__builtin_add_overflow(base, delta, &sum) || sum >= (int64_t)((1ull << 62) - 1)) return DISPATCH_TIME_FOREVER;
    return flag | (dispatch_time_t)(sum < 0 ? 0 : sum);
}

dispatch_time_t dispatch_walltime(const struct timespec *when, int64_t delta) {
    REAL(dispatch_walltime, dispatch_time_t, (const struct timespec *, int64_t));
    if (when != NULL || world_model_calling(CALLER, STORESH_WORLD_CALL_CLOCK) < 0)
        return real_dispatch_walltime(when, delta);
    int64_t ns;
    if (__builtin_add_overflow(world_virtual_wall_ns(), delta, &ns) || ns >= (int64_t)((1ull << 62) - 1))
        return DISPATCH_TIME_FOREVER;
    return (dispatch_time_t)(-(ns < 1 ? 1 : ns));
}

// How long after the virtual now `when` is (0 when it has passed; -1 for never).
static int64_t delay_until(dispatch_time_t when) {
    if (when == DISPATCH_TIME_FOREVER) return -1;
    int64_t delay = (when & WALL_BITS) == WALL_BITS ? -(int64_t)when - world_virtual_wall_ns()
                                                    : (int64_t)(when & ~MONOTONIC_FLAG) - world_virtual_uptime_ns();
    return delay < 0 ? 0 : delay;
}

// ---- Delayed work --------------------------------------------------------------------------

// One delayed dispatch: a block, or a function and its context, and the queue it is for.
struct delayed_work {
    dispatch_queue_t queue;
    void *block;
    void *context;
    dispatch_function_t function;
    int64_t delay_ns;
};

static void run_delayed(void *pointer) {
    struct delayed_work *work = pointer;
    if (work->block != NULL) {
        ((struct block_layout *)work->block)->invoke(work->block);
        _Block_release(work->block);
    } else {
        work->function(work->context);
    }
    dispatch_release(work->queue);
    free(work);
    atomic_fetch_sub(&world_outstanding, 1);
}

// On the session's clock; where no clock takes it (the world was turned off meanwhile),
// after the same delay on the real one.
static void register_timer(void *pointer) {
    struct delayed_work *work = pointer;
    if (world_timer(work->delay_ns, work)) return;
    REAL(dispatch_after_f, void, (dispatch_time_t, dispatch_queue_t, void *, dispatch_function_t));
    REAL(dispatch_time, dispatch_time_t, (dispatch_time_t, int64_t));
    atomic_fetch_add(&world_outstanding, 1);  // run_delayed counts it down
    real_dispatch_after_f(real_dispatch_time(DISPATCH_TIME_NOW, work->delay_ns), work->queue, work, run_delayed);
}

static void register_timer_counted(void *pointer) {
    register_timer(pointer);
    atomic_fetch_sub(&world_outstanding, 1);
}

// Puts the work on the session's clock, from the main thread.
static void put_on_clock(dispatch_time_t when, dispatch_queue_t queue, void *block, void *context,
                         dispatch_function_t function) {
    int64_t delay_ns = delay_until(when);
    if (delay_ns < 0) {  // never: nothing will run it
        if (block != NULL) _Block_release(block);
        return;
    }
    struct delayed_work *work = malloc(sizeof *work);
    if (work == NULL) abort();
    dispatch_retain(queue);
    *work = (struct delayed_work){queue, block, context, function, delay_ns};
    if (getpid() == (pid_t)gettid()) {
        register_timer(work);
    } else {
        atomic_fetch_add(&world_outstanding, 1);
        dispatch_async_f(MAIN_QUEUE, work, register_timer_counted);
    }
}

void dispatch_after(dispatch_time_t when, dispatch_queue_t queue, dispatch_block_t block) {
    REAL(dispatch_after, void, (dispatch_time_t, dispatch_queue_t, dispatch_block_t));
    if (world_timer == NULL || world_model_calling(CALLER, STORESH_WORLD_CALL_DELAY) < 0)
        return real_dispatch_after(when, queue, block);
    put_on_clock(when, queue, _Block_copy(block), NULL, NULL);
}

void dispatch_after_f(dispatch_time_t when, dispatch_queue_t queue, void *context, dispatch_function_t function) {
    REAL(dispatch_after_f, void, (dispatch_time_t, dispatch_queue_t, void *, dispatch_function_t));
    if (world_timer == NULL || world_model_calling(CALLER, STORESH_WORLD_CALL_DELAY) < 0)
        return real_dispatch_after_f(when, queue, context, function);
    put_on_clock(when, queue, NULL, context, function);
}

// The Swift runtime's image: a Task.sleep wakes through its own private queue ("Swift
// global concurrent queue"), not a global one.
static struct world_range concurrency;

static int is_shared_queue(dispatch_queue_t queue, dispatch_function_t function) {
    if (queue == MAIN_QUEUE) return 1;
    if (function != NULL && world_range_contains(&concurrency, "swift_job_run", (uintptr_t)function)) return 1;
    static const intptr_t identifiers[] = {0x21, 0x19, 0x15, 0x11, 0x09, 0x00, 2, -2, -32768};
    for (size_t index = 0; index < sizeof identifiers / sizeof *identifiers; index++) {
        if (queue == dispatch_get_global_queue(identifiers[index], 0)) return 1;
    }
    return 0;
}

void storesh_world_fire(void *pointer) {
    struct delayed_work *work = pointer;
    atomic_fetch_add(&world_outstanding, 1);
    // Work for the main queue, a shared global queue or the Swift runtime's own (a task's
    // wake-up) runs on the main queue, in turn; a queue of the model's own keeps its work
    // (its order and exclusion are the model's).
    dispatch_async_f(is_shared_queue(work->queue, work->function) ? MAIN_QUEUE : work->queue, work, run_delayed);
}

// ---- Executors -----------------------------------------------------------------------------

typedef __attribute__((swiftcall)) void (*enqueue_original)(void *job);
typedef __attribute__((swiftcall)) void (*enqueue_hook)(void *job, enqueue_original original);
extern __attribute__((swiftcall)) void swift_job_run(void *job, void *executor_identity, uintptr_t implementation);

static int32_t executors_are_the_worlds;

static void run_global_job(void *job) {
    swift_job_run(job, NULL, 0);  // the generic executor, as the pool would run it
    atomic_fetch_sub(&world_outstanding, 1);
}

static __attribute__((swiftcall)) void enqueue_global(void *job, enqueue_original original) {
    if (!atomic_load_explicit(&world_on, memory_order_acquire)) return original(job);
    if (!executors_are_the_worlds) {
        // In process storesh's own tasks share the pool: a model's stays there, reported.
        int32_t model = world_model_on_stack();
        if (model >= 0) world_note_uncontrolled(model, STORESH_WORLD_CALL_TASK);
        return original(job);
    }
    atomic_fetch_or(&world_calls, STORESH_WORLD_CALL_TASK);
    atomic_fetch_add(&world_outstanding, 1);
    dispatch_async_f(MAIN_QUEUE, job, run_global_job);
}

static void main_job_done(void *unused) {
    (void)unused;
    atomic_fetch_sub(&world_outstanding, 1);
}

static __attribute__((swiftcall)) void enqueue_main(void *job, enqueue_original original) {
    if (!executors_are_the_worlds || !atomic_load_explicit(&world_on, memory_order_acquire)) return original(job);
    // The main executor is the main queue: a marker queued after the job runs after it.
    atomic_fetch_add(&world_outstanding, 1);
    original(job);
    dispatch_async_f(MAIN_QUEUE, NULL, main_job_done);
}

void world_install_executors(int32_t whole_process) {
    executors_are_the_worlds = whole_process;
    enqueue_hook *global = dlsym(RTLD_DEFAULT, "swift_task_enqueueGlobal_hook");
    enqueue_hook *main = dlsym(RTLD_DEFAULT, "swift_task_enqueueMainExecutor_hook");
    if (global != NULL) *global = enqueue_global;
    if (main != NULL) *main = enqueue_main;
}
