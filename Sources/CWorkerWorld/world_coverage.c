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

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start != 0) return; /* numbered already (a module loaded twice) */
    for (uint32_t *guard = start; guard < stop; guard++) {
        uint32_t next = __atomic_add_fetch(&numbered, 1, __ATOMIC_RELAXED);
        *guard = next < COVERAGE_EDGES ? next : 0;
    }
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    uint32_t edge = *guard;
    if (edge == 0 || __atomic_load_n(&taken[edge], __ATOMIC_RELAXED)) return;
    if (__atomic_exchange_n(&taken[edge], 1, __ATOMIC_RELAXED)) return;
    uint32_t slot = __atomic_fetch_add(&fresh_count, 1, __ATOMIC_RELAXED);
    if (slot < COVERAGE_EDGES) __atomic_store_n(&fresh[slot], edge, __ATOMIC_RELAXED);
}

uint32_t storesh_coverage_edges(void) { return __atomic_load_n(&numbered, __ATOMIC_RELAXED); }

uint32_t storesh_coverage_take(uint32_t *edges, uint32_t capacity) {
    uint32_t count = __atomic_exchange_n(&fresh_count, 0, __ATOMIC_RELAXED);
    if (count > COVERAGE_EDGES) count = COVERAGE_EDGES;
    uint32_t written = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t edge = __atomic_load_n(&fresh[i], __ATOMIC_RELAXED);
        if (edge == 0) continue;
        __atomic_store_n(&taken[edge], 0, __ATOMIC_RELAXED);
        if (written < capacity) edges[written] = edge;
        written++;
    }
    return written;
}
