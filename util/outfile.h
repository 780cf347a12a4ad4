/* Output files: the one rule for an output path, the check that an output is
 * not one of the command's inputs, and files that appear only when complete
 * (written under a temporary name in the destination's directory, so the
 * final rename is atomic, then renamed into place by outfile_commit or
 * removed by outfile_abort).  Every command that writes a file goes through
 * here, so a write that fails part-way leaves the old file (or none). */
#ifndef NOCSIM_UTIL_OUTFILE_H
#define NOCSIM_UTIL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/fault.h"

/* Results; the values are viz/'s VIZ_OK, VIZ_BADINPUT, VIZ_FAIL, and they
 * are the kinds of util/fault.h (a failed write is I/O), so a caller passes
 * the result on as a fault_kind. */
enum { OUTFILE_OK = FAULT_NONE, OUTFILE_BADINPUT = FAULT_INPUT, OUTFILE_FAIL = FAULT_IO };

typedef struct {
    char *path;   /* destination (owned copy) */
    char *tmp;    /* temporary name beside it (owned) */
    FILE *f;      /* open for writing on tmp */
} outfile;

/* The one rule for an output path: OUTFILE_BADINPUT with err = "PATH: why"
 * when it is empty, ends in '/', names a directory or an existing file that
 * cannot be written, or its directory is missing, not a directory or not
 * writable; OUTFILE_OK otherwise.  Writes nothing. */
NOCSIM_MUST_USE
int outfile_check(const char *path, char *err, size_t errlen);

/* 1 when writing path would overwrite the file input or one of its SQLite
 * companions (input-wal, input-journal, input-shm): the same device and inode
 * (through symlinks and hard links), or, for a file not there yet, the same
 * name after resolving the directories.  0 otherwise, and for "-" or NULL. */
int outfile_is_input(const char *path, const char *input);

/* outfile_check, then create the temporary file for destination path.
 * OUTFILE_BADINPUT when the path is refused or the directory takes no new
 * file; OUTFILE_FAIL when out of memory.  On failure *o holds nothing. */
NOCSIM_MUST_USE
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* Close the stream and rename the file into place.  OUTFILE_FAIL (file
 * removed) if a write failed.  Always releases *o.  The caller may close o->f
 * and set it to NULL first, when another program writes the file under
 * o->tmp. */
NOCSIM_MUST_USE
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Close and remove the temporary file; releases *o.  Safe on a released o. */
void outfile_abort(outfile *o);

#endif
