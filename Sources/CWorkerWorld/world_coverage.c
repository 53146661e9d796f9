/* Code coverage of plugins built with SanitizerCoverage's trace-pc-guard (clang's
 * -fsanitize-coverage=trace-pc-guard): each edge of the plugin's code calls
 * __sanitizer_cov_trace_pc_guard with its guard, which the module's constructor numbered
 * through __sanitizer_cov_trace_pc_guard_init. storesh's executables define both and export
 * them (Package.swift's worldExports), so a plugin built so binds to them when it is
 * loaded; a plugin built without the flag never calls them. `storesh explore` reads the
 * edges a run took (storesh_coverage_take) to keep runs that reach new code. */
#include <stddef.h>
#include <stdint.h>
#include "worker_world.h"

/* Edges numbered past this are not counted (a plugin that large is counted in part). */
#define COVERAGE_EDGES (1u << 20)

static uint32_t numbered;                 /* guards numbered so far, across modules */
static uint8_t taken[COVERAGE_EDGES];     /* 1: the edge was taken since the last take */
static uint32_t fresh[COVERAGE_EDGES];    /* the edges set in `taken`, in the order taken */
static uint32_t fresh_count;
/* Held to note an edge first taken (once per edge between takes) and to take them all:
 * a take never sees a slot claimed and not yet written, nor clears a bit it did not read. */
static uint8_t fresh_lock;

static void lock_fresh(void) {
    while (__atomic_test_and_set(&fresh_lock, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(&fresh_lock, __ATOMIC_RELAXED)) { }
    }
}

static void unlock_fresh(void) { __atomic_clear(&fresh_lock, __ATOMIC_RELEASE); }

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start != 0) return; /* numbered already (a module loaded twice) */
    for (uint32_t *guard = start; guard < stop; guard++) {
        uint32_t next = __atomic_add_fetch(&numbered, 1, __ATOMIC_RELAXED);
        *guard = next < COVERAGE_EDGES ? next : 0;
    }
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    uint32_t edge = *guard;
    /* Past the table (a guard some other runtime numbered): not counted. */
    if (edge == 0 || edge >= COVERAGE_EDGES || __atomic_load_n(&taken[edge], __ATOMIC_RELAXED)) return;
    lock_fresh();
    if (!taken[edge]) {
        __atomic_store_n(&taken[edge], 1, __ATOMIC_RELAXED);
        fresh[fresh_count++] = edge; /* at most one slot per edge: never past the table */
    }
    unlock_fresh();
}

uint32_t storesh_coverage_edges(void) { return __atomic_load_n(&numbered, __ATOMIC_RELAXED); }

uint32_t storesh_coverage_take(uint32_t *edges, uint32_t capacity) {
    lock_fresh();
    uint32_t count = fresh_count;
    for (uint32_t i = 0; i < count; i++) {
        __atomic_store_n(&taken[fresh[i]], 0, __ATOMIC_RELAXED);
        if (i < capacity) edges[i] = fresh[i];
    }
    fresh_count = 0;
    unlock_fresh();
    return count;
}
