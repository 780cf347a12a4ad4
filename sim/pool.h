/* A pool of threads that evaluate batches of configurations, one simulator
 * per thread, reused across batches.  Evaluation is deterministic, so a
 * batch's results do not depend on how many threads ran it.  The GA, simple
 * stacking, replays and the mining methods all evaluate through it. */
#ifndef NOCSIM_SIM_POOL_H
#define NOCSIM_SIM_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "sim/decisions.h"
#include "sim/delta_run.h"
#include "sim/sim.h"

/* Most threads a pool may have (the --threads range of every command). */
#define SIM_POOL_MAX_THREADS 256

typedef struct sim_pool sim_pool;

/* One evaluation: run cfg; with cutoff > 0 the run may stop once the
 * duration is certain to exceed cutoff (status SIM_CUTOFF).  When tails is
 * not NULL (nodes x slices entries) and the run ends SIM_OK, each packet's
 * tail cycle (sim_tail_cycles) is written there; otherwise it is left alone.
 * A job whose cfg is NULL is skipped (its m left as it is): a search's way
 * to hand on results it knows without a run.
 *
 * Delta runs (sim/delta_run.h), on a lean pool told sim_pool_set_delta only;
 * elsewhere these fields are ignored (rec_out made invalid), and a job that
 * leaves them zero runs as it always did.  Results are the same either way:
 *  - a parent job (rec_out, no cutoff) writes cfg's record there
 *    (delta_run_parent, which keeps dec too); when the engine cannot, cfg
 *    runs as before and rec_out stays invalid;
 *  - a child job (parent, rec, a valid record of parent, pdec, its
 *    decisions, and patch) may run on its cone (delta_run_child): then cone
 *    is 1 and patch holds what delta_accept needs, and dec is left alone;
 *    or on its cone and then on the whole network: then whole is 1 and dec
 *    is cleared (not known), since recording decisions there costs a tenth
 *    of such a run and a search takes one such child in thousands (one that
 *    needs the decisions runs it again as a parent job, which writes them);
 *    otherwise cfg runs in full as before, dec included. */
typedef struct sim_job {
    const sim_config *cfg;
    int64_t cutoff;
    int64_t *tails;
    sim_decisions *dec;     /* not NULL: the run's decisions (sim_run_recording) */
    delta_rec *rec_out;     /* parent job: cfg's record */
    const sim_config *parent; /* child job: its parent's configuration, */
    const delta_rec *rec;   /* the parent's record, */
    const sim_decisions *pdec; /* the decisions it was written with, */
    delta_patch *patch;     /* and what the child's cone run changed */
    int cone;               /* out: 1 when the child ran on its cone to the end */
    int whole;              /* out: 1 when it went on to the whole network (dec cleared) */
    sim_metrics m;
    /* Offered jobs only (sim_pool_offer): when not NULL and it says 1 of
     * the finished job, every job offered after it is withdrawn (a search
     * that speculates: an accepted child voids the children made as if it
     * were rejected). */
    int (*voids_later)(const struct sim_job *j, const void *ctx);
    const void *vctx;
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
/* From now on (on 1) each thread has a delta engine beside its simulator,
 * for the jobs that ask for delta runs (see sim_job); on 0 they are freed,
 * and on a network that delta_supports refuses none are made.  Returns 0, or -1 with err set when memory runs out (the pool is then as
 * before).  Not while a batch runs. */
NOCSIM_MUST_USE
int sim_pool_set_delta(sim_pool *pl, int on, char *err, size_t errlen);
/* Runs every job, writing each one's metrics into jobs[k].m; returns when all
 * are done.  The configurations are only read, and must stay valid until then. */
void sim_pool_run(sim_pool *pl, sim_job *jobs, int count);

/* ---- jobs offered one at a time (a search that speculates) ----
 * sim_pool_offer hands job j to the pool and returns its ticket: the first
 * free thread runs it, the other threads spinning for such jobs a while
 * (a thread woken from sleep takes ~50 us on a virtual machine, longer than
 * a delta child takes), the caller's in sim_pool_await.  Jobs start in the
 * order offered.  Results are as sim_pool_run's, but for a withdrawn job,
 * whose results mean nothing.  At most SIM_POOL_OFFERS are outstanding
 * (offered and not yet awaited or withdrawn); sim_pool_run is not called
 * while any is. */
#define SIM_POOL_OFFERS 8
int sim_pool_offer(sim_pool *pl, sim_job *j);
/* Returns when ticket's job is done, running offered jobs on the caller
 * meanwhile (its own first); 1 when its results hold, 0 when it was
 * withdrawn (by a voids_later of an earlier job).  The ticket is then
 * free. */
int sim_pool_await(sim_pool *pl, int ticket);
/* Every outstanding job withdrawn: one not started never runs, one running
 * stops within a cycle (delta runs; a run in full finishes); returns when
 * none runs, so that what the jobs read may change.  Every ticket is then
 * free. */
void sim_pool_withdraw(sim_pool *pl);

#endif
