/* A pool of threads that evaluate batches of configurations, one simulator
 * per thread, reused across generations.  Evaluation is deterministic, so a
 * batch's results do not depend on how many threads ran it. */
#ifndef NOCSIM_GA_POOL_H
#define NOCSIM_GA_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

typedef struct ga_pool ga_pool;

/* One evaluation: run cfg; with cutoff > 0 the run may stop once the
 * duration is certain to exceed cutoff (status SIM_CUTOFF). */
typedef struct {
    const sim_config *cfg;
    int64_t cutoff;
    sim_metrics m;
} ga_job;

ga_pool *ga_pool_new(const sim_params *p, const int32_t *dest, int threads, char *err, size_t errlen);
void ga_pool_free(ga_pool *pl);
/* Run every job; returns when all are done. */
void ga_pool_run(ga_pool *pl, ga_job *jobs, int count);

#endif
