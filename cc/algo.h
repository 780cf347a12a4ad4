/* The table of search algorithms.  Each works on an encoding (cc_enc) only
 * through random/eval/mutate and the variables' cardinalities, so adding one
 * (HGSA, MBOA) is one file defining a cc_algo plus one line in algo.c. */
#ifndef NOCSIM_CC_ALGO_H
#define NOCSIM_CC_ALGO_H

#include "cc/encoding.h"

typedef struct {
    long budget;     /* evaluations allowed */
    int pop;         /* population size */
    double pmut;     /* probability an offspring is mutated */
    int threads;     /* threads a parallel algorithm may use (1: none) */
    const volatile int *stop; /* NULL, or set (by a progress hook) to end the search now, as if
                                 the budget were spent */
} cc_algo_params;

/* The budget is spent, or the search was told to stop. */
static inline int cc_algo_done(const cc_algo_params *p, long evals)
{
    return evals >= p->budget || (p->stop && *p->stop);
}

typedef struct {
    long best;           /* conflicts of the best individual (0 = solved) */
    long evals;          /* evaluations used */
    long evals_to_best;  /* evaluations when the best was first seen */
    int *x;              /* caller-allocated [nvar]: the best individual */
} cc_algo_out;

typedef struct {
    const char *name;
    const char *summary;
    /* Search until a conflict-free x or the budget is spent.  CC_OK, or
     * CC_ENOMEM (out is then undefined). */
    int (*run)(cc_enc *e, const cc_algo_params *p, rng *r, cc_algo_out *out);
} cc_algo;

extern const cc_algo cc_algo_umda, cc_algo_ga, cc_algo_sa, cc_algo_hgsa;

/* NULL-terminated list of all algorithms. */
extern const cc_algo *const cc_algos[];
const cc_algo *cc_algo_find(const char *name);

#endif
