/* --children C > 1: each mutating slot makes C children a generation and
 * keeps the best of them (ga_internal.h, ga_extra). */
#include <stdlib.h>

#include "ga/ga_internal.h"

/* Where slot k's j-th child (1..children-1) lives in child and tails. */
static int extra_at(const ga *g, int k, int j) { return k * (g->gp.children - 1) + j - 1; }

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

sim_config *ga_extra_child(ga *g, int k, int j) { return j ? g->ex.child[extra_at(g, k, j)] : g->child[k]; }

int ga_extra_jobs(ga *g, int nj)
{
    for (int k = 0; k < g->gp.pop; k++)
        for (int j = 1; j < g->gp.children && g->kind[k] == KIND_MUTATE; j++) {
            int e = extra_at(g, k, j);
            g->jobs[nj++] = (sim_job){ .cfg = g->ex.child[e], .cutoff = ga_child_cutoff(g, k), .tails = g->ex.tails[e] };
        }
    return nj;
}

/* A mutating slot's candidate is the best of its C children (the first of
 * equal scores).  Each of them is offered to the records in the order made,
 * as C generations of one child would offer them; the verdict on the one
 * kept is in clone[k]. */
void ga_extra_keep_best(ga *g)
{
    ga_extra *x = &g->ex;
    int P = g->gp.pop, C = g->gp.children, nj = P;
    for (int k = 0; k < P; k++) {
        if (g->kind[k] != KIND_MUTATE) continue;
        int64_t best = ga_score(&g->gp, &g->jobs[k].m);
        int bj = 0, bjob = k;
        x->clone[k] = ga_consider(g, g->child[k], &g->jobs[k].m, best);
        for (int j = 1; j < C; j++, nj++) {
            int64_t sc = ga_score(&g->gp, &g->jobs[nj].m);
            int clone = ga_consider(g, g->jobs[nj].cfg, &g->jobs[nj].m, sc);
            if (sc < best) best = sc, bj = j, bjob = nj, x->clone[k] = clone;
        }
        if (!bj) continue;
        int e = extra_at(g, k, bj);
        sim_config *t = g->child[k]; g->child[k] = x->child[e]; x->child[e] = t;
        if (g->tl.ctails) {
            int64_t *y = g->tl.ctails[k]; g->tl.ctails[k] = x->tails[e]; x->tails[e] = y;
        }
        g->jobs[k] = g->jobs[bjob];
        g->jobs[k].cfg = g->child[k];
        g->jobs[k].tails = g->tl.ctails ? g->tl.ctails[k] : NULL;
    }
}
