/* One scheduling run: pick the target step count (given, or from the lower
 * bound upwards), run the chosen algorithm, and pass the result through the
 * independent verifier before anyone sees it.  Also the search's defaults
 * and ranges, and a series of runs over consecutive seeds with statistics. */
#ifndef NOCSIM_CC_SEARCH_H
#define NOCSIM_CC_SEARCH_H

#include <stdint.h>

#include "cc/algo.h"
#include "cc/verify.h"
#include "util/fault.h"

/* Ranges the front end enforces (and the defaults below fall in). */
#define CC_BUDGET_MAX 2000000000L
#define CC_POP_MIN 4
#define CC_POP_MAX 100000
#define CC_STEPS_MAX 100000
#define CC_RUNS_MAX 100000
#define CC_THREADS_MAX 256
/* cc_search_defaults' budget, population and seed. */
#define CC_DEFAULT_BUDGET 100000
#define CC_DEFAULT_POP 60
#define CC_DEFAULT_SEED 1
#define CC_SEED_MAX 2000000000L
/* The search's wall-clock limit, seconds (the deadline below). */
#define CC_SECONDS_MIN 0.1
#define CC_SECONDS_MAX 1e6

typedef struct {
    const cc_algo *algo;
    long budget;      /* evaluations per target step count */
    int pop;
    double pmut;
    int threads;      /* parallel chains of population methods that use them (hgsa) */
    int steps;        /* fixed target, or 0: start at start_steps and raise by one */
    int start_steps;  /* usually the best lower bound */
    int max_steps;    /* give up above this (auto mode); 0: 4 x start_steps + 8 */
    uint64_t seed;
    /* WH broadcasts: at each target S that one-hop transfers can reach (S at
     * least the largest sender-receiver distance), first search with
     * neighbour-only deliveries (cc_enc_new), then, if that fails, with all
     * routes; each phase gets the full budget. */
    bool neighbour_first;
    /* AAB, or MNB with senders = receivers (k nodes): at a target S >= k - 1,
     * take the pipelined ring (cc/ring.h) instead of searching, if a cycle
     * is found. */
    bool ring;
    /* Called now and then during the search (every CC_ENC_PROGRESS_EVERY
     * evaluations of the main encoding) with the seed, the target, the
     * evaluations at this target (and phase, against budget) and in this
     * search so far; NULL: none. */
    void (*progress)(void *ctx, uint64_t seed, int S, long at_target, long evals);
    void *progress_ctx;
    /* A wall-clock limit for the whole search (cc_search_series: all runs,
     * targets and phases): cc_search_now() + seconds, or 0 for none.  Past
     * it the search ends within CC_ENC_PROGRESS_EVERY evaluations, keeping
     * what it found (timed_out set). */
    double deadline;
} cc_search_params;

/* Seconds on the monotonic clock the deadline is in. */
double cc_search_now(void);

/* The defaults: simulated annealing, 100,000 evaluations per target,
 * population 60 (paper 002's UMDA), mutation probability 0.9 (paper 002),
 * neighbour-only phase on, the ring on, seed 1, no fixed target. */
cc_search_params cc_search_defaults(void);

typedef struct {
    bool found;            /* a conflict-free, verified schedule */
    int steps;             /* its step count (or the last target tried) */
    long evals;            /* all evaluations, all targets */
    long evals_to_best;    /* evaluations until the final schedule was first reached */
    double seconds;
    bool neighbour_only;   /* the schedule came from the neighbour-only phase */
    bool ring;             /* the schedule is the constructed ring (cc/ring.h), not searched */
    bool timed_out;        /* the deadline ended the search (found: what it had by then) */
    cc_schedule *sched;    /* owned; NULL if not found */
    cc_verify_result vr;
} cc_search_result;

/* Run the search into *res (cleared first; release with
 * cc_search_result_clear).  CC_OK whether or not a schedule was found;
 * CC_EINPUT when the encoding would exceed CC_MAX_BYTES or a message has no
 * route; CC_ENOMEM; -3 (CC_EINTERNAL) if the verifier rejects a schedule the
 * search believed valid. */
#define CC_EINTERNAL (-3)
NOCSIM_MUST_USE
int cc_search(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp,
              cc_search_result *res, char *err, size_t errlen);
void cc_search_result_clear(cc_search_result *res);

/* Runs of seeds seed, seed+1, ..: the best schedule and the statistics. */
typedef struct {
    int runs, found, reached;       /* runs; found a schedule; reached the bound */
    double sum_steps, sum_seconds, sum_evals_to_best;
    int best_run;                   /* index of the best run, -1 if none found */
    bool timed_out;                 /* the deadline ended the series (runs: those started) */
    cc_search_result best;          /* owned: release with cc_search_result_clear */
} cc_series;

/* Called after each run with its index and result (owned by the series). */
typedef void (*cc_run_cb)(void *ctx, int run, uint64_t seed, const cc_search_result *res);

/* runs runs of sp (seed sp->seed + i) into *out; bound is what "reached"
 * compares with.  cb may be NULL.  Codes as cc_search (out->best is then
 * cleared). */
NOCSIM_MUST_USE
int cc_search_series(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp, int runs, int bound,
                     cc_run_cb cb, void *ctx, cc_series *out, char *err, size_t errlen);

#endif
