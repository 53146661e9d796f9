/* A thin shim over libffi for Swift: ffi.h lives in an arch-specific directory and its
 * type descriptors are C globals, which Swift 6 cannot use directly; these accessors
 * and wrappers make them callable. */
#ifndef CFFI_SHIM_H
#define CFFI_SHIM_H

#include <ffi.h>
#include <stdint.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_double(void) { return &ffi_type_double; }
static inline ffi_type *cffi_type_bool(void) { return &ffi_type_uint8; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }

/* ffi_prep_cif with the platform's default calling convention. Returns FFI_OK (0) on
 * success. */
static inline int cffi_prepare(ffi_cif *cif, unsigned argument_count, ffi_type *result,
                               ffi_type **arguments) {
    return (int)ffi_prep_cif(cif, FFI_DEFAULT_ABI, argument_count, result, arguments);
}

/* Calls function through cif. result must hold at least sizeof(ffi_arg) bytes. */
static inline void cffi_call(ffi_cif *cif, void (*function)(void), void *result, void **arguments) {
    ffi_call(cif, function, result, arguments);
}

/* What a closure runs: libffi hands it the call's arguments and a buffer for the result
 * (at least sizeof(ffi_arg) bytes for integer results). */
typedef void (*cffi_handler)(ffi_cif *cif, void *result, void **arguments, void *user_data);

/* A C function of cif's signature that calls handler(…, user_data): for host code that
 * must stand in for a function whose signature is known only at run time. Returns the
 * closure to release later, with its entry point in *code; NULL on failure. */
static inline void *cffi_closure_make(ffi_cif *cif, cffi_handler handler, void *user_data, void **code) {
    void *entry = 0;
    ffi_closure *closure = (ffi_closure *)ffi_closure_alloc(sizeof(ffi_closure), &entry);
    if (!closure) return 0;
    if (ffi_prep_closure_loc(closure, cif, handler, user_data, entry) != FFI_OK) {
        ffi_closure_free(closure);
        return 0;
    }
    *code = entry;
    return closure;
}

static inline void cffi_closure_release(void *closure) { ffi_closure_free(closure); }

#endif
