/* Evaluation thread pool (see pool.h).  The calling thread works too, so a
 * pool of one thread starts no thread at all.
 *
 * Waiting: a thread that waits for the next batch (a worker) or for the
 * batch's last job (the caller) first polls for up to spin_ns, then sleeps on
 * a condition variable.  A sleeping thread on this kind of machine (a
 * virtual CPU that halts) takes 40-120 us to wake, against jobs of
 * 0.5-1 ms in the GA's speculation, which waits twice a batch; polling
 * avoids both wake-ups when the other thread comes back soon.  The counters
 * the polls read are atomics; every change that ends a wait is still made
 * under the lock and signalled, so a sleeper never misses it.
 *
 * A batch with at most one job to run is run by the caller alone: waking a
 * worker for it would cost a wake-up and gain nothing. */
#include "sim/pool.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/invariant.h"

struct sim_pool {
    int threads;            /* including the caller */
    sim **sims;             /* one per thread; sims[0] is the caller's */
    pthread_t *tid;
    int started;
    int synced;             /* lock, work and done initialised */
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    sim_job *jobs;
    int count, next;        /* the batch's jobs and the next to take (under the lock) */
    atomic_int finished;    /* jobs of the batch done */
    atomic_int busy;        /* threads inside the batch */
    atomic_uint batch;      /* increments per batch and at quit: wakes the workers */
    atomic_llong spin_ns;   /* how long a waiting thread polls before it sleeps */
    /* Submitted jobs (sim_pool_submit): a ring of SIM_POOL_ASYNC_MAX, the
     * outstanding ones from a_first to a_end (counters; slot = counter %
     * SIM_POOL_ASYNC_MAX), each queued, running (on thread a_who) or done. */
    sim_job *aj[SIM_POOL_ASYNC_MAX];
    atomic_int ast[SIM_POOL_ASYNC_MAX];
    int a_who[SIM_POOL_ASYNC_MAX];
    int a_first, a_end;
    atomic_int *stop;       /* per thread: stop its job now (sim_set_stop) */
    int lean;               /* sim_pool_set_lean */
    int quit;
};

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

enum { AJ_QUEUED, AJ_RUNNING, AJ_DONE };

static int batch_done(sim_pool *pl)
{
    return atomic_load(&pl->finished) >= pl->count && atomic_load(&pl->busy) == 0;
}

/* What a waiting thread waits for. */
typedef enum { UNTIL_BATCH_MOVES, UNTIL_BATCH_DONE, UNTIL_JOB_DONE } wait_kind;

static int wait_over(sim_pool *pl, wait_kind w, unsigned arg)
{
    switch (w) {
    case UNTIL_BATCH_MOVES: return atomic_load(&pl->batch) != arg;
    case UNTIL_BATCH_DONE: return batch_done(pl);
    default: return atomic_load(&pl->ast[arg]) == AJ_DONE;
    }
}

/* Poll, without the lock, for up to spin_ns until the wait is over: the
 * batch counter moves off arg, the batch is done, or slot arg's job is. */
static void poll_for(sim_pool *pl, wait_kind w, unsigned arg)
{
    const int64_t spin = (int64_t)atomic_load_explicit(&pl->spin_ns, memory_order_relaxed);
    if (spin <= 0) return;
    const int64_t end = now_ns() + spin;
    for (unsigned i = 1;; i++) {
        if (wait_over(pl, w, arg)) return;
        cpu_relax();
        if ((i & 127) == 0 && now_ns() >= end) return;
    }
}

/* Wait, the lock held on entry and exit: poll without it, then sleep on
 * cond (every change that ends a wait is signalled under the lock). */
static void wait_for(sim_pool *pl, pthread_cond_t *cond, wait_kind w, unsigned arg)
{
    if (pl->quit || wait_over(pl, w, arg)) return;
    pthread_mutex_unlock(&pl->lock);
    poll_for(pl, w, arg);
    pthread_mutex_lock(&pl->lock);
    while (!pl->quit && !wait_over(pl, w, arg)) pthread_cond_wait(cond, &pl->lock);
}

typedef struct { sim_pool *pl; int index; } worker_arg;

static void eval(sim *s, sim_job *j, int lean)
{
    if (!j->cfg) return;
    const int64_t cutoff = j->cutoff > 0 ? j->cutoff : INT64_MAX;
    if (lean) sim_run_lean(s, j->cfg, cutoff, j->dec, &j->m);
    else sim_run_recording(s, j->cfg, cutoff, j->dec, &j->m);
    if (j->tails && j->m.status == SIM_OK) sim_tail_cycles(s, j->tails);
}

