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

#endif
