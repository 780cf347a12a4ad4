/* --perturb K: every child runs at V-K..V+K (within range) and keeps the
 * best V (paper Sect. 7.1; ga_internal.h, ga_perturb). */
#include <stdlib.h>

#include "ga/ga_internal.h"
#include "util/invariant.h"

int ga_perturb_alloc(ga *g)
{
    ga_perturb *p = &g->pt;
    if (g->gp.perturb <= 0) return 0;
    size_t PW = (size_t)g->gp.pop * (size_t)(2 * g->gp.perturb + 1);
    p->cfg = calloc(PW, sizeof *p->cfg);
    p->jobs = calloc(PW, sizeof *p->jobs);
    p->score = calloc((size_t)(2 * g->gp.perturb + 1), sizeof *p->score);
    if (!p->cfg || !p->jobs || !p->score) return -1;
    for (size_t k = 0; k < PW; k++)
        if (!(p->cfg[k] = ga_new_config(g))) return -1;
    return 0;
}

void ga_perturb_free(ga *g)
{
    ga_perturb *p = &g->pt;
    if (p->cfg)
        for (int k = 0; k < g->gp.pop * (2 * g->gp.perturb + 1); k++) sim_config_free(p->cfg[k]);
    free(p->cfg);
    free(p->jobs);
    free(p->score);
}

uint32_t ga_perturb_interval(const ga_space *s, uint32_t v, int K, int j)
{
    NOCSIM_ASSERT(K >= 0 && j >= 0 && j <= 2 * K, "perturb: the j-th of the 2K+1 intervals");
    int64_t w = (int64_t)v - K + j;
    return (uint32_t)(w < s->vmin ? s->vmin : w > s->vmax ? s->vmax : w);
}

void ga_perturb_evaluate(ga *g)
{
    ga_perturb *p = &g->pt;
    int P = g->gp.pop, K = g->gp.perturb, W = 2 * K + 1, nj = 0;
    for (int k = 0; k < P; k++)
        for (int j = 0; j < W; j++) {
            sim_config *c = p->cfg[k * W + j];
            sim_config_copy(c, g->child[k]);
            c->interval = ga_perturb_interval(&g->space, g->child[k]->interval, K, j);
            p->jobs[nj++] = (sim_job){ .cfg = c, .cutoff = ga_child_cutoff(g, k) };
        }
    sim_pool_run(g->pool, p->jobs, nj);
    g->evals += nj;
    for (int k = 0; k < P; k++) {
        for (int j = 0; j < W; j++) p->score[j] = ga_score(&g->gp, &p->jobs[k * W + j].m);
        int best = ga_first_best(p->score, W);
        g->child[k]->interval = p->cfg[k * W + best]->interval;
        g->jobs[k] = p->jobs[k * W + best];
        g->jobs[k].cfg = g->child[k];
    }
}
