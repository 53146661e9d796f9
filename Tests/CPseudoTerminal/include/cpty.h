/* Opens a pseudo-terminal for the end-to-end tests (posix_openpt and friends need
 * _XOPEN_SOURCE, which Swift's Glibc module does not set). */
#ifndef CPTY_H
#define CPTY_H
#include <stddef.h>

/* The master's file descriptor (close-on-exec), with the slave's path in name; -1 on failure. */
int cpty_open(char *name, size_t size);
#endif
