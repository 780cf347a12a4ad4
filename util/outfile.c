/* Output paths and temporary-then-rename output files (see outfile.h). */
#define _XOPEN_SOURCE 700   /* realpath */
#include "util/outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_check(const char *path, char *err, size_t errlen)
{
    if (!*path) return snprintf(err, errlen, "'': the path is empty"), OUTFILE_BADINPUT;
    size_t len = strlen(path);
    struct stat sb;
    if (path[len - 1] == '/' || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
        return snprintf(err, errlen, "%s: is a directory, not a file name", path), OUTFILE_BADINPUT;
    if (stat(path, &sb) == 0) {
        if (access(path, W_OK) != 0) return snprintf(err, errlen, "%s: %s", path, strerror(errno)), OUTFILE_BADINPUT;
    } else if (errno != ENOENT) return snprintf(err, errlen, "%s: %s", path, strerror(errno)), OUTFILE_BADINPUT;
    /* The directory must exist and take a new file (the temporary one). */
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (stat(dir, &sb) != 0) return snprintf(err, errlen, "%s: directory %s: %s", path, dir, strerror(errno)), OUTFILE_BADINPUT;
    if (!S_ISDIR(sb.st_mode)) return snprintf(err, errlen, "%s: %s is not a directory", path, dir), OUTFILE_BADINPUT;
    if (access(dir, W_OK | X_OK) != 0)
        return snprintf(err, errlen, "%s: directory %s: %s", path, dir, strerror(errno)), OUTFILE_BADINPUT;
    return OUTFILE_OK;
}

/* path with its directory resolved (the last part kept as given, so a file
 * not there yet has a name too).  0, or -1 when the directory cannot be
 * resolved. */
static int resolved_name(const char *path, char *out, size_t outlen)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (!realpath(dir, real)) return -1;
    const char *base = slash ? slash + 1 : path;
    int n = snprintf(out, outlen, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int outfile_is_input(const char *path, const char *input)
{
    static const char *const companion[] = { "", "-wal", "-journal", "-shm" };
    if (!path || !input || !*path || !*input || !strcmp(path, "-") || !strcmp(input, "-")) return 0;
    struct stat so, si;
    int out_exists = stat(path, &so) == 0;
    char outname[PATH_MAX], inname[PATH_MAX], name[PATH_MAX + 16];
    int have_out = resolved_name(path, outname, sizeof outname) == 0;
    /* The input through every link it may be reached by. */
    int have_in = realpath(input, inname) != NULL || resolved_name(input, inname, sizeof inname) == 0;
    for (size_t k = 0; k < sizeof companion / sizeof companion[0]; k++) {
        snprintf(name, sizeof name, "%s%s", input, companion[k]);
        if (out_exists && stat(name, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) return 1;
        if (have_out && have_in) {
            snprintf(name, sizeof name, "%s%s", inname, companion[k]);
            if (!strcmp(name, outname)) return 1;
        }
    }
    return 0;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    int rc = outfile_check(path, err, errlen);
    if (rc != OUTFILE_OK) return rc;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    o->path = strdup(path);
    o->tmp = malloc(n);
    if (!o->path || !o->tmp) {
        outfile_abort(o);
        snprintf(err, errlen, "%s: out of memory", path);
        return OUTFILE_FAIL;
    }
    /* ".NAME.XXXXXX" in the same directory: hidden while incomplete. */
    snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create a file there (%s)", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        outfile_abort(o);
        return OUTFILE_BADINPUT;
    }
    /* mkstemp makes 0600; an output file gets the usual permissions. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0 || !(o->f = fdopen(fd, "wb"))) {
        snprintf(err, errlen, "%s: %s", o->tmp, strerror(errno));
        close(fd);
        outfile_abort(o);
        return OUTFILE_FAIL;
    }
    return OUTFILE_OK;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int bad = 0, e = 0;
    if (o->f) { /* NULL when another program wrote the file */
        bad = ferror(o->f);
        e = errno;
        if (fclose(o->f) != 0) { bad = 1; e = errno; }
        o->f = NULL;
    }
    if (bad) {
        snprintf(err, errlen, "%s: write failed (%s)", o->path, strerror(e ? e : EIO));
        outfile_abort(o);
        return OUTFILE_FAIL;
    }
    if (rename(o->tmp, o->path) != 0) {
        snprintf(err, errlen, "%s: cannot rename %s into place (%s)", o->path, o->tmp, strerror(errno));
        outfile_abort(o);
        return OUTFILE_FAIL;
    }
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
    return OUTFILE_OK;
}

void outfile_abort(outfile *o)
{
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}
