/* UMDA as paper 002 runs it: a population (60), binary tournament choosing
 * the parent half, a univariate marginal model of the parents, sampling of
 * half a population of offspring, mutation of each offspring with
 * probability 0.9, and replacement of the worse half.
 *
 * Sampling a variable from the parents' empirical marginal distribution is
 * the same as copying that variable from a uniformly chosen parent, which is
 * how it is done here: no frequency tables, O(variables) per offspring. */
#include "cc/algo.h"

#include <stdlib.h>
#include <string.h>

static void sort_by_fit(int *idx, const long *fit, int n)
{
    for (int i = 1; i < n; i++) {
        int k = idx[i], j = i - 1;
        while (j >= 0 && fit[idx[j]] > fit[k]) { idx[j + 1] = idx[j]; j--; }
        idx[j + 1] = k;
    }
}

static int umda_run(cc_enc *e, const cc_algo_params *p, rng *r, cc_algo_out *out)
{
    int N = p->pop < 4 ? 4 : p->pop, half = N / 2, nv = cc_enc_nvar(e);
    int *pop = malloc((size_t)N * nv * sizeof *pop);
    long *fit = malloc((size_t)N * sizeof *fit);
    int *idx = malloc((size_t)N * sizeof *idx), *par = malloc((size_t)half * nv * sizeof *par);
    if (!pop || !fit || !idx || !par) { free(pop); free(fit); free(idx); free(par); return CC_ENOMEM; }
    out->evals = 0;
    out->best = -1;
    for (int i = 0; i < N; i++) {
        int *x = pop + (size_t)i * nv;
        cc_enc_random(e, x, r);
        fit[i] = cc_enc_eval(e, x, r);
        out->evals++;
        idx[i] = i;
        if (out->best < 0 || fit[i] < out->best) { out->best = fit[i]; out->evals_to_best = out->evals; memcpy(out->x, x, (size_t)nv * sizeof *x); }
    }
    while (out->best > 0 && !cc_algo_done(p, out->evals)) {
        sort_by_fit(idx, fit, N);
        for (int k = 0; k < half; k++) {
            int a = (int)rng_below(r, (uint32_t)(N)), b = (int)rng_below(r, (uint32_t)(N));
            /* copied out: a parent may sit in the worse half that is replaced */
            memcpy(par + (size_t)k * nv, pop + (size_t)(fit[a] <= fit[b] ? a : b) * nv, (size_t)nv * sizeof *par);
        }
        for (int k = half; k < N && out->best > 0; k++) {
            int *child = pop + (size_t)idx[k] * nv;
            for (int v = 0; v < nv; v++) {
                child[v] = par[(size_t)(int)rng_below(r, (uint32_t)(half)) * nv + v];
            }
            if (rng_unit(r) < p->pmut) cc_enc_mutate(e, child, r);
            fit[idx[k]] = cc_enc_eval(e, child, r);
            out->evals++;
            if (fit[idx[k]] < out->best) {
                out->best = fit[idx[k]];
                out->evals_to_best = out->evals;
                memcpy(out->x, child, (size_t)nv * sizeof *child);
            }
        }
    }
    free(pop); free(fit); free(idx); free(par);
    return CC_OK;
}

const cc_algo cc_algo_umda = { "umda", "univariate marginal distribution algorithm (paper 002)", umda_run };
