/* Evaluation thread pool (see pool.h).  The calling thread works too, so a
 * pool of one thread starts no thread at all.  With delta runs on, each
 * thread has a delta engine beside its simulator (made from the same
 * network and traffic, which the pool keeps for that). */
#include "sim/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/invariant.h"

/* An offered job's place (sim_pool_offer).  state goes FREE -> OFFERED ->
 * RUNNING -> DONE -> FREE (awaited), or OFFERED -> DONE when withdrawn
 * before it starts; stop asks a running job to stop (and marks any job
 * withdrawn); seq is the offer's order. */
enum { OFFER_FREE, OFFER_OFFERED, OFFER_RUNNING, OFFER_DONE };
typedef struct {
    sim_job *job;
    atomic_int state;
    atomic_int stop;
    atomic_llong seq;
} offer_slot;

/* A worker spins this long for an offered job before it sleeps. */
#define SPIN_NS 2000000

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
    atomic_uint batch;      /* increments per batch, wakes the workers */
    offer_slot offers[SIM_POOL_OFFERS];
    int64_t nseq;           /* offers made (the caller's only) */
    atomic_int sleeping;    /* workers asleep on work */
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
    j->cone = j->whole = 0;
    if (j->rec_out) {
        /* The engine writes the record only from a whole run. */
        if (e && cutoff == INT64_MAX) return delta_run_parent(e, j->cfg, j->dec, j->rec_out, &j->m, j->tails);
        delta_rec_invalidate(j->rec_out);
        return 0;
    }
    if (!e || !j->parent || !j->rec || !j->pdec || !j->patch || !delta_rec_valid(j->rec)) return 0;
    const int ran = delta_run_child(e, j->parent, j->rec, j->pdec, j->cfg, cutoff, NULL, j->patch, &j->m, j->tails);
    j->cone = ran && delta_patch_on_cone(j->patch);
    j->whole = ran && !j->cone;
    if (j->whole && j->dec) sim_decisions_clear(j->dec);
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

/* ---- offered jobs ---- */

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The earliest offered job not yet started, claimed: its slot, or -1. */
static int claim_offer(sim_pool *pl)
{
    for (;;) {
        int best = -1;
        for (int k = 0; k < SIM_POOL_OFFERS; k++)
            if (atomic_load(&pl->offers[k].state) == OFFER_OFFERED &&
                (best < 0 || atomic_load(&pl->offers[k].seq) < atomic_load(&pl->offers[best].seq)))
                best = k;
        if (best < 0) return -1;
        int want = OFFER_OFFERED;
        if (atomic_compare_exchange_strong(&pl->offers[best].state, &want, OFFER_RUNNING)) return best;
    }
}

/* o's job withdrawn: asked to stop if running, never started if not. */
static void withdraw_slot(offer_slot *o)
{
    atomic_store(&o->stop, 1);
    int want = OFFER_OFFERED;
    atomic_compare_exchange_strong(&o->state, &want, OFFER_DONE);
}

/* Every job offered after slot k's withdrawn. */
static void stop_later(sim_pool *pl, int k)
{
    for (int i = 0; i < SIM_POOL_OFFERS; i++) {
        offer_slot *o = &pl->offers[i];
        const int st = atomic_load(&o->state);
        /* (a slot offered anew meanwhile holds a later job: withdrawn too) */
        if (st == OFFER_FREE || atomic_load(&o->seq) <= atomic_load(&pl->offers[k].seq)) continue;
        withdraw_slot(o);
    }
}

/* Slot k's job run by thread `index`; a finished job whose voids_later
 * says so withdraws the jobs after it. */
static void run_offer(sim_pool *pl, int index, int k)
{
    offer_slot *o = &pl->offers[k];
    sim_job *j = o->job;
    delta_engine *e = engine(pl, index);
    if (e) delta_engine_stop_on(e, &o->stop);
    eval(pl->sims[index], e, j, pl->lean);
    if (e) delta_engine_stop_on(e, NULL);
    if (!atomic_load(&o->stop) && j->voids_later && j->voids_later(j, j->vctx)) stop_later(pl, k);
    atomic_store(&o->state, OFFER_DONE);
}

static int any_offer(sim_pool *pl)
{
    for (int k = 0; k < SIM_POOL_OFFERS; k++)
        if (atomic_load(&pl->offers[k].state) == OFFER_OFFERED) return 1;
    return 0;
}

