/* Building and freeing a GA (ga_alloc, ga_free): the population, the
 * modes' state (each allocates nothing unless the parameters ask for it),
 * the evaluation pool.  ga.c (ga_new, ga_resume) and checkpoint.c (a
 * resumed run) build on it. */
#include <stdlib.h>
#include <string.h>

#include "ga/chrom.h"
#include "ga/floor.h"
#include "ga/ga_internal.h"

ga *ga_alloc(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
             fault_kind *kind, char *err, size_t errlen)
{
    if (ga_params_check(gp, err, errlen) || sim_params_check(sp, err, errlen)) return fault_set(kind, FAULT_INPUT), NULL;
    ga *g = calloc(1, sizeof *g);
    if (!g) return fault_set(kind, FAULT_RESOURCE), snprintf(err, errlen, "out of memory"), NULL;
    g->gp = *gp;
    g->sp = *sp;
    g->n = sp->n;
    g->nodes = sim_nodes(sp);
    snprintf(g->traffic, sizeof g->traffic, "%s", traffic_name);
    g->dest = malloc(sizeof *g->dest * (size_t)g->nodes);
    size_t P = (size_t)gp->pop;
    g->pop = calloc(P, sizeof *g->pop);
    g->child = calloc(P, sizeof *g->child);
    g->score = calloc(P, sizeof *g->score);
    g->age = calloc(P, sizeof *g->age);
    g->kind = calloc(P, sizeof *g->kind);
    g->pop_m = calloc(P, sizeof *g->pop_m);
    g->jobs = calloc(P * (size_t)gp->children, sizeof *g->jobs);
    g->order = calloc(P, sizeof *g->order);
    g->tiekey = calloc(P, sizeof *g->tiekey);
    g->rec.scratch = malloc(chrom_grid_size(g->n, sim_height(sp), sp->vcs));
    if (!g->dest || !g->pop || !g->child || !g->score || !g->age || !g->kind || !g->pop_m || !g->jobs ||
        !g->order || !g->tiekey || !g->rec.scratch)
        goto oom;
    memcpy(g->dest, dest, sizeof *g->dest * (size_t)g->nodes);
    for (size_t k = 0; k < P; k++)
        if (!(g->pop[k] = ga_new_config(g)) || !(g->child[k] = ga_new_config(g))) goto oom;
    if (!(g->best = ga_new_config(g)) || !(g->rec.signed_last = ga_new_config(g))) goto oom;
    /* The modes that the parameters ask for (each allocates nothing otherwise). */
    if (ga_parent_runs_alloc(g) || ga_perturb_alloc(g) || ga_extra_alloc(g) || ga_spec_alloc(g)) goto oom;
    if (!(g->eff = ga_effective_new(sp, dest))) goto oom;
    if ((g->floor = ga_floor(sp, dest)) < 0) goto oom;
    if (!(g->pool = sim_pool_new(sp, dest, gp->threads, kind, err, errlen))) { ga_free(g); return NULL; }
    sim_params one = *sp;
    one.slices = 1;
    if (!(g->single = sim_new(&one, dest, kind, err, errlen))) { ga_free(g); return NULL; }
    /* Runs that count only what the score reads: lean ones, a third fewer
     * instructions; a record's other metrics come from a run of its own. */
    if (ga_score_lean(gp)) {
        sim_pool_set_lean(g->pool, 1);
        if (!(g->full = sim_new(sp, dest, kind, err, errlen))) { ga_free(g); return NULL; }
    }
    /* Delta runs need the pool's engines, so after it. */
    if (ga_set_delta(g, gp->delta, err, errlen)) {
        fault_set(kind, FAULT_RESOURCE);
        ga_free(g);
        return NULL;
    }
    rng_seed(&g->rng, gp->seed);
    g->best_score = GA_SCORE_INF;
    return g;
oom:
    fault_set(kind, FAULT_RESOURCE);
    snprintf(err, errlen, "out of memory for a population of %d on a %dx%d torus", gp->pop, sp->n, sim_height(sp));
    ga_free(g);
    return NULL;
}

void ga_free(ga *g)
{
    if (!g) return;
    if (g->pool) ga_spec_void(g); /* no offered child runs on what is freed */
    for (int k = 0; g->pop && k < g->gp.pop; k++) sim_config_free(g->pop[k]);
    for (int k = 0; g->child && k < g->gp.pop; k++) sim_config_free(g->child[k]);
    free(g->pop); free(g->child); free(g->score); free(g->age); free(g->kind); free(g->pop_m);
    free(g->jobs); free(g->order); free(g->tiekey); free(g->dest);
    ga_parent_runs_free(g);
    ga_spec_free(g);
    ga_extra_free(g);
    ga_perturb_free(g);
    ga_records_free(g);
    sim_config_free(g->best);
    ga_effective_free(g->eff);
    sim_pool_free(g->pool);
    sim_free(g->single);
    sim_free(g->full);
    free(g);
}
