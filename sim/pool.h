/* A pool of threads that evaluate batches of configurations, one simulator
 * per thread, reused across batches.  Evaluation is deterministic, so a
 * batch's results do not depend on how many threads ran it.  The GA, simple
 * stacking, replays and the mining methods all evaluate through it. */
#ifndef NOCSIM_SIM_POOL_H
#define NOCSIM_SIM_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "sim/decisions.h"
#include "sim/sim.h"

/* Most threads a pool may have (the --threads range of every command). */
#define SIM_POOL_MAX_THREADS 256

typedef struct sim_pool sim_pool;

/* One evaluation: run cfg; with cutoff > 0 the run may stop once the
 * duration is certain to exceed cutoff (status SIM_CUTOFF).  When tails is
 * not NULL (nodes x slices entries) and the run ends SIM_OK, each packet's
 * tail cycle (sim_tail_cycles) is written there; otherwise it is left alone.
 * A job whose cfg is NULL is skipped (its m left as it is): a search's way
 * to hand on results it knows without a run. */
typedef struct {
    const sim_config *cfg;
    int64_t cutoff;
    int64_t *tails;
    sim_decisions *dec;     /* not NULL: the run's decisions (sim_run_recording) */
    sim_metrics m;
} sim_job;

/* The default thread count: the processors online, at least 1 and at most
 * SIM_POOL_MAX_THREADS. */
int sim_pool_default_threads(void);

/* A pool of `threads` simulators (values below 1 mean 1) of network p and
 * traffic dest[] (p->n * p->n entries, copied by each simulator).  Returns
 * NULL with err set and *kind (may be NULL) as sim_new's when p is refused
 * or memory runs out, and FAULT_RESOURCE when a thread cannot be started
 * (the user asked for that many: a smaller pool would hide it).  Free with
 * sim_pool_free. */
NOCSIM_MUST_USE
sim_pool *sim_pool_new(const sim_params *p, const int32_t *dest, int threads, fault_kind *kind, char *err, size_t errlen);
/* Stops the threads and frees everything; NULL is fine. */
void sim_pool_free(sim_pool *pl);
/* From now on (lean 1) the pool's runs are sim_run_lean's: te, lb, ir,
 * or_, ib and ob are left 0; lean 0 (the default) counts every metric.
 * Not while a batch runs. */
void sim_pool_set_lean(sim_pool *pl, int lean);
/* Runs every job, writing each one's metrics into jobs[k].m; returns when all
 * are done.  The configurations are only read, and must stay valid until then. */
void sim_pool_run(sim_pool *pl, sim_job *jobs, int count);

#endif
