/* The deterministic world of a storesh worker (docs/decisions/0002-a-deterministic-world-in-the-worker.md).
 *
 * storesh-worker defines, in its own executable, the functions through which a model reads
 * time and entropy and waits: clock_gettime, gettimeofday, time, dispatch_time,
 * dispatch_walltime, dispatch_after(_f), swift_stdlib_random, getrandom, getentropy and
 * arc4random(_buf); and it hooks the Swift runtime's global and main executors. A plugin
 * the worker loads binds to these, as do the Swift runtime, Foundation and Dispatch.
 *
 * While the world is off (a real-clock session, `--real-world`) each passes straight to the
 * system. While it is on:
 *   - every clock the model can read shows the session's virtual time (the wall clock from
 *     2025-01-01T00:00:00Z), except for libdispatch's own reads, which stay real;
 *   - every entropy source shows a stream derived from the world's seed;
 *   - a delayed dispatch (DispatchQueue.asyncAfter, Task.sleep in every form, Combine's
 *     delays on a DispatchQueue) waits on the session's virtual clock, through the timer
 *     function the worker installs, and runs on the main queue when due (on its own queue
 *     when that is a queue of the model's making);
 *   - every job for Swift's global executor runs on the main queue, one at a time, in the
 *     order it was enqueued;
 *   - every job and delayed dispatch it took and has not run yet is counted
 *     (storesh_world_outstanding), so the worker knows when that work is quiet (work a
 *     model hands to a queue with dispatch_async is not: decision 0002). */
#ifndef STORESH_WORKER_WORLD_H
#define STORESH_WORKER_WORLD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers a timer on the session's clock: `work` is handed to storesh_world_fire on the
 * main thread once the clock has moved `delay_ns` past now. Called on the main thread.
 * Returns 0 when no clock takes it: the work then waits that long on the real clock. */
typedef int32_t (*storesh_world_timer_function)(int64_t delay_ns, void *work);

/* Installs the executor hooks and the timer function. Once, at start, on the main thread.
 * `whole_process` (a worker): every job for Swift's global executor runs on the main
 * queue, counted, while the world is on. 0 (in process, where storesh's own tasks share
 * the pool): jobs stay on the pool, and one a model starts is reported as a call the world
 * cannot control (storesh_world_take_uncontrolled). */
void storesh_world_install(storesh_world_timer_function timer, int32_t whole_process);

/* Turns the world on or off, restarting it: every model's entropy from `seed`, and its
 * clock from the session's time now (set it first), which the model reads as
 * 2025-01-01T00:00:00Z. */
void storesh_world_enable(int32_t on, uint64_t seed);

/* Makes the session's time now the world's time 0, keeping every entropy stream where it
 * is (a host that takes over the world in process). */
void storesh_world_restart_clock(void);

/* 1 while the world is on. */
int32_t storesh_world_is_on(void);

/* The session's virtual time, in nanoseconds from its origin. */
void storesh_world_set_now(int64_t virtual_ns);

/* Runs the work of a timer that came due (main thread). */
void storesh_world_fire(void *work);

/* Work handed to a queue (or waiting to reach the clock) that has not run yet. */
int64_t storesh_world_outstanding(void);

/* Which calls the world answered since it was turned on, as bits of storesh_world_call. */
uint32_t storesh_world_calls_seen(void);

enum storesh_world_call {
    STORESH_WORLD_CALL_CLOCK = 1,   /* Date(), clock_gettime, gettimeofday, time */
    STORESH_WORLD_CALL_RANDOM = 2,  /* UUID(), SystemRandomNumberGenerator, getrandom */
    STORESH_WORLD_CALL_DELAY = 4,   /* asyncAfter, Task.sleep, clock sleeps */
    STORESH_WORLD_CALL_TASK = 8     /* a job for Swift's global executor */
};

/* Only a call made from a model's own code is the world's — a call whose stack holds a
 * frame of a model image — so storesh's and the worker's own clocks and tokens stay real,
 * and a model draws the same entropy in a worker and in process. Each model image has an
 * entropy stream of its own, started from the seed and the image's name. */
/* Code in the image that contains `address` is model code; `name` names it in reports
 * and seeds its entropy (copied). */
void storesh_world_add_model_image(const void *address, const char *name);

/* Takes one report of a call the world could not control: returns its storesh_world_call
 * bit and sets *name to the model image's name (static storage), or returns 0. */
uint32_t storesh_world_take_uncontrolled(const char **name);

/* Real monotonic nanoseconds, for the worker's own measurements. */
int64_t storesh_world_real_uptime_ns(void);

/* Code coverage (world_coverage.c): how many edges plugins built with trace-pc-guard
 * numbered, and the edges taken since the last take, written to `edges` (up to
 * `capacity`) in the order first taken; returns how many there were. */
uint32_t storesh_coverage_edges(void);
uint32_t storesh_coverage_take(uint32_t *edges, uint32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
