/* Evaluation thread pool (see pool.h).  The calling thread works too, so a
 * pool of one thread starts no thread at all.  With delta runs on, each
 * thread has a delta engine beside its simulator (made from the same
 * network and traffic, which the pool keeps for that). */
#include "sim/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sim_pool {
    int threads;            /* including the caller */
    sim **sims;             /* one per thread; sims[0] is the caller's */
    delta_engine **deltas;  /* one per thread, or NULL (sim_pool_set_delta) */
    sim_params p;           /* the network and traffic, for the delta engines */
    int32_t *dest;
    pthread_t *tid;
    int started;
    int synced;             /* lock, work and done initialised */
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    sim_job *jobs;
    int count, next, finished, busy;
    unsigned batch;         /* increments per batch, wakes the workers */
    int lean;               /* sim_pool_set_lean */
    int quit;
};

typedef struct { sim_pool *pl; int index; } worker_arg;

/* The job as a delta run, if it asks for one and e can run it: 1 when it
 * did (metrics, tails and the record or patch written), 0 when the caller
 * runs it in full.  Delta runs are lean runs: a pool that is not lean has
 * no engine (e NULL). */
static int eval_delta(delta_engine *e, sim_job *j, int64_t cutoff)
{
    j->cone = 0;
    if (j->rec_out) {
        /* The engine writes the record only from a whole run. */
        if (e && cutoff == INT64_MAX) return delta_run_parent(e, j->cfg, j->dec, j->rec_out, &j->m, j->tails);
        delta_rec_invalidate(j->rec_out);
        return 0;
    }
    if (!e || !j->parent || !j->rec || !j->pdec || !j->patch || !delta_rec_valid(j->rec)) return 0;
    const int ran = delta_run_child(e, j->parent, j->rec, j->pdec, j->cfg, cutoff, j->dec, j->patch, &j->m, j->tails);
    j->cone = ran && delta_patch_on_cone(j->patch);
    return ran;
}

static void eval(sim *s, delta_engine *e, sim_job *j, int lean)
{
    if (!j->cfg) return;
    const int64_t cutoff = j->cutoff > 0 ? j->cutoff : INT64_MAX;
    if (eval_delta(lean ? e : NULL, j, cutoff)) return;
    if (lean) sim_run_lean(s, j->cfg, cutoff, j->dec, &j->m);
    else sim_run_recording(s, j->cfg, cutoff, j->dec, &j->m);
    if (j->tails && j->m.status == SIM_OK) sim_tail_cycles(s, j->tails);
}

/* Thread k's delta engine, or NULL.  Read per batch: sim_pool_set_delta
 * runs between batches, and the lock orders it before them. */
static delta_engine *engine(const sim_pool *pl, int k) { return pl->deltas ? pl->deltas[k] : NULL; }

/* Take jobs until none are left; the lock is held on entry and exit. */
static void drain(sim_pool *pl, int index)
{
    sim *s = pl->sims[index];
    delta_engine *e = engine(pl, index);
    while (pl->next < pl->count) {
        sim_job *j = &pl->jobs[pl->next++];
        pthread_mutex_unlock(&pl->lock);
        eval(s, e, j, pl->lean);
        pthread_mutex_lock(&pl->lock);
        pl->finished++;
    }
}

static void *worker(void *arg)
{
    worker_arg *wa = arg;
    sim_pool *pl = wa->pl;
    int index = wa->index;
    free(wa);
    unsigned seen = 0;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        while (!pl->quit && pl->batch == seen) pthread_cond_wait(&pl->work, &pl->lock);
        if (pl->quit) break;
        seen = pl->batch;
        pl->busy++;
        drain(pl, index);
        pl->busy--;
        if (pl->finished == pl->count && pl->busy == 0) pthread_cond_signal(&pl->done);
    }
    pthread_mutex_unlock(&pl->lock);
    return NULL;
}

int sim_pool_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > SIM_POOL_MAX_THREADS ? SIM_POOL_MAX_THREADS : (int)n;
}

