/* What a chromosome's run tells about its children: the tail cycles that
 * aim the targeted moves, the decisions that prove a child to repeat its
 * parent, and the delta records its children run against (ga_internal.h,
 * ga_tails and ga_repeats). */
#include <stdlib.h>
#include <string.h>

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

static void free_delta(ga_repeats *r, int P)
{
    for (int k = 0; r->rec && k < P; k++) delta_rec_free(r->rec[k]);
    for (int k = 0; r->patch && k < P; k++) delta_patch_free(r->patch[k]);
    for (int k = 0; r->rcfg && k < P; k++) sim_config_free(r->rcfg[k]);
    free(r->rec); free(r->patch); free(r->stale); free(r->rcfg);
    r->rec = NULL;
    r->rcfg = NULL;
    r->patch = NULL;
    r->stale = NULL;
}

/* Records where the decisions are kept and the engine serves the network;
 * delta runs are lean runs (sim_pool.h), so only for a lean score. */
static int alloc_delta(ga *g)
{
    ga_repeats *r = &g->rp;
    if (!r->dec || !delta_supports(&g->sp) || !ga_score_lean(&g->gp)) return 0;
    size_t P = (size_t)g->gp.pop;
    r->rec = calloc(P, sizeof *r->rec);
    r->patch = calloc(P, sizeof *r->patch);
    r->stale = malloc(P);
    r->rcfg = calloc(P, sizeof *r->rcfg);
    if (!r->rec || !r->patch || !r->stale || !r->rcfg) return -1;
    memset(r->stale, REC_STALE, P);
    for (size_t k = 0; k < P; k++)
        if (!(r->rec[k] = delta_rec_new(&g->sp)) || !(r->patch[k] = delta_patch_new(&g->sp)) ||
            !(r->rcfg[k] = ga_new_config(g)))
            return -1;
    return 0;
}

/* Delta runs off: the records, the patches and the pool's engines freed. */
static void delta_off(ga *g)
{
    free_delta(&g->rp, g->gp.pop);
    (void)!ga_spec_patches(g);   /* without records it only frees: cannot fail */
    char none[8];
    (void)!sim_pool_set_delta(g->pool, 0, none, sizeof none);   /* off cannot fail */
}

int ga_parent_runs_delta(ga *g, int on, char *err, size_t errlen)
{
    if (!on) return delta_off(g), 0;
    if (g->rp.rec) return 0;
    if (alloc_delta(g) || ga_spec_patches(g)) {
        delta_off(g);
        return snprintf(err, errlen, "out of memory for the delta records of %d chromosomes", g->gp.pop), -1;
    }
    if (g->rp.rec && sim_pool_set_delta(g->pool, 1, err, errlen)) return delta_off(g), -1;
    return 0;
}

void ga_parent_runs_free(ga *g)
{
    ga_tails *t = &g->tl;
    ga_repeats *r = &g->rp;
    free_delta(r, g->gp.pop);
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
                      .dec = g->rp.dec ? g->rp.dec[k] : NULL, .rec_out = g->rp.rec ? g->rp.rec[k] : NULL };
}

/* Slot k's record was just written (valid or not) from its chromosome's run. */
static void recorded(ga *g, int k)
{
    sim_config_copy(g->rp.rcfg[k], g->pop[k]);
    g->rp.stale[k] = REC_FRESH;
}

/* Slot k takes the child whose run is job: 1 when the child ran on its cone
 * and its patch made the record and dec[k] the child's; 0 when the child's
 * own decisions (cdec[k]) are to be taken, the record then stale (and the
 * decisions left for its new run to write when the child's run on the whole
 * network did not record them). */
static int accept_delta(ga *g, int k, const sim_job *job)
{
    ga_repeats *r = &g->rp;
    if (!r->rec) return 0;
    if (job->cone && delta_accept(r->rec[k], r->dec[k], job->patch)) return recorded(g, k), 1;
    delta_rec_invalidate(r->rec[k]);
    r->stale[k] = job->whole ? REC_STALE_NO_DEC : REC_STALE;
    /* A cone run records no decisions; one that did not end SIM_OK (the
     * only kind delta_accept refuses) leaves a full run's unknown. */
    if (job->cone) sim_decisions_clear(r->cdec[k]);
    return 0;
}

void ga_parent_runs_accept(ga *g, int k, const sim_job *job)
{
    ga_tails *t = &g->tl;
    ga_repeats *r = &g->rp;
    /* A proven repeat's tails, decisions and record are its parent's. */
    int repeat = r->dec && r->repeat[k];
    if (r->dec && !repeat && !accept_delta(g, k, job)) {
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
    if (g->rp.rec) recorded(g, k);   /* the parent job wrote its record */
}

void ga_parent_runs_replaced(ga *g, int k)
{
    if (!g->rp.rec) return;
    delta_rec_invalidate(g->rp.rec[k]);
    g->rp.stale[k] = REC_STALE;
}

void ga_parent_runs_record(ga *g)
{
    ga_repeats *r = &g->rp;
    int nj = 0;
    for (int k = 0; r->rec && k < g->gp.pop; k++) {
        const int known = r->stale[k] == REC_STALE_NO_DEC || sim_decisions_known(r->dec[k]);
        if (r->stale[k] && known && delta_rec_recordable(r->rec[k]))
            g->jobs[nj++] = (sim_job){ .cfg = g->pop[k], .dec = r->dec[k], .rec_out = r->rec[k] };
        else
            r->stale[k] = REC_FRESH;
    }
    if (nj) sim_pool_run(g->pool, g->jobs, nj);
    for (int k = 0; r->rec && k < g->gp.pop; k++)
        if (r->stale[k]) recorded(g, k);
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
    for (int k = 0; g->rp.rec && k < g->gp.pop; k++) recorded(g, k);
}
