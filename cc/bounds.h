/* Lower bounds on the number of steps of a CC (paper 002 Table 1, paper 000
 * Table 1), generalised to irregular graphs and K-port nodes.  Each bound is
 * reported separately so the user sees which one binds. */
#ifndef NOCSIM_CC_BOUNDS_H
#define NOCSIM_CC_BOUNDS_H

#include "cc/paths.h"
#include "cc/problem.h"
#include "util/fault.h"

#define CC_MAX_BOUNDS 10
/* Exhaustive cut search (every subset) up to this many nodes. */
#define CC_CUT_EXACT_MAX 20
/* The first-/last-hop bounds solve an assignment problem per node, about n^3
 * work in all; above this many nodes they are left out (they refine the
 * others, which remain). */
#define CC_HOP_BOUND_MAX_NODES 512

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

/* Every bound of pb into *out.  The paths matter: the first-/last-hop bounds
 * use the allowed routes (minimal, or longer with --nonminimal).  CC_OK, or
 * CC_ENOMEM. */
NOCSIM_MUST_USE
int cc_bounds_compute(const cc_problem *pb, const cc_paths *paths, cc_bounds *out);

#endif
