/* The rule for resuming a run (see resume.h). */
#include "ga/resume.h"

#include <stdio.h>
#include <string.h>

int ga_resume_allowed(store *db, int64_t run, char *err, size_t errlen)
{
    store_run r;
    int st = store_run_get(db, run, &r, err, errlen);
    if (st == STORE_NOTFOUND) {
        snprintf(err, errlen, "run %lld is not in %s", (long long)run, store_path(db));
        return GA_RESUME_REFUSED;
    }
    if (st != STORE_OK) return fault_rc(store_last_kind(db));
    int is_ga = r.kind && strcmp(r.kind, "ga") == 0;
    int finished = r.status && strcmp(r.status, "finished") == 0;
    store_run_clear(&r);
    if (is_ga && !finished) return GA_RESUME_OK;
    snprintf(err, errlen, "run %lld is %s", (long long)run, !is_ga ? "not a GA run" : "finished already");
    return GA_RESUME_REFUSED;
}
