/* Speculation: one lineage of one child a generation on several threads
 * (ga_internal.h, ga_spec).
 *
 * A window of `depth` children is kept made and submitted to the pool: the
 * children of the next generations, each made as if the ones before it were
 * rejected.  A generation waits for the oldest (the pool's caller runs it,
 * or another queued child, rather than idle), and at once makes and submits
 * the next, so a worker that finishes a child finds the next one queued
 * instead of sleeping until the next batch.  An accepted child (or any new
 * parent) cancels the window: the children queued never run, the running
 * ones stop (sim_set_stop).
 *
 * Measured against batches of `threads` children evaluated together (the
 * design before): see the commit that introduced the window. */
#include <stdlib.h>

#include "ga/ga_internal.h"
#include "util/invariant.h"

/* The window: one child more than there are threads, so that a thread
 * that finishes finds work while the caller takes its child. */
int ga_spec_alloc(ga *g)
{
    const ga_params *gp = &g->gp;
    ga_spec *s = &g->spec;
    if (!(gp->pop == 1 && gp->children == 1 && gp->algo == GA_ALGO_LOCAL && gp->perturb == 0 && gp->threads > 1))
        return 0;
    int K = gp->threads + 1 < GA_SPEC_MAX ? gp->threads + 1 : GA_SPEC_MAX;
    s->child = calloc((size_t)K, sizeof *s->child);
    s->tails = calloc((size_t)K, sizeof *s->tails);
    s->jobs = calloc((size_t)K, sizeof *s->jobs);
    s->rng = calloc((size_t)K, sizeof *s->rng);
    s->kind = calloc((size_t)K, sizeof *s->kind);
    s->dec = calloc((size_t)K, sizeof *s->dec);
    s->repeat = calloc((size_t)K, 1);
    if (!s->child || !s->tails || !s->jobs || !s->rng || !s->kind || !s->dec || !s->repeat) return -1;
    s->depth = K;
    for (int j = 0; j < K; j++) {
        if (!(s->child[j] = ga_new_config(g))) return -1;
        if (g->tl.npk && !(s->tails[j] = malloc(sizeof **s->tails * (size_t)g->tl.npk))) return -1;
        if (g->rp.dec && !(s->dec[j] = sim_decisions_new(&g->sp))) return -1;
    }
    return 0;
}

void ga_spec_free(ga *g)
{
    ga_spec *s = &g->spec;
    for (int j = 0; j < s->depth; j++) {
        sim_config_free(s->child[j]);
        free(s->tails[j]);
        sim_decisions_free(s->dec[j]);
    }
    free(s->child); free(s->tails); free(s->jobs); free(s->rng); free(s->kind); free(s->dec); free(s->repeat);
}

void ga_spec_void(ga *g)
{
    ga_spec *s = &g->spec;
    if (s->n) sim_pool_cancel(g->pool);
    s->n = 0;
}

/* Make and submit children until the window is full or the last one made
 * is a proven repeat (sure to be accepted: a child behind it would be
 * void).  Each is made from the parent and the generator as the one before
 * it left them, at the generation after it. */
static void fill_window(ga *g)
{
    ga_spec *s = &g->spec;
    if (s->n == 0) {
        s->gen_next = g->generation;
        s->rng_next = g->rng;
    }
    /* What making a child writes into the search, kept for the child the
     * generation has taken (if any) while it is judged. */
    const int64_t gen = g->generation;
    const rng keep = g->rng;
    const int kind = g->kind[0];
    const uint8_t repeat = g->rp.repeat ? g->rp.repeat[0] : 0;
    while (s->n < s->depth && !(s->n > 0 && s->repeat[(s->next + s->n - 1) % s->depth])) {
        const int j = (s->next + s->n) % s->depth;
        g->generation = s->gen_next;
        g->rng = s->rng_next;
        sim_config *t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
        ga_make_children(g);
        t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
        s->kind[j] = g->kind[0];
        s->rng[j] = s->rng_next = g->rng;
        s->gen_next++;
        s->jobs[j] = ga_child_job(g, 0, s->child[j], s->tails[j], s->dec[j]);
        s->repeat[j] = (uint8_t)!s->jobs[j].cfg;
        /* The window never exceeds the pool's limit (GA_SPEC_MAX). */
        int rc = sim_pool_submit(g->pool, &s->jobs[j]);
        NOCSIM_ASSERT(rc == 0, "speculate: the window fits the pool's queue");
        (void)rc;
        s->n++;
    }
    g->generation = gen;
    g->rng = keep;
    g->kind[0] = kind;
    if (g->rp.repeat) g->rp.repeat[0] = repeat;
}

/* The next speculated child is exactly what ga_make_children and
 * evaluation would give, as the parent and the generator are where they
 * were when it was made. */
void ga_spec_take(ga *g)
{
    ga_spec *s = &g->spec;
    fill_window(g);
    const int j = s->next;
    sim_pool_wait(g->pool, &s->jobs[j]);
    s->next = (s->next + 1) % s->depth;
    s->n--;
    sim_config *t = g->child[0]; g->child[0] = s->child[j]; s->child[j] = t;
    if (g->tl.ctails) {
        int64_t *x = g->tl.ctails[0]; g->tl.ctails[0] = s->tails[j]; s->tails[j] = x;
    }
    sim_decisions *d = g->rp.cdec[0]; g->rp.cdec[0] = s->dec[j]; s->dec[j] = d;
    g->rp.repeat[0] = s->repeat[j];
    g->kind[0] = s->kind[j];
    g->rng = s->rng[j];
    g->jobs[0] = s->jobs[j];
    g->jobs[0].cfg = g->child[0];
    g->jobs[0].tails = g->tl.ctails ? g->tl.ctails[0] : NULL;
    g->jobs[0].dec = g->rp.cdec[0];
    if (g->rp.repeat[0]) g->rp.repeats++;
    else g->evals++;
    /* The freed slot takes the next child now, while this one is judged. */
    fill_window(g);
}
