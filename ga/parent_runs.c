/* What a chromosome's run tells about its children: the tail cycles that
 * aim the targeted moves and the decisions that prove a child to repeat its
 * parent (ga_internal.h, ga_tails and ga_repeats). */
#include <stdlib.h>

#include "ga/ga_internal.h"

/* Tail cycles only where a targeted move reads them. */
static int alloc_tails(ga *g)
{
    ga_tails *t = &g->tl;
    size_t P = (size_t)g->gp.pop;
    if (g->gp.target <= 0) return 0;
    t->npk = (int64_t)g->nodes * g->sp.slices;
    t->tails = calloc(P, sizeof *t->tails);
    t->ctails = calloc(P, sizeof *t->ctails);
    t->ok = calloc(P, 1);
    if (!t->tails || !t->ctails || !t->ok) return -1;
    for (size_t k = 0; k < P; k++)
        if (!(t->tails[k] = malloc(sizeof **t->tails * (size_t)t->npk)) ||
            !(t->ctails[k] = malloc(sizeof **t->ctails * (size_t)t->npk)))
            return -1;
    return 0;
}

/* Decisions where one child a generation is made by moving genes. */
static int alloc_decisions(ga *g)
{
    const ga_params *gp = &g->gp;
    ga_repeats *r = &g->rp;
    if (!(gp->algo == GA_ALGO_LOCAL && gp->children == 1 && gp->perturb == 0)) return 0;
    size_t P = (size_t)gp->pop;
    r->dec = calloc(P, sizeof *r->dec);
    r->cdec = calloc(P, sizeof *r->cdec);
    r->repeat = calloc(P, 1);
    if (!r->dec || !r->cdec || !r->repeat) return -1;
    for (size_t k = 0; k < P; k++)
        if (!(r->dec[k] = sim_decisions_new(&g->sp)) || !(r->cdec[k] = sim_decisions_new(&g->sp))) return -1;
    return 0;
}

int ga_parent_runs_alloc(ga *g) { return alloc_tails(g) || alloc_decisions(g) ? -1 : 0; }

void ga_parent_runs_free(ga *g)
{
    ga_tails *t = &g->tl;
    ga_repeats *r = &g->rp;
    for (int k = 0; r->dec && k < g->gp.pop; k++) sim_decisions_free(r->dec[k]);
    for (int k = 0; r->cdec && k < g->gp.pop; k++) sim_decisions_free(r->cdec[k]);
    free(r->dec); free(r->cdec); free(r->repeat);
    for (int k = 0; t->tails && k < g->gp.pop; k++) free(t->tails[k]);
    for (int k = 0; t->ctails && k < g->gp.pop; k++) free(t->ctails[k]);
    free(t->tails); free(t->ctails); free(t->ok);
}

sim_job ga_parent_job(const ga *g, int k)
{
    return (sim_job){ .cfg = g->pop[k], .cutoff = 0, .tails = g->tl.tails ? g->tl.tails[k] : NULL,
                      .dec = g->rp.dec ? g->rp.dec[k] : NULL };
}

void ga_parent_runs_accept(ga *g, int k, const sim_job *job)
{
    ga_tails *t = &g->tl;
    ga_repeats *r = &g->rp;
    /* A proven repeat's tails and decisions are its parent's. */
    int repeat = r->dec && r->repeat[k];
    if (r->dec && !repeat) {
        sim_decisions *d = r->dec[k]; r->dec[k] = r->cdec[k]; r->cdec[k] = d;
    }
    if (t->tails && !repeat) {
        int64_t *x = t->tails[k]; t->tails[k] = t->ctails[k]; t->ctails[k] = x;
        /* A perturbed child's run kept no tails (job->tails NULL). */
        t->ok[k] = job->m.status == SIM_OK && job->tails;
    }
}

void ga_parent_runs_ran(ga *g, int k, const sim_metrics *m)
{
    if (g->tl.tails) g->tl.ok[k] = m->status == SIM_OK;
}

/* Whether a slot's tails are known is the checkpoint's (a parent made by a
 * perturbed child has none, though its run here keeps them); the run's
 * status can only confirm it. */
void ga_parent_runs_refresh(ga *g)
{
    if (!g->tl.tails && !g->rp.dec) return;
    for (int k = 0; k < g->gp.pop; k++) g->jobs[k] = ga_parent_job(g, k);
    sim_pool_run(g->pool, g->jobs, g->gp.pop);
    for (int k = 0; g->tl.tails && k < g->gp.pop; k++)
        g->tl.ok[k] = g->tl.ok[k] && g->jobs[k].m.status == SIM_OK;
}
