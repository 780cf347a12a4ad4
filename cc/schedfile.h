/* Reading a schedule file: the problem it describes (as a cc_desc, so flags
 * can be merged with it) and, once that problem's topology is built, its
 * transfers.  The format is what cc_schedule_write_json writes; hand-made
 * files may leave out the problem fields, which flags then supply. */
#ifndef NOCSIM_CC_SCHEDFILE_H
#define NOCSIM_CC_SCHEDFILE_H

#include "cc/instance.h"
#include "cc/schedule.h"
#include "util/fault.h"

typedef struct cc_schedfile cc_schedfile;

/* Read and parse path.  *out (free with cc_schedfile_free) or NULL:
 * CC_EINPUT with "PATH: line N: what" for unreadable or malformed input,
 * CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_schedfile_read(const char *path, cc_schedfile **out, char *err, size_t errlen);
void cc_schedfile_free(cc_schedfile *f);
/* The same from text[0..len-1] in memory (the fuzz target's entry); name
 * stands for the path in messages. */
NOCSIM_MUST_USE
int cc_schedfile_parse(const char *name, const char *text, size_t len, cc_schedfile **out, char *err, size_t errlen);

/* The problem the file states; its strings belong to f and live as long. */
const cc_desc *cc_schedfile_desc(const cc_schedfile *f);

/* The steps the file's header states ("steps"), -1 when it states none;
 * checked against the schedule by cc verify and cc cycles. */
int cc_schedfile_steps(const cc_schedfile *f);

/* The transfers, with node names looked up in t.  *out (caller frees) or
 * NULL: CC_EINPUT naming the line of an unknown node or a malformed step,
 * CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_schedfile_schedule(const cc_schedfile *f, const cc_topo *t, cc_schedule **out, char *err, size_t errlen);

#endif
