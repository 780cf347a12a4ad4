/* A test shim (LD_PRELOAD), built by tests/oom_exit.sh, never linked into
 * nocsim: the Nth allocation of the process (malloc, calloc, realloc,
 * counted from 1 in NOCSIM_FAIL_ALLOC=N) returns NULL with ENOMEM, every
 * other one is glibc's.  It lets a test make memory run out at one chosen
 * place, so that the exit status of a memory fault (1, not 2: cli/status.c)
 * is checked wherever it is reported.  On exit, NOCSIM_FAIL_ALLOC_COUNT=FILE
 * receives the number of allocations seen (the walk's upper end). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t k, size_t n);
extern void *__libc_realloc(void *p, size_t n);

static atomic_long seen;
static long fail_at = -1;   /* -1: not read yet; 0: never */

static int fails_now(void)
{
    if (fail_at < 0) {
        const char *v = getenv("NOCSIM_FAIL_ALLOC");
        fail_at = v ? atol(v) : 0;
    }
    return atomic_fetch_add(&seen, 1) + 1 == fail_at;
}

void *malloc(size_t n)
{
    if (fails_now()) return errno = ENOMEM, NULL;
    return __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
    if (fails_now()) return errno = ENOMEM, NULL;
    return __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
    if (fails_now()) return errno = ENOMEM, NULL;
    return __libc_realloc(p, n);
}

/* The count, written with write(2) (stdio would allocate). */
__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("NOCSIM_FAIL_ALLOC_COUNT");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return;
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%ld\n", (long)atomic_load(&seen));
    if (len > 0) (void)!write(fd, buf, (size_t)len);
    close(fd);
}