int sim_pool_offer(sim_pool *pl, sim_job *j)
{
    int k = 0;
    while (k < SIM_POOL_OFFERS && atomic_load(&pl->offers[k].state) != OFFER_FREE) k++;
    NOCSIM_ASSERT(k < SIM_POOL_OFFERS, "pool: at most SIM_POOL_OFFERS jobs outstanding");
    offer_slot *o = &pl->offers[k];
    o->job = j;
    atomic_store(&o->seq, pl->nseq++);
    atomic_store(&o->stop, 0);
    atomic_store(&o->state, OFFER_OFFERED);
    /* (seq_cst: a worker going to sleep either sees the offer or is seen) */
    if (atomic_load(&pl->sleeping) > 0) {
        pthread_mutex_lock(&pl->lock);
        pthread_cond_broadcast(&pl->work);
        pthread_mutex_unlock(&pl->lock);
    }
    return k;
}

int sim_pool_await(sim_pool *pl, int ticket)
{
    offer_slot *o = &pl->offers[ticket];
    for (;;) {
        int st = atomic_load(&o->state), want = OFFER_OFFERED;
        if (st == OFFER_DONE) break;
        if (st == OFFER_OFFERED && atomic_compare_exchange_strong(&o->state, &want, OFFER_RUNNING)) {
            run_offer(pl, 0, ticket);
            continue;
        }
        const int k = claim_offer(pl);
        if (k >= 0) run_offer(pl, 0, k);
        else cpu_relax();
    }
    const int held = !atomic_load(&o->stop);
    atomic_store(&o->state, OFFER_FREE);
    return held;
}

void sim_pool_withdraw(sim_pool *pl)
{
    for (int k = 0; k < SIM_POOL_OFFERS; k++) {
        offer_slot *o = &pl->offers[k];
        if (atomic_load(&o->state) != OFFER_FREE) withdraw_slot(o);
    }
    for (int k = 0; k < SIM_POOL_OFFERS; k++) {
        offer_slot *o = &pl->offers[k];
        while (atomic_load(&o->state) == OFFER_RUNNING) cpu_relax();
        atomic_store(&o->state, OFFER_FREE);
    }
}

/* A worker: offered jobs first, spinning for them a while; batches under
 * the lock; asleep when neither comes. */
static void *worker(void *arg)
{
    worker_arg *wa = arg;
    sim_pool *pl = wa->pl;
    int index = wa->index;
    free(wa);
    unsigned seen = 0;
    int64_t idle_from = now_ns();
    for (int spins = 0;; spins++) {
        const int k = claim_offer(pl);
        if (k >= 0) {
            run_offer(pl, index, k);
            idle_from = now_ns();
            continue;
        }
        if (atomic_load(&pl->batch) == seen && (spins & 1023 || now_ns() - idle_from < SPIN_NS)) {
            cpu_relax();
            continue;
        }
        pthread_mutex_lock(&pl->lock);
        atomic_fetch_add(&pl->sleeping, 1);
        while (!pl->quit && atomic_load(&pl->batch) == seen && !any_offer(pl)) pthread_cond_wait(&pl->work, &pl->lock);
        atomic_fetch_sub(&pl->sleeping, 1);
        if (pl->quit) {
            pthread_mutex_unlock(&pl->lock);
            break;
        }
        if (atomic_load(&pl->batch) != seen) {
            seen = atomic_load(&pl->batch);
            pl->busy++;
            drain(pl, index);
            pl->busy--;
            if (pl->finished == pl->count && pl->busy == 0) pthread_cond_signal(&pl->done);
        }
        pthread_mutex_unlock(&pl->lock);
        idle_from = now_ns();
    }
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
    for (int k = 0; k < SIM_POOL_OFFERS; k++)
        NOCSIM_ASSERT(atomic_load(&pl->offers[k].state) == OFFER_FREE, "pool: no batch while offered jobs are outstanding");
    pthread_mutex_lock(&pl->lock);
    pl->jobs = jobs;
    pl->count = count;
    pl->next = pl->finished = 0;
    atomic_fetch_add(&pl->batch, 1);
    pthread_cond_broadcast(&pl->work);
    pl->busy++;
    drain(pl, 0);
    pl->busy--;
    while (pl->finished < pl->count || pl->busy > 0) pthread_cond_wait(&pl->done, &pl->lock);
    pl->jobs = NULL;
    pl->count = 0;
    pthread_mutex_unlock(&pl->lock);
}
