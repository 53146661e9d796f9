// faultshim: an LD_PRELOAD library that makes writes to chosen files fail, so tests can
// show what storesh does on a full disk or a failing device without filling one.
//
// Set in the environment of the program under test:
//   STORESH_FAULT_PATH   a substring of the paths whose writes fail (required)
//   STORESH_FAULT        ENOSPC (default), EIO, EFBIG or EDQUOT: the errno a failed write gives
//   STORESH_FAULT_AFTER  bytes that still get through before writes fail (default 0)
//   STORESH_FAULT_FSYNC  1: fsync of such a file fails with the same errno
//
// It interposes write(2) (what Swift code calls) and, for streams fopen opens for writing
// on such a path, stdio's output functions (libedit writes its history with them, and
// glibc's stdio does not go through the exported write).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fault_errno(void) {
    const char *name = getenv("STORESH_FAULT");
    if (name == NULL || strcmp(name, "ENOSPC") == 0) return ENOSPC;
    if (strcmp(name, "EIO") == 0) return EIO;
    if (strcmp(name, "EFBIG") == 0) return EFBIG;
    if (strcmp(name, "EDQUOT") == 0) return EDQUOT;
    return ENOSPC;
}

static long budget = -1; // bytes left before writes fail; -1: not read yet

static int path_matches(const char *path) {
    const char *pattern = getenv("STORESH_FAULT_PATH");
    return pattern != NULL && *pattern != 0 && path != NULL && strstr(path, pattern) != NULL;
}

static int fd_matches(int fd) {
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = 0;
    return path_matches(path);
}

// How many of `count` bytes may be written; 0 with errno set when none may.
static size_t allowance(size_t count) {
    if (budget < 0) {
        const char *after = getenv("STORESH_FAULT_AFTER");
        budget = after ? atol(after) : 0;
    }
    if (budget == 0) {
        errno = fault_errno();
        return 0;
    }
    size_t allowed = (size_t)budget < count ? (size_t)budget : count;
    budget -= (long)allowed;
    return allowed;
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (count > 0 && fd > 2 && fd_matches(fd)) {
        size_t allowed = allowance(count);
        if (allowed == 0) return -1;
        return real(fd, buffer, allowed);
    }
    return real(fd, buffer, count);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    const char *flag = getenv("STORESH_FAULT_FSYNC");
    if (flag && strcmp(flag, "1") == 0 && fd_matches(fd)) {
        errno = fault_errno();
        return -1;
    }
    return real(fd);
}

// stdio: glibc's streams write with an internal write(2) that cannot be interposed, so
// the output functions are, for the streams fopen opened on a matching path (`faulty`).
// libedit writes its history with fputs and fprintf (__fprintf_chk when fortified).
#define MAX_FAULTY 16
static FILE *faulty[MAX_FAULTY];

static int is_faulty(FILE *stream) {
    for (int i = 0; i < MAX_FAULTY; i++) if (faulty[i] == stream && stream != NULL) return 1;
    return 0;
}

static void mark(FILE *stream, int on) {
    for (int i = 0; i < MAX_FAULTY; i++) {
        if (on && faulty[i] == NULL) { faulty[i] = stream; return; }
        if (!on && faulty[i] == stream) { faulty[i] = NULL; return; }
    }
}

static size_t (*real_fwrite)(const void *, size_t, size_t, FILE *);

// Writes what the budget allows of `bytes` to a faulty stream; -1 with errno set when cut.
static int rationed(const char *bytes, size_t count, FILE *stream) {
    if (!real_fwrite) real_fwrite = (size_t (*)(const void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fwrite");
    size_t allowed = count == 0 ? 0 : allowance(count);
    if (allowed > 0) real_fwrite(bytes, 1, allowed, stream);
    if (allowed < count) {
        if (allowed > 0) errno = fault_errno();
        return -1;
    }
    return (int)count;
}

size_t fwrite(const void *bytes, size_t size, size_t count, FILE *stream) {
    if (!real_fwrite) real_fwrite = (size_t (*)(const void *, size_t, size_t, FILE *))dlsym(RTLD_NEXT, "fwrite");
    if (!is_faulty(stream)) return real_fwrite(bytes, size, count, stream);
    return rationed(bytes, size * count, stream) < 0 ? 0 : count;
}

int fputs(const char *text, FILE *stream) {
    static int (*real)(const char *, FILE *);
    if (!real) real = (int (*)(const char *, FILE *))dlsym(RTLD_NEXT, "fputs");
    if (!is_faulty(stream)) return real(text, stream);
    return rationed(text, strlen(text), stream) < 0 ? EOF : 1;
}

int fputc(int character, FILE *stream) {
    static int (*real)(int, FILE *);
    if (!real) real = (int (*)(int, FILE *))dlsym(RTLD_NEXT, "fputc");
    if (!is_faulty(stream)) return real(character, stream);
    char byte = (char)character;
    return rationed(&byte, 1, stream) < 0 ? EOF : (unsigned char)character;
}

static int formatted(FILE *stream, const char *format, va_list arguments) {
    char *text = NULL;
    int length = vasprintf(&text, format, arguments);
    if (length < 0) return -1;
    int result = rationed(text, (size_t)length, stream);
    free(text);
    return result;
}

int fprintf(FILE *stream, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    int result = is_faulty(stream) ? formatted(stream, format, arguments) : vfprintf(stream, format, arguments);
    va_end(arguments);
    return result;
}

int __fprintf_chk(FILE *stream, int flag, const char *format, ...) {
    (void)flag;
    va_list arguments;
    va_start(arguments, format);
    int result = is_faulty(stream) ? formatted(stream, format, arguments) : vfprintf(stream, format, arguments);
    va_end(arguments);
    return result;
}

int fclose(FILE *stream) {
    static int (*real)(FILE *);
    if (!real) real = (int (*)(FILE *))dlsym(RTLD_NEXT, "fclose");
    mark(stream, 0);
    return real(stream);
}

static FILE *opened(FILE *stream, const char *path, const char *mode) {
    if (stream != NULL && path_matches(path) && strpbrk(mode, "wa+") != NULL) mark(stream, 1);
    return stream;
}

FILE *fopen(const char *path, const char *mode) {
    static FILE *(*real)(const char *, const char *);
    if (!real) real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    return opened(real(path, mode), path, mode);
}

FILE *fopen64(const char *path, const char *mode) {
    static FILE *(*real)(const char *, const char *);
    if (!real) real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen64");
    return opened(real(path, mode), path, mode);
}
