/* --children C > 1: each mutating slot makes C children a generation and
 * keeps the best of them (ga_internal.h, ga_extra). */
#include <stdlib.h>

#include "ga/ga_internal.h"
#include "util/invariant.h"

int ga_extra_alloc(ga *g)
{
    ga_extra *x = &g->ex;
    if (g->gp.children <= 1) return 0;
    size_t E = (size_t)g->gp.pop * (size_t)(g->gp.children - 1);
    x->child = calloc(E, sizeof *x->child);
    x->tails = calloc(E, sizeof *x->tails);
    x->clone = calloc((size_t)g->gp.pop, sizeof *x->clone);
    if (!x->child || !x->tails || !x->clone) return -1;
    for (size_t k = 0; k < E; k++)
        if (!(x->child[k] = ga_new_config(g)) ||
            (g->tl.npk && !(x->tails[k] = malloc(sizeof **x->tails * (size_t)g->tl.npk))))
            return -1;
    return 0;
}

void ga_extra_free(ga *g)
{
    ga_extra *x = &g->ex;
    for (int k = 0; x->child && k < g->gp.pop * (g->gp.children - 1); k++) {
        sim_config_free(x->child[k]);
        free(x->tails[k]);
    }
    free(x->child); free(x->tails); free(x->clone);
}

int ga_extra_jobs(ga *g, int nj)
{
    for (int k = 0; k < g->gp.pop; k++)
        for (int j = 1; j < g->gp.children && g->kind[k] == KIND_MUTATE; j++) {
            int e = ga_extra_at(g, k, j);
            g->jobs[nj++] = (sim_job){ .cfg = g->ex.child[e], .cutoff = ga_child_cutoff(g, k), .tails = g->ex.tails[e] };
        }
    return nj;
}

int ga_first_best(const int64_t *score, int n)
{
    NOCSIM_ASSERT(n >= 1, "first_best: at least one score to choose from");
    int best = 0;
    for (int j = 1; j < n; j++)
        if (score[j] < score[best]) best = j;
    return best;
}

/* A mutating slot's candidate is the best of its C children, the first of
 * equal scores [R-GA-TIE-1].  Each of them is offered to the records in the
 * order made, as C generations of one child would offer them; the verdict on
 * the one kept is in clone[k]. */
void ga_extra_keep_best(ga *g)
{
    ga_extra *x = &g->ex;
    int P = g->gp.pop, C = g->gp.children, nj = P;
    int64_t sc[GA_CHILDREN_MAX];
    int clone[GA_CHILDREN_MAX];
    for (int k = 0; k < P; k++) {
        if (g->kind[k] != KIND_MUTATE) continue;
        sc[0] = ga_score(&g->gp, &g->jobs[k].m);
        clone[0] = ga_consider(g, g->child[k], &g->jobs[k].m, sc[0]);
        for (int j = 1; j < C; j++) {
            const sim_job *job = &g->jobs[nj + j - 1];
            sc[j] = ga_score(&g->gp, &job->m);
            clone[j] = ga_consider(g, job->cfg, &job->m, sc[j]);
        }
        int bj = ga_first_best(sc, C), bjob = bj ? nj + bj - 1 : k;
        x->clone[k] = clone[bj];
        nj += C - 1;
        if (!bj) continue;
        int e = ga_extra_at(g, k, bj);
        sim_config *t = g->child[k]; g->child[k] = x->child[e]; x->child[e] = t;
        if (g->tl.ctails) {
            int64_t *y = g->tl.ctails[k]; g->tl.ctails[k] = x->tails[e]; x->tails[e] = y;
        }
        g->jobs[k] = g->jobs[bjob];
        g->jobs[k].cfg = g->child[k];
        g->jobs[k].tails = g->tl.ctails ? g->tl.ctails[k] : NULL;
    }
}
