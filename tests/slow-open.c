/* tests/slow-open.c: preloaded (LD_PRELOAD) by tests/csv-cli.sh, an open() that takes its time on
 * the paths containing $SLOW_OPEN: it sleeps $SLOW_OPEN_MS milliseconds (default 100) before and
 * after the real call. Two runs started together then meet in the window between a file's first
 * open and its creation every time, instead of once in a hundred tries.
 *   gcc -shared -fPIC -o slow-open.so tests/slow-open.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int open(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    if (!real)
        real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    const char *slow = getenv("SLOW_OPEN"), *ms = getenv("SLOW_OPEN_MS");
    const useconds_t us = 1000 * (ms ? (useconds_t)atoi(ms) : 100);
    const int delay = slow && *slow && strstr(path, slow);
    if (delay)
        usleep(us);
    const int fd = real(path, flags, mode);
    if (delay)
        usleep(us);
    return fd;
}
