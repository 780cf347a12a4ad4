/* Which recorded runs may be continued by ga_resume.  The rule lives here,
 * beside the GA, so every front end applies the same one. */
#ifndef NOCSIM_GA_RESUME_H
#define NOCSIM_GA_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/fault.h"

/* The refusal is bad input (util/fault.h): fault_of(GA_RESUME_REFUSED) is
 * FAULT_INPUT. */
enum { GA_RESUME_OK = 0, GA_RESUME_REFUSED = -FAULT_INPUT };

/* Whether run `run` of db may be resumed: it must exist, be a GA run and not
 * be finished (an unfinished or failed run continues from its checkpoint).
 * Returns GA_RESUME_OK; GA_RESUME_REFUSED with err saying why ("run 3 is
 * finished already"), a wrong choice of run; or the store's fault (negative,
 * util/fault.h) with err when the store cannot be read. */
NOCSIM_MUST_USE
int ga_resume_allowed(store *db, int64_t run, char *err, size_t errlen);

#endif
