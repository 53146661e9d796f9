// Which code is a model's: the images of loaded plugins, found on the calling stack by its
// frame pointers. Each image also keeps its entropy stream and its unreported calls.
#include "world_private.h"

#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <string.h>

#define MAX_MODEL_IMAGES 64

struct model_image {
    uintptr_t start, end;  // the image's loaded segments
    char name[64];
    uint64_t entropy;                // guarded by entropy_lock
    _Atomic uint32_t uncontrolled;  // calls not yet reported
};

static struct model_image images[MAX_MODEL_IMAGES];
static _Atomic int32_t image_count;
static pthread_mutex_t images_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t entropy_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t entropy_seed;
static struct world_range libdispatch;

// ---- Images --------------------------------------------------------------------------------

struct image_search {
    uintptr_t address;
    uintptr_t start, end;
};

static int find_segments(struct dl_phdr_info *info, size_t size, void *pointer) {
    (void)size;
    struct image_search *search = pointer;
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (start < low) low = start;
        if (start + header->p_memsz > high) high = start + header->p_memsz;
    }
    if (search->address < low || search->address >= high) return 0;
    search->start = low;
    search->end = high;
    return 1;
}

int world_image_range(const void *address, uintptr_t *start, uintptr_t *end) {
    struct image_search search = {(uintptr_t)address, 0, 0};
    if (dl_iterate_phdr(find_segments, &search) == 0) return 0;
    *start = search.start;
    *end = search.end;
    return 1;
}

void world_find_libdispatch(void) { (void)world_range_contains(&libdispatch, "dispatch_async_f", 0); }

int world_range_contains(struct world_range *range, const char *symbol, uintptr_t address) {
    uintptr_t end = atomic_load_explicit(&range->end, memory_order_acquire);
    if (end == 0) {
        void *found = dlsym(RTLD_DEFAULT, symbol);
        uintptr_t found_start, found_end;
        if (found == NULL || !world_image_range(found, &found_start, &found_end)) return 0;
        atomic_store_explicit(&range->start, found_start, memory_order_relaxed);
        atomic_store_explicit(&range->end, found_end, memory_order_release);
        end = found_end;
    }
    return address >= atomic_load_explicit(&range->start, memory_order_relaxed) && address < end;
}

// FNV-1a of a name, to give each model a stream of its own.
static uint64_t name_hash(const char *name) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (; *name; name++) hash = (hash ^ (unsigned char)*name) * 0x100000001b3ull;
    return hash;
}

void storesh_world_add_model_image(const void *address, const char *name) {
    uintptr_t start, end;
    if (!world_image_range(address, &start, &end)) return;
    pthread_mutex_lock(&images_lock);
    int32_t count = atomic_load(&image_count);
    int known = 0;
    for (int32_t index = 0; index < count; index++) known |= images[index].start == start;
    if (!known && count < MAX_MODEL_IMAGES) {
        struct model_image *image = &images[count];
        image->start = start;
        image->end = end;
        strncpy(image->name, name, sizeof image->name - 1);
        pthread_mutex_lock(&entropy_lock);
        image->entropy = entropy_seed ^ name_hash(image->name);
        pthread_mutex_unlock(&entropy_lock);
        atomic_store(&image_count, count + 1);
    }
    pthread_mutex_unlock(&images_lock);
}

// ---- The calling stack ---------------------------------------------------------------------

// This thread's stack, for walking frames safely.
static __thread uintptr_t stack_low, stack_high;

static void find_stack(void) {
    pthread_attr_t attributes;
    void *base;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
    if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
        stack_low = (uintptr_t)base;
        stack_high = (uintptr_t)base + size;
    }
    pthread_attr_destroy(&attributes);
}

static int32_t image_of(uintptr_t address, int32_t count) {
    for (int32_t index = 0; index < count; index++) {
        if (address >= images[index].start && address < images[index].end) return index;
    }
    return -1;
}

static int32_t model_on_stack(void);

int32_t world_model_on_stack(void) {
    int saved = errno;  // the walk's first call on a thread may set it; the caller's call must not see that
    int32_t model = model_on_stack();
    errno = saved;
    return model;
}

static int32_t model_on_stack(void) {
    int32_t count = atomic_load(&image_count);
    if (count == 0) return -1;
    if (stack_high == 0) find_stack();
    // Two walks, as neither passes every frame: the frame pointers (Swift keeps them; C
    // shims of Foundation's may not), while they stay on this thread's stack and move up
    // it; then the unwinder's tables (which stop at some of Foundation's Swift frames).
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    for (int depth = 0; depth < 64; depth++) {
        if (frame < stack_low || frame + 2 * sizeof(void *) > stack_high || frame % sizeof(void *) != 0) break;
        void **record = (void **)frame;
        int32_t model = image_of((uintptr_t)record[1], count);
        if (model >= 0) return model;
        uintptr_t next = (uintptr_t)record[0];
        if (next <= frame) break;
        frame = next;
    }
    void *frames[64];
    int depth = backtrace(frames, 64);
    for (int index = 1; index < depth; index++) {
        int32_t model = image_of((uintptr_t)frames[index], count);
        if (model >= 0) return model;
    }
    return -1;
}

int32_t world_model_calling(void *caller, uint32_t call) {
    if (!atomic_load_explicit(&world_on, memory_order_acquire)) return -1;
    uintptr_t address = (uintptr_t)caller;
    if (world_range_contains(&libdispatch, "dispatch_async_f", address)) return -1;
    int32_t model = world_model_on_stack();
    if (model >= 0) atomic_fetch_or(&world_calls, call);
    return model;
}

void world_note_uncontrolled(int32_t model, uint32_t call) { atomic_fetch_or(&images[model].uncontrolled, call); }

uint32_t storesh_world_take_uncontrolled(const char **name) {
    int32_t count = atomic_load(&image_count);
    for (int32_t index = 0; index < count; index++) {
        uint32_t calls = atomic_exchange(&images[index].uncontrolled, 0);
        if (calls == 0) continue;
        // One call at a time: the lowest bit now, the others at the next take.
        uint32_t first = calls & -calls;
        atomic_fetch_or(&images[index].uncontrolled, calls & ~first);
        *name = images[index].name;
        return first;
    }
    return 0;
}

// ---- Entropy -------------------------------------------------------------------------------

void world_entropy_restart(uint64_t seed) {
    pthread_mutex_lock(&entropy_lock);
    entropy_seed = seed;
    int32_t count = atomic_load(&image_count);
    for (int32_t index = 0; index < count; index++) images[index].entropy = seed ^ name_hash(images[index].name);
    pthread_mutex_unlock(&entropy_lock);
}

// SplitMix64: a small generator whose whole state is its position.
static uint64_t next_word(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void world_entropy_fill(int32_t model, void *buffer, size_t count) {
    unsigned char *bytes = buffer;
    pthread_mutex_lock(&entropy_lock);
    while (count > 0) {
        uint64_t word = next_word(&images[model].entropy);
        size_t take = count < sizeof word ? count : sizeof word;
        memcpy(bytes, &word, take);
        bytes += take;
        count -= take;
    }
    pthread_mutex_unlock(&entropy_lock);
}
