/* Experiment files: `key = value` settings in BookSim2's syntax, so that a
 * BookSim2 configuration file reads as it is.
 *
 *   // a comment to the end of the line (so is a line whose first non-blank is #)
 *   topology = mesh; k = 8;      a setting ends at ';' or at the end of its line
 *   packet_size = {1,8}          a list: the braces are kept in the value
 *
 * A key is a letter or '_' followed by letters, digits, '_' and '-'; the
 * value is the text after '=' up to the setting's end, blanks around it cut,
 * and may not be empty.  A key given twice keeps both items (the reader of
 * the items decides; later ones are applied later).  Only the syntax is
 * checked here: what the keys mean is the caller's (sim/ol_config.h).
 *
 * Conventions as in util/lines.h: nothing printed; a message "NAME, line N:
 * ..." in err with -FAULT_INPUT for bad syntax, -FAULT_IO for a file that
 * cannot be read, -FAULT_RESOURCE when memory runs out. */
#ifndef NOCSIM_UTIL_KEYFILE_H
#define NOCSIM_UTIL_KEYFILE_H

#include <stddef.h>

#include "util/fault.h"

typedef struct {
    char *key, *value;
    long line;         /* 1-based, for messages */
} keyfile_item;

typedef struct {
    keyfile_item *items;
    int n;
} keyfile;

/* Read path's settings into *kf (kf->items owned; keyfile_free releases
 * them, also after a failure).  name starts each message (the path as the
 * user gave it, quoted by the caller).  Returns 0 or a negative fault. */
NOCSIM_MUST_USE
int keyfile_read(const char *path, const char *name, keyfile *kf, char *err, size_t errlen);
/* Parse text (a whole file's contents) the same way; for the tests and the
 * fuzzer. */
NOCSIM_MUST_USE
int keyfile_parse(const char *text, const char *name, keyfile *kf, char *err, size_t errlen);
void keyfile_free(keyfile *kf);

#endif
