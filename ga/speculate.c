/* Speculation: one lineage of one child a generation on several threads
 * (ga_internal.h, ga_spec). */
#include <stdlib.h>

#include "ga/ga_internal.h"
#include "util/invariant.h"

/* Speculate as deep as there are threads (the perturbation's batches,
 * several children and several lineages use them already). */
int ga_spec_alloc(ga *g)
{
    const ga_params *gp = &g->gp;
    ga_spec *s = &g->spec;
    if (!(gp->pop == 1 && gp->children == 1 && gp->algo == GA_ALGO_LOCAL && gp->perturb == 0 && gp->threads > 1))
        return 0;
    int K = gp->threads < GA_SPEC_MAX ? gp->threads : GA_SPEC_MAX;
    /* Offered one at a time, three more than the threads keep the other
     * threads busy while the caller runs a long child (one on the whole
     * network) and cannot make more: on two threads the pool idled 3.3-4.0 s
     * of a default run with two more, 2.4-3.0 s with three, the same with
     * four, whose sixth slot (0.7 MB at 16x16) took the run past twice the
     * memory of --delta off (data/delta_ceiling.md). */
    s->ahead = gp->threads + 3 < SIM_POOL_OFFERS ? gp->threads + 3 : SIM_POOL_OFFERS;
    if (s->ahead > K) K = s->ahead;
    s->ticket = calloc((size_t)K, sizeof *s->ticket);
    s->child = calloc((size_t)K, sizeof *s->child);
    s->tails = calloc((size_t)K, sizeof *s->tails);
    s->jobs = calloc((size_t)K, sizeof *s->jobs);
    s->rng = calloc((size_t)K, sizeof *s->rng);
    s->kind = calloc((size_t)K, sizeof *s->kind);
    s->dec = calloc((size_t)K, sizeof *s->dec);
    s->repeat = calloc((size_t)K, 1);
    if (!s->ticket || !s->child || !s->tails || !s->jobs || !s->rng || !s->kind || !s->dec || !s->repeat) return -1;
    s->depth = gp->threads < GA_SPEC_MAX ? gp->threads : GA_SPEC_MAX;
    s->slots = K;
    for (int j = 0; j < K; j++) {
        if (!(s->child[j] = ga_new_config(g))) return -1;
        if (g->tl.npk && !(s->tails[j] = malloc(sizeof **s->tails * (size_t)g->tl.npk))) return -1;
        if (g->rp.dec && !(s->dec[j] = sim_decisions_new(&g->sp))) return -1;
    }
    return 0;
}

int ga_spec_patches(ga *g)
{
    ga_spec *s = &g->spec;
    for (int j = 0; s->patch && j < s->slots; j++) delta_patch_free(s->patch[j]);
    free(s->patch);
    s->patch = NULL;
    if (!g->rp.rec || !s->depth) return 0;
    if (!(s->patch = calloc((size_t)s->slots, sizeof *s->patch))) return -1;
    for (int j = 0; j < s->slots; j++)
        if (!(s->patch[j] = delta_patch_new(&g->sp))) return -1;
    return 0;
}

void ga_spec_free(ga *g)
{
    ga_spec *s = &g->spec;
    for (int j = 0; s->patch && j < s->slots; j++) delta_patch_free(s->patch[j]);
    free(s->patch);
    for (int j = 0; j < s->slots; j++) {
        sim_config_free(s->child[j]);
        free(s->tails[j]);
        sim_decisions_free(s->dec[j]);
    }
    free(s->child); free(s->tails); free(s->jobs); free(s->rng); free(s->kind); free(s->dec); free(s->repeat);
    free(s->ticket);
}

/* Make the children of the next depth generations from the one lineage's
 * current parent, each as if the ones before it were rejected, and evaluate
 * them together (not counted until taken). */
static void speculate(ga *g)
{
    ga_spec *s = &g->spec;
    int64_t gen = g->generation;
    int j = 0;
    while (j < s->depth) {
        g->generation = gen + j;
        ga_make_children(g);
        sim_config *t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
        s->kind[j] = g->kind[0];
        s->rng[j] = g->rng;
        s->jobs[j] = ga_child_job(g, 0, s->child[j], s->tails[j], s->dec[j], s->patch ? s->patch[j] : NULL);
        int repeat = !s->jobs[j].cfg;
        s->repeat[j] = (uint8_t)repeat;
        j++;
        /* A proven repeat is accepted: any child behind it would be void. */
        if (repeat) break;
    }
    g->generation = gen;
    sim_pool_run(g->pool, s->jobs, j);
    s->n = j;
    s->next = 0;
}

