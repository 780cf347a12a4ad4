/* An output file that appears only when complete: written under a temporary
 * name in the destination's directory (so the final rename is atomic) and
 * renamed into place by viz_out_commit, or removed by viz_out_abort. */
#ifndef NOCSIM_VIZ_OUTFILE_H
#define NOCSIM_VIZ_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char *path;   /* destination (owned copy) */
    char *tmp;    /* temporary name beside it (owned) */
    FILE *f;      /* open for writing on tmp */
} viz_out;

/* Create the temporary file for destination `path`.  VIZ_BADINPUT when the
 * directory cannot take a new file (missing, not writable) or path names a
 * directory; VIZ_FAIL when out of memory.  On failure *o holds nothing. */
int viz_out_open(viz_out *o, const char *path, char *err, size_t errlen);
/* Close the stream and rename the file into place.  VIZ_FAIL (file removed)
 * if a write failed.  Always releases *o.  The caller may close o->f and set
 * it to NULL first, when another program writes the file under o->tmp. */
int viz_out_commit(viz_out *o, char *err, size_t errlen);
/* Close and remove the temporary file; releases *o.  Safe on a released o. */
void viz_out_abort(viz_out *o);

#endif
