#define _XOPEN_SOURCE 700
#include "cpty.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cpty_open(char *name, size_t size) {
    /* Close-on-exec from the start: other tests spawn processes concurrently. */
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0) {
        close(master);
        return -1;
    }
    const char *slave = ptsname(master);
    if (!slave) {
        close(master);
        return -1;
    }
    snprintf(name, size, "%s", slave);
    fcntl(master, F_SETFD, FD_CLOEXEC);
    return master;
}
