// What the parts of the world share (not part of the interface: include/worker_world.h).
#ifndef STORESH_WORLD_PRIVATE_H
#define STORESH_WORLD_PRIVATE_H

#define _GNU_SOURCE
#include "worker_world.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

extern _Atomic int32_t world_on;
extern _Atomic int64_t world_now_ns;
extern _Atomic int64_t world_outstanding;
extern _Atomic uint32_t world_calls;
extern storesh_world_timer_function world_timer;

/// The system's definition of `name` (the next after this executable's), or abort.
void *world_real(const char *name);

/// Declares and finds once the system's `name`, as `real_name`. Any thread may be the first
/// to call: the pointer is kept in an atomic (every finder stores the same value).
#define REAL(name, result, parameters)                                                                 \
    static _Atomic(result(*) parameters) found_##name;                                                 \
    result(*real_##name) parameters = atomic_load_explicit(&found_##name, memory_order_acquire);       \
    if (real_##name == NULL) {                                                                         \
        real_##name = (result(*) parameters)world_real(#name);                                         \
        atomic_store_explicit(&found_##name, real_##name, memory_order_release);                       \
    }

/// An image's address range, found the first time it is asked for and read from any thread.
struct world_range {
    _Atomic uintptr_t start, end;
};

/// Whether `address` is in the image that holds `symbol` (found with dlsym); 0 when the
/// symbol is not there.
int world_range_contains(struct world_range *range, const char *symbol, uintptr_t address);

/// The model a call belongs to when the world answers it (0, 1, …), or -1 when the call
/// is not the world's: the world is off, libdispatch itself called (`caller`), or no frame
/// of a model image is on the stack.
int32_t world_model_calling(void *caller, uint32_t call);

/// The model image a frame of the calling stack belongs to, or -1.
int32_t world_model_on_stack(void);

/// Notes that model `model` made a call the world cannot control.
void world_note_uncontrolled(int32_t model, uint32_t call);

/// Fills `buffer` from model `model`'s entropy stream.
void world_entropy_fill(int32_t model, void *buffer, size_t count);

/// Restarts every model's entropy stream from `seed`.
void world_entropy_restart(uint64_t seed);

/// Makes the session's time now the world's time 0.
void world_clock_restart(void);

/// Virtual time, on the uptime and on the wall clock, in nanoseconds.
int64_t world_virtual_uptime_ns(void);
int64_t world_virtual_wall_ns(void);

/// The loaded range of the image containing `address`; 0 when none does.
int world_image_range(const void *address, uintptr_t *start, uintptr_t *end);

/// Marks the start of the libdispatch image, whose own clock reads stay real.
void world_find_libdispatch(void);

/// Installs the executor hooks.
void world_install_executors(int32_t whole_process);

#endif
