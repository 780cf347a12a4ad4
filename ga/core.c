/* What the generation loop (ga.c), its start (start.c) and the modes
 * (children.c, perturb.c, speculate.c, parent_runs.c, timetable.c) share:
 * configurations, the local moves, making this generation's children, a
 * child's cutoff and job, evaluation and progress.  It calls none of them,
 * so the loop and the modes both stand on it (ga_internal.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ga/ga_internal.h"
#include "util/invariant.h"

#define SCORE_INF GA_SCORE_INF

double ga_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

sim_config *ga_new_config(const ga *g) { return sim_config_new(g->nodes, g->sp.vcs, 0, g->sp.flits); }

/* A local mutation of k moves by the run's weighting.  The fixed mix is the
 * one of the independent implementation in issue 16 (data/ga_study.md).
 * tails: the parent's tail cycles, or NULL when they are not known (no
 * targeted move then). */
void ga_mutate_moves(ga *g, sim_config *c, int k, const int64_t *tails)
{
    static const double mix[4] = { 0.05, 0.30, 0.20, 0.45 };
    /* With probability target the first move advances the source of a
     * packet that finished in the parent's last cycles (data/ga_study.md). */
    if (tails && g->gp.target > 0 && rng_unit(&g->rng) < g->gp.target &&
        ga_advance_late(c, &g->space, tails, g->tl.npk, g->sp.slices, g->gp.target_window, &g->rng) && --k == 0)
        return;
    /* With probability shift one of the k moves retimes a whole row or
     * column: it keeps the order inside the line and moves the line against
     * the others (data/ga_study.md). */
    if (g->gp.shift > 0 && rng_unit(&g->rng) < g->gp.shift) {
        ga_shift_line(c, &g->space, g->eff, &g->rng);
        if (--k == 0) return;
    }
    if (g->gp.weights == GA_WEIGHT_MIX) ga_mutate_local_mix(c, &g->space, g->eff, k, mix, &g->rng);
    else ga_mutate_local(c, &g->space, g->eff, k, g->gp.weights, &g->rng);
}

/* Every run counts [R-GA-BUDGET-1]. */
void ga_evaluate(ga *g, int count)
{
    NOCSIM_ASSERT(count >= 0 && count <= g->gp.pop * g->gp.children, "evaluate: the jobs fit the job table");
    sim_pool_run(g->pool, g->jobs, count);
    g->evals += count;
}

/* Sort slots by score; ties by a random key or by age (older first). */
static void sort_population(ga *g)
{
    int P = g->gp.pop;
    for (int k = 0; k < P; k++) {
        g->order[k] = k;
        g->tiekey[k] = g->gp.ties == GA_TIES_RANDOM ? rng_next(&g->rng) : (uint64_t)(INT32_MAX - g->age[k]);
    }
    /* Insertion sort: stable, P is small, and no qsort_r in C11. */
    for (int i = 1; i < P; i++) {
        int x = g->order[i], j = i - 1;
        while (j >= 0 && (g->score[g->order[j]] > g->score[x] ||
                          (g->score[g->order[j]] == g->score[x] && g->tiekey[g->order[j]] > g->tiekey[x]))) {
            g->order[j + 1] = g->order[j];
            j--;
        }
        g->order[j + 1] = x;
    }
}

void ga_make_children(ga *g)
{
    const ga_params *gp = &g->gp;
    int P = gp->pop;
    for (int k = 0; k < P; k++) g->kind[k] = KIND_MUTATE;
    int ci = gp->crossover_interval;
    if (ci > 0 && g->generation > gp->train && (g->generation - gp->train) % ci == 0) {
        sort_population(g);
        int pairs = gp->crossover_pairs > 0 ? gp->crossover_pairs : P / 2;
        /* (1,2),(1,3),(2,3),(1,4),(2,4),(3,4),... in sort order; the child of
         * (a,b) is a with genes of b, and takes b's place. */
        for (int b = 1, made = 0; b < P && made < pairs; b++)
            for (int a = 0; a < b && made < pairs; a++, made++) {
                int A = g->order[a], B = g->order[b];
                sim_config_copy(g->child[B], g->kind[A] == KIND_CROSS ? g->child[A] : g->pop[A]);
                ga_crossover(g->child[B], g->pop[B], &g->space, gp->crossover_rate, &g->rng);
                g->kind[B] = KIND_CROSS;
            }
    }
    for (int k = 0; k < P; k++) {
        if (g->kind[k] != KIND_MUTATE) continue;
        for (int j = 0; j < gp->children; j++) {
            sim_config *c = ga_extra_child(g, k, j);
            sim_config_copy(c, g->pop[k]);
            if (gp->algo == GA_ALGO_PAPER) ga_mutate_paper(c, &g->space, gp->mutation, &g->rng);
            else ga_mutate_moves(g, c, 1 + (int)rng_below(&g->rng, (uint32_t)gp->max_genes),
                              g->tl.tails && g->tl.ok[k] ? g->tl.tails[k] : NULL);
        }
    }
    for (int k = 0; g->rp.dec && k < P; k++)
        g->rp.repeat[k] = (uint8_t)sim_decisions_repeat(g->rp.dec[k], g->pop[k], g->child[k]);
}

/* Cutoff for a child of slot k: a child that cannot match its parent is
 * rejected whatever its exact duration, so its simulation may stop there.  A
 * paper crossover child replaces its parent unconditionally and needs its
 * full score, and scores that are not the duration allow no cutoff. */
int64_t ga_child_cutoff(const ga *g, int k)
{
    if (g->gp.fitness != GA_FIT_DURATION || g->score[k] >= SCORE_INF) return 0;
    if (g->kind[k] == KIND_CROSS && g->gp.algo == GA_ALGO_PAPER) return 0;
    return ga_score_primary(g->score[k]);
}

sim_job ga_child_job(const ga *g, int k, const sim_config *c, int64_t *tails, sim_decisions *dec, delta_patch *patch)
{
    if (g->rp.dec && g->rp.repeat[k]) return (sim_job){ .cfg = NULL, .m = g->pop_m[k] };
    sim_job j = { .cfg = c, .cutoff = ga_child_cutoff(g, k), .tails = tails, .dec = dec };
    /* Only against a valid record: the patch of any other is never read. */
    if (patch && g->rp.rec && delta_rec_valid(g->rp.rec[k])) {
        j.parent = g->rp.rcfg[k];   /* the record's run: pop[k]'s, or a proven repeat's parent's */
        j.rec = g->rp.rec[k];
        j.pdec = g->rp.dec[k];      /* the decisions the record was written with */
        j.patch = patch;
    }
    return j;
}

void ga_get_progress(const ga *g, ga_progress *p)
{
    p->generation = g->generation;
    p->evals = g->evals;
    p->repeats = g->rp.repeats;
    p->cones = g->rp.cones;
    p->best_score = g->best_score;
    p->best_duration = g->best_score < SCORE_INF ? g->best_m.duration : -1;
    double sum = 0;
    int cnt = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->score[k] < SCORE_INF) { sum += (double)g->pop_m[k].duration; cnt++; }
    p->average = cnt ? sum / cnt : 0;
    p->elapsed = g->elapsed_before + (ga_now_seconds() - g->t_start);
}
