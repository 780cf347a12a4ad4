/* A plain generational GA, the baseline against UMDA: binary tournament,
 * uniform crossover of whole genes (a gene's path index only means something
 * together with its source and step), the same mutation, one elite. */
#include "cc/algo.h"

#include <stdlib.h>
#include <string.h>

static int ga_run(cc_enc *e, const cc_algo_params *p, rng *r, cc_algo_out *out)
{
    int N = p->pop < 4 ? 4 : p->pop, nv = cc_enc_nvar(e), gw = cc_enc_gene_width(e);
    int *pop = malloc((size_t)N * nv * sizeof *pop), *next = malloc((size_t)N * nv * sizeof *next);
    long *fit = malloc((size_t)N * sizeof *fit), *nfit = malloc((size_t)N * sizeof *nfit);
    if (!pop || !next || !fit || !nfit) { free(pop); free(next); free(fit); free(nfit); return CC_ENOMEM; }
    out->evals = 0;
    out->best = -1;
    int besti = 0;
    for (int i = 0; i < N; i++) {
        int *x = pop + (size_t)i * nv;
        cc_enc_random(e, x, r);
        fit[i] = cc_enc_eval(e, x, r);
        out->evals++;
        if (out->best < 0 || fit[i] < out->best) { out->best = fit[i]; out->evals_to_best = out->evals; besti = i; memcpy(out->x, x, (size_t)nv * sizeof *x); }
    }
    while (out->best > 0 && !cc_algo_done(p, out->evals)) {
        memcpy(next, pop + (size_t)besti * nv, (size_t)nv * sizeof *next);
        nfit[0] = fit[besti];
        for (int k = 1; k < N && out->best > 0; k++) {
            int pa[2];
            for (int j = 0; j < 2; j++) {
                int a = (int)rng_below(r, (uint32_t)(N)), b = (int)rng_below(r, (uint32_t)(N));
                pa[j] = fit[a] <= fit[b] ? a : b;
            }
            int *child = next + (size_t)k * nv;
            for (int g = 0; g < nv; g += gw) {
                const int *src = pop + (size_t)pa[(int)rng_below(r, (uint32_t)(2))] * nv;
                memcpy(child + g, src + g, (size_t)gw * sizeof *child);
            }
            if (rng_unit(r) < p->pmut) cc_enc_mutate(e, child, r);
            nfit[k] = cc_enc_eval(e, child, r);
            out->evals++;
            if (nfit[k] < out->best) { out->best = nfit[k]; out->evals_to_best = out->evals; memcpy(out->x, child, (size_t)nv * sizeof *child); }
        }
        if (out->best == 0) break;
        int *tp = pop; pop = next; next = tp;
        long *tf = fit; fit = nfit; nfit = tf;
        besti = 0;
        for (int i = 1; i < N; i++) if (fit[i] < fit[besti]) besti = i;
    }
    free(pop); free(next); free(fit); free(nfit);
    return CC_OK;
}

const cc_algo cc_algo_ga = { "ga", "plain generational genetic algorithm (baseline)", ga_run };