/* Take jobs until none are left; the lock is held on entry and exit. */
static void drain(sim_pool *pl, sim *s)
{
    while (pl->next < pl->count) {
        sim_job *j = &pl->jobs[pl->next++];
        pthread_mutex_unlock(&pl->lock);
        eval(s, j, pl->lean);
        pthread_mutex_lock(&pl->lock);
        pl->finished++;
    }
}

/* The oldest queued submitted job's counter, claimed for thread `who`
 * (its stop flag cleared), or -1; the lock held. */
static int claim_queued(sim_pool *pl, int who)
{
    for (int k = pl->a_first; k < pl->a_end; k++) {
        const int slot = k % SIM_POOL_ASYNC_MAX;
        if (atomic_load(&pl->ast[slot]) != AJ_QUEUED) continue;
        atomic_store(&pl->ast[slot], AJ_RUNNING);
        pl->a_who[slot] = who;
        atomic_store(&pl->stop[who], 0);
        return k;
    }
    return -1;
}

/* Run the claimed job k on thread who's simulator; the lock held on entry
 * and exit. */
static void run_claimed(sim_pool *pl, int k, int who)
{
    const int slot = k % SIM_POOL_ASYNC_MAX;
    sim_job *j = pl->aj[slot];
    pthread_mutex_unlock(&pl->lock);
    eval(pl->sims[who], j, pl->lean);
    pthread_mutex_lock(&pl->lock);
    atomic_store(&pl->ast[slot], AJ_DONE);
    pthread_cond_broadcast(&pl->done);
}

