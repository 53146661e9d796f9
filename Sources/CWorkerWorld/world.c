// The deterministic world's state and switches: see include/worker_world.h and
// docs/decisions/0002-a-deterministic-world-in-the-worker.md.
#include "world_private.h"

_Atomic int32_t world_on;
_Atomic int64_t world_now_ns;
_Atomic int64_t world_outstanding;
_Atomic uint32_t world_calls;
storesh_world_timer_function world_timer;

void *world_real(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == NULL) abort();  // the C library or libdispatch lacks a function it always has
    return function;
}

void storesh_world_install(storesh_world_timer_function timer, int32_t whole_process) {
    world_timer = timer;
    world_find_libdispatch();
    world_install_executors(whole_process);
}

void storesh_world_enable(int32_t on, uint64_t seed) {
    world_entropy_restart(seed);
    world_clock_restart();
    atomic_store(&world_calls, 0);
    atomic_store_explicit(&world_on, on ? 1 : 0, memory_order_release);
}

void storesh_world_restart_clock(void) { world_clock_restart(); }
int32_t storesh_world_is_on(void) { return atomic_load(&world_on); }
void storesh_world_set_now(int64_t virtual_ns) { atomic_store(&world_now_ns, virtual_ns); }
int64_t storesh_world_outstanding(void) { return atomic_load(&world_outstanding); }
uint32_t storesh_world_calls_seen(void) { return atomic_load(&world_calls); }
