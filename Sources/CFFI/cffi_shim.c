/* CFFI is header-only: see include/cffi_shim.h. */