/* Queue entry j becomes this generation's child and its results. */
static void take_entry(ga *g, int j)
{
    ga_spec *s = &g->spec;
    sim_config *t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
    if (g->tl.ctails) {
        int64_t *x = g->tl.ctails[0]; g->tl.ctails[0] = s->tails[j]; s->tails[j] = x;
    }
    sim_decisions *d = g->rp.cdec[0]; g->rp.cdec[0] = s->dec[j]; s->dec[j] = d;
    if (s->patch) {
        delta_patch *p = g->rp.patch[0]; g->rp.patch[0] = s->patch[j]; s->patch[j] = p;
    }
    g->rp.repeat[0] = s->repeat[j];
    g->kind[0] = s->kind[j];
    g->rng = s->rng[j];
    g->jobs[0] = s->jobs[j];
    g->jobs[0].cfg = g->child[0];
    g->jobs[0].tails = g->tl.ctails ? g->tl.ctails[0] : NULL;
    g->jobs[0].dec = g->rp.cdec[0];
    g->jobs[0].patch = s->patch ? g->rp.patch[0] : NULL;
    g->jobs[0].voids_later = NULL;
    if (g->rp.repeat[0]) g->rp.repeats++;
    else g->evals++;
}

/* The next speculated child is exactly what ga_make_children and
 * evaluation would give, as the parent and the generator are where they
 * were when it was made. */
void ga_spec_take(ga *g)
{
    ga_spec *s = &g->spec;
    if (s->next >= s->n) speculate(g);
    take_entry(g, s->next++);
    s->kept = 0;   /* a batch ends at a repeat: nothing behind it */
}

/* ---- offered one at a time (delta runs) ---- */

/* Would the one lineage accept this child ([R-GA-ACC-1] under the local
 * algorithm, the only one that speculates: no worse than the parent)?
 * Then every child made as if it were rejected is void.  Read on a pool
 * thread while the parent's score holds still (it changes only after
 * ga_spec_void). */
static int spec_voids_later(const sim_job *j, const void *ctx)
{
    const ga *g = ctx;
    return ga_accepts(g, 0, ga_score(&g->gp, &j->m));
}

/* Children made and offered until `ahead` are queued, each from the
 * generator where the one before it left it and from the last proven repeat
 * queued, if any, as its parent: a repeat is accepted when the children
 * before it are rejected, and accepting it changes only the parent's
 * chromosome (its run, record, decisions, tails and score are the parent's;
 * ga_parent_runs_accept).  The generator, generation and parent are then as
 * they were.  A repeat is not offered (ticket -1). */
static void offer_more(ga *g, int64_t next_gen)
{
    ga_spec *s = &g->spec;
    if (s->count == 0) {
        s->mrng = g->rng;
        s->mgen = next_gen;
        s->mpar = -1;
    }
    const rng keep = g->rng;
    const int64_t gen = g->generation;
    sim_config *const parent = g->pop[0];
    while (s->count < s->ahead) {
        const int j = (s->head + s->count) % s->ahead;
        g->rng = s->mrng;
        g->generation = s->mgen;
        if (s->mpar >= 0) g->pop[0] = s->child[s->mpar];
        ga_make_children(g);
        g->pop[0] = parent;
        sim_config *t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
        s->kind[j] = g->kind[0];
        s->rng[j] = g->rng;
        s->jobs[j] = ga_child_job(g, 0, s->child[j], s->tails[j], s->dec[j], s->patch ? s->patch[j] : NULL);
        s->jobs[j].voids_later = spec_voids_later;
        s->jobs[j].vctx = g;
        s->repeat[j] = (uint8_t)!s->jobs[j].cfg;
        s->ticket[j] = s->repeat[j] ? -1 : sim_pool_offer(g->pool, &s->jobs[j]);
        if (s->repeat[j]) s->mpar = j;
        s->mrng = g->rng;
        s->mgen++;
        s->count++;
    }
    g->rng = keep;
    g->generation = gen;
}

void ga_spec_take_ahead(ga *g)
{
    ga_spec *s = &g->spec;
    offer_more(g, g->generation);
    const int j = s->head;
    if (!s->repeat[j]) {
        const int held = sim_pool_await(g->pool, s->ticket[j]);
        /* Only a child that would be accepted withdraws, and taking it
         * voids the queue: the oldest one is never withdrawn. */
        NOCSIM_ASSERT(held, "speculation: the child taken was not withdrawn");
    }
    s->head = (s->head + 1) % s->ahead;
    s->count--;
    take_entry(g, j);
    /* Once accepted it is the slot's parent, no longer the queue's. */
    s->kept = s->repeat[j];
    if (s->mpar == j) s->mpar = -1;
}

int ga_spec_kept(const ga *g) { return g->spec.kept; }

/* Between an accept and the next generation's take only the records and
 * persistence run, which change nothing a child is made from (the parent,
 * generator, tails, decisions, record and score); so the next children can
 * be offered at once, and the other threads need not idle through them.  A
 * stale record is written again at the next generation's start, and
 * children offered before that would run in full: they wait for it. */
void ga_spec_refill(ga *g)
{
    if (!g->spec.depth || !g->rp.rec || g->rp.stale[0]) return;
    offer_more(g, g->generation + 1);
}

void ga_spec_void(ga *g)
{
    ga_spec *s = &g->spec;
    s->n = 0;
    if (s->count) sim_pool_withdraw(g->pool);
    s->count = 0;
    s->head = 0;
    s->mpar = -1;
    s->kept = 0;
}
