/* Output names that a rename must not replace (see outdest.h). */
#include "cli/outdest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"

int outdest_through(const char *dest)
{
    struct stat sb;
    if (!strcmp(dest, "-")) return 1;
    return stat(dest, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

int outdest_start(outdest *o, const char *dest, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->dest = dest;
    if (!outdest_through(dest)) return OUTFILE_OK;
    const char *root = getenv("TMPDIR");
    if (!root || !*root) root = "/tmp";
    size_t n = strlen(root) + 32;
    o->dir = malloc(n);
    o->spool = malloc(n + 8);
    if (o->dir) snprintf(o->dir, n, "%s/nocsim-out.XXXXXX", root);
    if (!o->dir || !o->spool || !mkdtemp(o->dir)) {
        snprintf(err, errlen, "%s: cannot create a temporary folder in %s (%s)", dest, root,
                 o->dir && o->spool ? strerror(errno) : "out of memory");
        free(o->dir);
        free(o->spool);
        memset(o, 0, sizeof *o);
        return OUTFILE_FAIL;
    }
    snprintf(o->spool, n + 8, "%s/out", o->dir);
    return OUTFILE_OK;
}

const char *outdest_path(const outdest *o)
{
    return o->spool ? o->spool : o->dest;
}

/* Copy file from to the open descriptor fd.  0, or an errno. */
static int copy_to(const char *from, int fd)
{
    int in = open(from, O_RDONLY);
    if (in < 0) return errno;
    char buf[65536];
    int e = 0;
    for (;;) {
        ssize_t got = read(in, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) { e = got < 0 ? errno : 0; break; }
        for (ssize_t put = 0; put < got && !e;) {
            ssize_t w = write(fd, buf + put, (size_t)(got - put));
            if (w < 0 && errno != EINTR) e = errno;
            else if (w > 0) put += w;
        }
        if (e) break;
    }
    close(in);
    return e;
}

int outdest_finish(outdest *o, int ok, char *err, size_t errlen)
{
    int rc = OUTFILE_OK;
    if (o->spool && ok) {
        int e;
        if (!strcmp(o->dest, "-")) {
            /* What the command printed before comes first. */
            e = fflush(stdout) ? errno : copy_to(o->spool, STDOUT_FILENO);
        } else {
            int fd = open(o->dest, O_WRONLY | O_NOCTTY);
            e = fd < 0 ? errno : copy_to(o->spool, fd);
            if (fd >= 0 && close(fd) != 0 && !e) e = errno;
        }
        if (e) {
            snprintf(err, errlen, "%s: write failed (%s)", o->dest, strerror(e));
            rc = OUTFILE_FAIL;
        }
    }
    if (o->spool) unlink(o->spool);
    if (o->dir) rmdir(o->dir);
    free(o->spool);
    free(o->dir);
    memset(o, 0, sizeof *o);
    return rc;
}