sim_pool *sim_pool_new(const sim_params *p, const int32_t *dest, int threads, fault_kind *kind, char *err, size_t errlen)
{
    if (threads < 1) threads = 1;
    sim_pool *pl = calloc(1, sizeof *pl);
    if (!pl) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    pl->threads = threads;
    pl->p = *p;
    pl->sims = calloc((size_t)threads, sizeof *pl->sims);
    pl->tid = calloc((size_t)threads, sizeof *pl->tid);
    pl->dest = malloc(sizeof *pl->dest * (size_t)sim_nodes(p));
    if (!pl->sims || !pl->tid || !pl->dest) {
        free(pl->sims); free(pl->tid); free(pl->dest); free(pl);
        return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    }
    memcpy(pl->dest, dest, sizeof *pl->dest * (size_t)sim_nodes(p));
    for (int k = 0; k < threads; k++)
        if (!(pl->sims[k] = sim_new(p, dest, kind, err, errlen))) { sim_pool_free(pl); return NULL; }
    if (pthread_mutex_init(&pl->lock, NULL) || pthread_cond_init(&pl->work, NULL) || pthread_cond_init(&pl->done, NULL)) {
        fault_set(kind, FAULT_RESOURCE);
        snprintf(err, errlen, "cannot create thread synchronisation");
        for (int k = 0; k < threads; k++) sim_free(pl->sims[k]);
        free(pl->sims); free(pl->tid); free(pl->dest); free(pl);
        return NULL;
    }
    pl->synced = 1;
    for (int k = 1; k < threads; k++) {
        worker_arg *wa = malloc(sizeof *wa);
        if (wa) *wa = (worker_arg){ .pl = pl, .index = k };
        int rc = wa ? pthread_create(&pl->tid[k], NULL, worker, wa) : ENOMEM;
        if (rc != 0) {
            free(wa);
            sim_pool_free(pl);   /* stops and joins the threads already started */
            fault_set(kind, FAULT_RESOURCE);
            return snprintf(err, errlen, "cannot start evaluation thread %d of %d: %s", k + 1, threads, strerror(rc)), NULL;
        }
        pl->started = k;
    }
    return pl;
}

static void free_deltas(sim_pool *pl)
{
    for (int k = 0; pl->deltas && k < pl->threads; k++) delta_engine_free(pl->deltas[k]);
    free(pl->deltas);
    pl->deltas = NULL;
}

void sim_pool_free(sim_pool *pl)
{
    if (!pl) return;
    if (pl->sims && pl->tid && pl->started > 0) {
        pthread_mutex_lock(&pl->lock);
        pl->quit = 1;
        pthread_cond_broadcast(&pl->work);
        pthread_mutex_unlock(&pl->lock);
        for (int k = 1; k <= pl->started; k++) pthread_join(pl->tid[k], NULL);
    }
    if (pl->synced) {
        /* Only once initialised: a sim_new that failed part-way frees the
         * pool before the synchronisation exists. */
        pthread_mutex_destroy(&pl->lock);
        pthread_cond_destroy(&pl->work);
        pthread_cond_destroy(&pl->done);
    }
    if (pl->sims) {
        for (int k = 0; k < pl->threads; k++) sim_free(pl->sims[k]);
    }
    free_deltas(pl);
    free(pl->sims);
    free(pl->tid);
    free(pl->dest);
    free(pl);
}

void sim_pool_set_lean(sim_pool *pl, int lean) { pl->lean = lean != 0; }

int sim_pool_set_delta(sim_pool *pl, int on, char *err, size_t errlen)
{
    if (!on || pl->deltas || !delta_supports(&pl->p)) {
        if (!on) free_deltas(pl);
        return 0;
    }
    pl->deltas = calloc((size_t)pl->threads, sizeof *pl->deltas);
    for (int k = 0; pl->deltas && k < pl->threads; k++)
        if (!(pl->deltas[k] = delta_engine_new(&pl->p, pl->dest))) {
            free_deltas(pl);
            break;
        }
    if (!pl->deltas) return snprintf(err, errlen, "out of memory for the delta engines of %d threads", pl->threads), -1;
    return 0;
}

void sim_pool_run(sim_pool *pl, sim_job *jobs, int count)
{
    /* One job is the caller's: waking the other threads for it only makes
     * them take the lock from it (the GA's one child a generation). */
    if (pl->started == 0 || count == 1) {
        for (int k = 0; k < count; k++) eval(pl->sims[0], engine(pl, 0), &jobs[k], pl->lean);
        return;
    }
    pthread_mutex_lock(&pl->lock);
    pl->jobs = jobs;
    pl->count = count;
    pl->next = pl->finished = 0;
    pl->batch++;
    pthread_cond_broadcast(&pl->work);
    pl->busy++;
    drain(pl, 0);
    pl->busy--;
    while (pl->finished < pl->count || pl->busy > 0) pthread_cond_wait(&pl->done, &pl->lock);
    pl->jobs = NULL;
    pl->count = 0;
    pthread_mutex_unlock(&pl->lock);
}
