/* Exact decision with a SAT solver (CaDiCaL, through its C API): is there a
 * schedule of the problem in S steps over the given routes?  Used after a
 * search to prove its schedule optimal (no schedule in one step fewer) or to
 * find a shorter one.  The routes are the paths table's (shortest paths, or
 * up to K hops longer), so "optimal" means optimal for that routing model.
 *
 * The formula: one variable per (message or delivery, route, step) it may
 * take (broadcasts: also the informed source), exactly one chosen per
 * message, at most one transfer per channel and step, at most K sends and
 * receives per node and step (sequential-counter encodings), and for
 * broadcasts "informed" variables that chain a source's knowledge back to
 * the origin. */
#ifndef NOCSIM_CC_EXACT_H
#define NOCSIM_CC_EXACT_H

#include "cc/search.h"
#include "util/fault.h"

typedef enum {
    CC_EXACT_OPTIMAL,      /* a schedule of S steps, and the solver proved S-1 impossible (or S is the lower bound) */
    CC_EXACT_UNKNOWN,      /* the time ran out before a proof */
    CC_EXACT_INFEASIBLE,   /* no schedule at all within the largest S tried */
    CC_EXACT_STATUSES
} cc_exact_status;

extern const char *const cc_exact_status_names[CC_EXACT_STATUSES];   /* "optimal", "unknown", "infeasible" */

/* Time for the whole improvement unless the user says otherwise. */
#define CC_EXACT_DEFAULT_SECONDS 60.0
/* The range of that time the front end takes. */
#define CC_EXACT_SECONDS_MIN 0.1
#define CC_EXACT_SECONDS_MAX 1e6

typedef struct {
    double seconds;   /* time limit of cc_exact_improve as a whole: every solver call gets what is left (a
                         check below the lower bound at most 5 s of it); building a formula is not bounded */
    int bound;        /* the lower bound: a schedule this long needs no proof, and no S below it is tried */
    int max_steps;    /* without a schedule to start from, try S = bound .. max_steps (0: 4 x bound + 8) */
} cc_exact_params;

typedef struct {
    cc_exact_status status;
    int steps;          /* the best schedule's steps after the solver (0 if none) */
    int proved_below;   /* no schedule of fewer steps than this exists (from the bound or the solver) */
    double seconds;
    bool sat_proof;     /* the solver itself proved steps - 1 impossible */
    long vars, clauses; /* of the last formula */
    char why[256];      /* one line: what was decided and how */
} cc_exact_result;

/* Decide whether S steps are possible (hop1: broadcast deliveries over one
 * channel only, a subspace: 0 then proves nothing about the full problem).
 * *sat is 1 (then *out is a verified schedule the caller frees), 0
 * (impossible) or -1 (time ran out).  CC_OK, CC_ENOMEM, or CC_EINTERNAL if a
 * solver model fails verification. */
NOCSIM_MUST_USE
int cc_exact_solve(const cc_problem *pb, const cc_paths *paths, int S, bool hop1, double seconds, int *sat, cc_schedule **out,
                   long *vars, long *clauses, char *err, size_t errlen);

/* Improve or prove best (a search result, found or not; replaced by a shorter
 * schedule when the solver finds one) into *res.  Codes as cc_exact_solve. */
NOCSIM_MUST_USE
int cc_exact_improve(const cc_problem *pb, const cc_paths *paths, const cc_exact_params *ep, cc_search_result *best,
                     cc_exact_result *res, char *err, size_t errlen);

#endif
