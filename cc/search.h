/* One scheduling run: pick the target step count (given, or from the lower
 * bound upwards), run the chosen algorithm, and pass the result through the
 * independent verifier before anyone sees it. */
#ifndef NOCSIM_CC_SEARCH_H
#define NOCSIM_CC_SEARCH_H

#include <stdint.h>

#include "cc/algo.h"
#include "cc/verify.h"

typedef struct {
    const cc_algo *algo;
    long budget;      /* evaluations per target step count */
    int pop;
    double pmut;
    int steps;        /* fixed target, or 0: start at start_steps and raise by one */
    int start_steps;  /* usually the best lower bound */
    int max_steps;    /* give up above this (auto mode) */
    uint64_t seed;
    /* WH broadcasts: at each target S that one-hop transfers can reach (S at
     * least the largest sender-receiver distance), first search with
     * neighbour-only deliveries (cc_enc_new), then, if that fails, with all
     * routes; each phase gets the full budget. */
    bool neighbour_first;
} cc_search_params;

typedef struct {
    bool found;            /* a conflict-free, verified schedule */
    int steps;             /* its step count (or the last target tried) */
    long evals;            /* all evaluations, all targets */
    long evals_to_best;    /* evaluations until the final schedule was first reached */
    double seconds;
    bool neighbour_only;   /* the schedule came from the neighbour-only phase */
    cc_schedule *sched;    /* owned; NULL if not found */
    cc_verify_result vr;
} cc_search_result;

/* Returns false with err set on out-of-memory, or if the verifier rejects a
 * schedule the search believed valid (an internal error). */
bool cc_search(const cc_problem *pb, const cc_paths *paths, const cc_search_params *sp,
               cc_search_result *res, char err[CC_ERRLEN]);
void cc_search_result_clear(cc_search_result *res);

#endif
