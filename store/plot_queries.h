/* Queries behind `nocsim plot runs` (paper Fig. 5): the runs of a pattern
 * grouped into repetitions of one setting.  Conventions as in store/store.h. */
#ifndef NOCSIM_STORE_PLOT_QUERIES_H
#define NOCSIM_STORE_PLOT_QUERIES_H

#include "store/store.h"
#include "util/fault.h"

/* Runs whose parameters (the params JSON) are equal except for the random
 * seeds ("seed", "ga_seed") are repetitions of one setting; for randperm
 * traffic the seed also drew the pattern, so runs of other seeds are other
 * patterns (other groups). */
typedef struct {
    const char *traffic;     /* valid during the callback */
    int32_t size, slices, flits;
    int64_t runs;            /* repetitions in the group */
    int64_t first_run;       /* lowest run id of the group */
    double mean_best;        /* mean of their best durations */
    int64_t min_best;        /* the best of their best durations */
} store_run_group;

typedef int (*store_run_group_cb)(const store_run_group *g, void *ctx);
/* Groups of the runs matching f (NULL = all) that have a best duration,
 * ordered by traffic, size, slices, flits, then first run. */
NOCSIM_MUST_USE
int store_run_groups(store *s, const store_run_filter *f, store_run_group_cb cb, void *ctx,
                     char *err, size_t errlen);

#endif
