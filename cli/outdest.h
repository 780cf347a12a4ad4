/* Output names that a rename must not replace.  The writers put a file in
 * place by renaming a finished temporary one (util/outfile.h), which would
 * replace whatever the name held: "-" (standard output), a character device
 * (a copy of /dev/null or /dev/full), a FIFO.  Such a destination is written
 * through instead: the writer is given a spool file in a private folder of
 * TMPDIR, and outdest_finish copies it to the destination, whose failure (a
 * full device) is a failed write.  A regular file or a new name is written
 * by the writer itself, as before. */
#ifndef NOCSIM_CLI_OUTDEST_H
#define NOCSIM_CLI_OUTDEST_H

#include <stddef.h>

typedef struct {
    const char *dest;   /* as given (not owned) */
    char *dir, *spool;  /* the private folder and its file; NULL when not spooled */
} outdest;

/* 1 when dest is written through rather than renamed over: "-", or an
 * existing file (links followed) that is neither regular nor a directory. */
int outdest_through(const char *dest);

/* Prepare o for dest: a spool file when outdest_through(dest).  Returns
 * OUTFILE_OK, or OUTFILE_FAIL with err set (no temporary folder). */
int outdest_start(outdest *o, const char *dest, char *err, size_t errlen);

/* The name the writer writes: the spool file, or dest itself. */
const char *outdest_path(const outdest *o);

/* When ok, copy the spool file (if any) to the destination; always remove
 * the spool.  Returns OUTFILE_OK, or OUTFILE_FAIL with err = "DEST: write
 * failed (why)" (nothing is created at dest: a device or FIFO is opened
 * without O_CREAT); err is untouched when ok is 0.  Safe on a zeroed o. */
int outdest_finish(outdest *o, int ok, char *err, size_t errlen);

#endif
