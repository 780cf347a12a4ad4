/* Lower bounds on the number of steps of a CC (paper 002 Table 1, paper 000
 * Table 1), generalised to irregular graphs and K-port nodes.  Each bound is
 * reported separately so the user sees which one binds. */
#ifndef NOCSIM_CC_BOUNDS_H
#define NOCSIM_CC_BOUNDS_H

#include "cc/paths.h"
#include "cc/problem.h"

#define CC_MAX_BOUNDS 10
/* Exhaustive cut search (every subset) up to this many nodes. */
#define CC_CUT_EXACT_MAX 20

typedef struct {
    const char *name;   /* "inform", "inject", "receive", "first-hop", "last-hop", "distance", "cut", "eccentricity" */
    int value;
    char why[200];      /* how it was obtained, with the numbers */
} cc_bound;

typedef struct {
    int n;
    cc_bound b[CC_MAX_BOUNDS];
    int best;       /* the largest value */
    int binding;    /* index of the first bound reaching it */
} cc_bounds;

/* The paths matter: the first-/last-hop bounds use the allowed routes
 * (minimal, or one hop longer with --nonminimal). Returns false on OOM. */
bool cc_bounds_compute(const cc_problem *pb, const cc_paths *paths, cc_bounds *out);

#endif
