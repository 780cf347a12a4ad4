/* Temporary-then-rename output files (see outfile.h). */
#include "viz/outfile.h"
#include "viz/viz.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int viz_out_open(viz_out *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    if (!*path || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
        snprintf(err, errlen, "%s: is a directory, not a file name", *path ? path : "''");
        return VIZ_BADINPUT;
    }
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        viz_out_abort(o);
        snprintf(err, errlen, "%s: out of memory", path);
        return VIZ_FAIL;
    }
    /* ".NAME.XXXXXX" in the same directory: hidden while incomplete. */
    snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create a file there (%s)", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        viz_out_abort(o);
        return VIZ_BADINPUT;
    }
    /* mkstemp makes 0600; a picture gets the usual permissions. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0 || !(o->f = fdopen(fd, "wb"))) {
        snprintf(err, errlen, "%s: %s", o->tmp, strerror(errno));
        close(fd);
        viz_out_abort(o);
        return VIZ_FAIL;
    }
    return VIZ_OK;
}

int viz_out_commit(viz_out *o, char *err, size_t errlen)
{
    int bad = 0;
    if (o->f) { /* NULL when another program wrote the file */
        bad = ferror(o->f);
        bad |= fclose(o->f) != 0;
        o->f = NULL;
    }
    if (bad) {
        snprintf(err, errlen, "%s: write failed (%s)", o->path, strerror(errno));
        viz_out_abort(o);
        return VIZ_FAIL;
    }
    if (rename(o->tmp, o->path) != 0) {
        snprintf(err, errlen, "%s: cannot rename %s into place (%s)", o->path, o->tmp, strerror(errno));
        viz_out_abort(o);
        return VIZ_FAIL;
    }
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
    return VIZ_OK;
}

void viz_out_abort(viz_out *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
