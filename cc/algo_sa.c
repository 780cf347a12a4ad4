/* Simulated annealing over one chromosome (the SA half of paper 000's HGSA):
 * a move is one tested mutation of the encoding (re-place one communication,
 * preferably one in conflict, at its least conflicting alternative), accepted
 * by the Metropolis criterion on the conflict count.  The temperature cools
 * geometrically and is reset when it reaches the floor, so a run is a series
 * of annealing cycles from the current state, not restarts from scratch. */
#include "cc/algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One cooling cycle from t0 to tmin takes this share of the budget (so a
 * run anneals fully at least once, then reheats), within these lengths. */
#ifndef SA_CYCLE_SHARE
#define SA_CYCLE_SHARE 0.25
#endif
#define SA_CYCLE_MIN 2000.0
/* ... but at least this many moves per variable: a large problem needs a
 * long cycle to settle (hypercube 64 AAS, 8064 variables). */
#ifndef SA_CYCLE_PER_VAR
#define SA_CYCLE_PER_VAR 15.0
#endif
#define SA_CYCLE_MAX 123000.0

static int sa_run(cc_enc *e, const cc_algo_params *p, rng *r, cc_algo_out *out)
{
    int nv = cc_enc_nvar(e);
    int *x = malloc((size_t)nv * sizeof *x), *y = malloc((size_t)nv * sizeof *y);
    if (!x || !y) { free(x); free(y); return CC_ENOMEM; }
    cc_enc_random(e, x, r);
    long fx = cc_enc_eval(e, x, r);
    out->evals = 1;
    out->best = fx;
    out->evals_to_best = 1;
    memcpy(out->x, x, (size_t)nv * sizeof *x);
    /* From 2 (a move adding two conflicts is taken one time in e) down to
     * 0.05 over ~120k moves, then reheated.  Slower cooling helped the
     * tightest case, hypercube:4 AAS at 8 (a perfect packing): 2/10 runs of
     * 100k evaluations with alpha 0.9995, 5/10 with 0.9999, 7/10 with this. */
    const double t0 = 2.0, tmin = 0.05;
    double cycle = (double)p->budget * SA_CYCLE_SHARE;
    if (cycle < SA_CYCLE_PER_VAR * nv) cycle = SA_CYCLE_PER_VAR * nv;
    if (cycle > SA_CYCLE_MAX) cycle = SA_CYCLE_MAX;
    if (cycle < SA_CYCLE_MIN) cycle = SA_CYCLE_MIN;
    const double alpha = pow(tmin / t0, 1.0 / cycle);
    double T = t0;
    while (out->best > 0 && !cc_algo_done(p, out->evals)) {
        memcpy(y, x, (size_t)nv * sizeof *y);
        cc_enc_mutate_n(e, y, r, 1);
        long fy = cc_enc_eval(e, y, r);
        out->evals++;
        if (fy <= fx || rng_unit(r) < exp(-(double)(fy - fx) / T)) {
            int *t = x; x = y; y = t;
            fx = fy;
            if (fx < out->best) {
                out->best = fx;
                out->evals_to_best = out->evals;
                memcpy(out->x, x, (size_t)nv * sizeof *x);
            }
        }
        T *= alpha;
        if (T < tmin) T = t0;
    }
    free(x); free(y);
    return CC_OK;
}

const cc_algo cc_algo_sa = { "sa", "simulated annealing with reheating (the SA of paper 000's HGSA; default)", sa_run };