static void *worker(void *arg)
{
    worker_arg *wa = arg;
    sim_pool *pl = wa->pl;
    const int who = wa->index;
    free(wa);
    unsigned seen = 0;
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        wait_for(pl, &pl->work, UNTIL_BATCH_MOVES, seen);
        if (pl->quit) break;
        seen = atomic_load(&pl->batch);
        pl->busy++;
        drain(pl, pl->sims[who]);
        pl->busy--;
        if (batch_done(pl)) pthread_cond_signal(&pl->done);
        for (int k; (k = claim_queued(pl, who)) >= 0;) run_claimed(pl, k, who);
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
    atomic_init(&pl->spin_ns, SIM_POOL_SPIN_NS);
    atomic_init(&pl->finished, 0);
    atomic_init(&pl->busy, 0);
    atomic_init(&pl->batch, 0);
    pl->sims = calloc((size_t)threads, sizeof *pl->sims);
    pl->tid = calloc((size_t)threads, sizeof *pl->tid);
    if (!pl->sims || !pl->tid) {
        free(pl->sims); free(pl->tid); free(pl);
        return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    }
    pl->stop = calloc((size_t)threads, sizeof *pl->stop);
    if (!pl->stop) {
        free(pl->sims); free(pl->tid); free(pl);
        return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    }
    for (int k = 0; k < threads; k++) {
        atomic_init(&pl->stop[k], 0);
        if (!(pl->sims[k] = sim_new(p, dest, kind, err, errlen))) { sim_pool_free(pl); return NULL; }
        sim_set_stop(pl->sims[k], &pl->stop[k]);
    }
    if (pthread_mutex_init(&pl->lock, NULL) || pthread_cond_init(&pl->work, NULL) || pthread_cond_init(&pl->done, NULL)) {
        fault_set(kind, FAULT_RESOURCE);
        snprintf(err, errlen, "cannot create thread synchronisation");
        for (int k = 0; k < threads; k++) sim_free(pl->sims[k]);
        free(pl->sims); free(pl->tid); free(pl);
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

void sim_pool_free(sim_pool *pl)
{
    if (!pl) return;
    if (pl->synced) sim_pool_cancel(pl);
    if (pl->sims && pl->tid && pl->started > 0) {
        pthread_mutex_lock(&pl->lock);
        pl->quit = 1;
        pl->batch++; /* ends the workers' polls */
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
    free(pl->sims);
    free(pl->tid);
    free(pl->stop);
    free(pl);
}

void sim_pool_set_lean(sim_pool *pl, int lean) { pl->lean = lean != 0; }

void sim_pool_set_spin(sim_pool *pl, int64_t ns) { atomic_store(&pl->spin_ns, ns > 0 ? ns : 0); }

void sim_pool_run(sim_pool *pl, sim_job *jobs, int count)
{
    int runs = 0;
    for (int k = 0; k < count && runs < 2; k++) runs += jobs[k].cfg != NULL;
    NOCSIM_ASSERT(pl->a_first == pl->a_end, "sim_pool_run: no submitted job outstanding");
    if (pl->started == 0 || runs < 2) {
        for (int k = 0; k < count; k++) eval(pl->sims[0], &jobs[k], pl->lean);
        return;
    }
    pthread_mutex_lock(&pl->lock);
    pl->jobs = jobs;
    pl->count = count;
    pl->next = 0;
    atomic_store(&pl->finished, 0);
    pl->batch++;
    pthread_cond_broadcast(&pl->work);
    pl->busy++;
    drain(pl, pl->sims[0]);
    pl->busy--;
    wait_for(pl, &pl->done, UNTIL_BATCH_DONE, 0);
    pl->jobs = NULL;
    pl->count = 0;
    pthread_mutex_unlock(&pl->lock);
}

/* ---- submitted jobs ------------------------------------------------------ */

int sim_pool_submit(sim_pool *pl, sim_job *job)
{
    if (pl->a_end - pl->a_first >= SIM_POOL_ASYNC_MAX) return -1;
    pthread_mutex_lock(&pl->lock);
    const int slot = pl->a_end % SIM_POOL_ASYNC_MAX;
    pl->aj[slot] = job;
    atomic_store(&pl->ast[slot], job->cfg ? AJ_QUEUED : AJ_DONE);
    pl->a_end++;
    if (job->cfg && pl->started) {
        pl->batch++;
        pthread_cond_broadcast(&pl->work);
    }
    pthread_mutex_unlock(&pl->lock);
    return 0;
}

/* The counter of a submitted job still outstanding; the lock held. */
static int find_submitted(const sim_pool *pl, const sim_job *job)
{
    for (int k = pl->a_first; k < pl->a_end; k++)
        if (pl->aj[k % SIM_POOL_ASYNC_MAX] == job) return k;
    return -1;
}

void sim_pool_wait(sim_pool *pl, sim_job *job)
{
    pthread_mutex_lock(&pl->lock);
    const int k = find_submitted(pl, job);
    NOCSIM_ASSERT(k == pl->a_first, "sim_pool_wait: jobs are waited for in the order submitted");
    if (k < 0) {
        pthread_mutex_unlock(&pl->lock);
        return;
    }
    const int slot = k % SIM_POOL_ASYNC_MAX;
    while (atomic_load(&pl->ast[slot]) != AJ_DONE) {
        /* The job itself if no worker has it, else the next queued one,
         * else wait: the caller never idles while work is queued. */
        int mine = atomic_load(&pl->ast[slot]) == AJ_QUEUED ? k : -1;
        if (mine >= 0) {
            atomic_store(&pl->ast[slot], AJ_RUNNING);
            pl->a_who[slot] = 0;
        } else {
            mine = claim_queued(pl, 0);
        }
        if (mine >= 0) run_claimed(pl, mine, 0);
        else wait_for(pl, &pl->done, UNTIL_JOB_DONE, (unsigned)slot);
    }
    pl->a_first = k + 1;
    pthread_mutex_unlock(&pl->lock);
}

static int any_running(const sim_pool *pl)
{
    for (int k = pl->a_first; k < pl->a_end; k++)
        if (atomic_load(&pl->ast[k % SIM_POOL_ASYNC_MAX]) == AJ_RUNNING) return 1;
    return 0;
}

void sim_pool_cancel(sim_pool *pl)
{
    pthread_mutex_lock(&pl->lock);
    for (int k = pl->a_first; k < pl->a_end; k++) {
        const int slot = k % SIM_POOL_ASYNC_MAX;
        if (atomic_load(&pl->ast[slot]) == AJ_QUEUED) atomic_store(&pl->ast[slot], AJ_DONE);
        else if (atomic_load(&pl->ast[slot]) == AJ_RUNNING) atomic_store(&pl->stop[pl->a_who[slot]], 1);
    }
    while (any_running(pl)) pthread_cond_wait(&pl->done, &pl->lock);
    for (int k = 0; k < pl->threads; k++) atomic_store(&pl->stop[k], 0); /* a batch's runs are not stopped */
    pl->a_first = pl->a_end;
    pthread_mutex_unlock(&pl->lock);
}
