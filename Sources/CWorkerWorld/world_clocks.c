// Clocks and entropy as a model sees them: the session's virtual time (on the wall from
// 2025-01-01T00:00:00Z) and its model's stream, for calls from the model's own code.
#include "world_private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

// The world's time 0 — the session's time when the world was last turned on or reseeded
// (`:seed`) — reads as 1000 s of uptime, and on the wall as 2025-01-01T00:00:00Z.
static const int64_t uptime_origin_ns = 1000ll * 1000000000ll;
static const int64_t wall_origin_s = 1735689600ll;

// The session's time at the last (re)start of the world: the world's time 0.
static _Atomic int64_t world_start_ns;

void world_clock_restart(void) { atomic_store(&world_start_ns, atomic_load(&world_now_ns)); }

static int64_t world_elapsed_ns(void) { return atomic_load(&world_now_ns) - atomic_load(&world_start_ns); }
int64_t world_virtual_uptime_ns(void) { return uptime_origin_ns + world_elapsed_ns(); }
int64_t world_virtual_wall_ns(void) { return wall_origin_s * 1000000000ll + world_elapsed_ns(); }

#define CALLER __builtin_return_address(0)

int clock_gettime(clockid_t clock, struct timespec *out) {
    REAL(clock_gettime, int, (clockid_t, struct timespec *));
    if (world_model_calling(CALLER, STORESH_WORLD_CALL_CLOCK) < 0) return real_clock_gettime(clock, out);
    int64_t ns;
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_TAI:
        ns = world_virtual_wall_ns();
        break;
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        ns = world_virtual_uptime_ns();
        break;
    default:  // CPU-time clocks measure the process, not the world
        return real_clock_gettime(clock, out);
    }
    out->tv_sec = ns / 1000000000ll;
    out->tv_nsec = ns % 1000000000ll;
    return 0;
}

int gettimeofday(struct timeval *restrict out, void *restrict zone) {
    REAL(gettimeofday, int, (struct timeval *, void *));
    if (world_model_calling(CALLER, STORESH_WORLD_CALL_CLOCK) < 0) return real_gettimeofday(out, zone);
    int64_t ns = world_virtual_wall_ns();
    out->tv_sec = ns / 1000000000ll;
    out->tv_usec = (ns % 1000000000ll) / 1000;
    return 0;
}

time_t time(time_t *out) {
    REAL(time, time_t, (time_t *));
    if (world_model_calling(CALLER, STORESH_WORLD_CALL_CLOCK) < 0) return real_time(out);
    time_t seconds = (time_t)(world_virtual_wall_ns() / 1000000000ll);
    if (out != NULL) *out = seconds;
    return seconds;
}

int64_t storesh_world_real_uptime_ns(void) {
    REAL(clock_gettime, int, (clockid_t, struct timespec *));
    struct timespec now;
    real_clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000ll + now.tv_nsec;
}

// ---- Entropy -------------------------------------------------------------------------------

void swift_stdlib_random(void *buffer, size_t count) {
    REAL(swift_stdlib_random, void, (void *, size_t));
    int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
    if (model < 0) return real_swift_stdlib_random(buffer, count);
    world_entropy_fill(model, buffer, count);
}

ssize_t getrandom(void *buffer, size_t count, unsigned int flags) {
    REAL(getrandom, ssize_t, (void *, size_t, unsigned int));
    int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
    if (model < 0) return real_getrandom(buffer, count, flags);
    world_entropy_fill(model, buffer, count);
    return (ssize_t)count;
}

int getentropy(void *buffer, size_t count) {
    REAL(getentropy, int, (void *, size_t));
    int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
    if (model < 0) return real_getentropy(buffer, count);
    if (count > 256) {
        errno = EIO;
        return -1;
    }
    world_entropy_fill(model, buffer, count);
    return 0;
}

void arc4random_buf(void *buffer, size_t count) {
    REAL(arc4random_buf, void, (void *, size_t));
    int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
    if (model < 0) return real_arc4random_buf(buffer, count);
    world_entropy_fill(model, buffer, count);
}

uint32_t arc4random(void) {
    REAL(arc4random, uint32_t, (void));
    int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
    if (model < 0) return real_arc4random();
    uint32_t value;
    world_entropy_fill(model, &value, sizeof value);
    return value;
}

// The Swift runtime draws its entropy (swift_stdlib_random, under UUID() and
// SystemRandomNumberGenerator) with syscall(SYS_getrandom, …), from inside libswiftCore,
// where a definition of swift_stdlib_random elsewhere is never called.
long syscall(long number, ...) {
    REAL(syscall, long, (long, ...));
    va_list list;
    va_start(list, number);
    long arguments[6];
    for (int index = 0; index < 6; index++) arguments[index] = va_arg(list, long);
    va_end(list);
    if (number == SYS_getrandom) {
        int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
        if (model >= 0) {
            world_entropy_fill(model, (void *)arguments[0], (size_t)arguments[1]);
            return arguments[1];
        }
    }
    return real_syscall(number, arguments[0], arguments[1], arguments[2], arguments[3], arguments[4], arguments[5]);
}

// ---- UUID() --------------------------------------------------------------------------------
// Foundation's UUID() opens /dev/urandom, reads 16 bytes and closes it, each time. That
// open, made by Foundation for a model, gets a descriptor of /dev/null whose reads come
// from the model's stream. A model that opens /dev/urandom itself reads the real one: it
// is not deterministic, and `explore` says so.

#define MAX_ENTROPY_FDS 1024
static _Atomic int32_t entropy_fd_count;
static _Atomic int32_t entropy_fd_model[MAX_ENTROPY_FDS];  // model + 1, or 0

static struct world_range foundation;

static int called_by_foundation(void *caller) {
    // The image of UUID.init().
    return world_range_contains(&foundation, "$s20FoundationEssentials4UUIDVACycfC", (uintptr_t)caller);
}

int open(const char *path, int flags, ...) {
    REAL(open, int, (const char *, int, ...));
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list list;
        va_start(list, flags);
        mode = va_arg(list, mode_t);
        va_end(list);
    }
    if (strncmp(path, "/dev/", 5) == 0
        && (strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0)
        && called_by_foundation(CALLER)) {
        int32_t model = world_model_calling(CALLER, STORESH_WORLD_CALL_RANDOM);
        if (model >= 0) {
            int fd = real_open("/dev/null", O_RDONLY | (flags & O_CLOEXEC));
            if (fd >= 0 && fd < MAX_ENTROPY_FDS) {
                atomic_store(&entropy_fd_model[fd], model + 1);
                atomic_fetch_add(&entropy_fd_count, 1);
                return fd;
            }
            if (fd >= 0) close(fd);
        }
    }
    return real_open(path, flags, mode);
}

ssize_t read(int fd, void *buffer, size_t count) {
    REAL(read, ssize_t, (int, void *, size_t));
    if (atomic_load_explicit(&entropy_fd_count, memory_order_relaxed) > 0 && fd >= 0 && fd < MAX_ENTROPY_FDS) {
        int32_t model = atomic_load(&entropy_fd_model[fd]);
        if (model > 0) {
            world_entropy_fill(model - 1, buffer, count);
            return (ssize_t)count;
        }
    }
    return real_read(fd, buffer, count);
}

int close(int fd) {
    REAL(close, int, (int));
    if (atomic_load_explicit(&entropy_fd_count, memory_order_relaxed) > 0 && fd >= 0 && fd < MAX_ENTROPY_FDS
        && atomic_exchange(&entropy_fd_model[fd], 0) != 0)
        atomic_fetch_sub(&entropy_fd_count, 1);
    return real_close(fd);
}
