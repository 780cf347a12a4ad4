/* ga_start in its phases (see ga.h): the search ranges from a first run,
 * the baselines (simple stacking, the non-split message), the first
 * population seeded from the stacking optima, and its evaluation. */
#include <stdlib.h>
#include <string.h>

#include "ga/ga_internal.h"
#include "ga/timetable.h"
#include "sim/stacking.h"
#include "util/invariant.h"

#define SCORE_INF GA_SCORE_INF

/* The search ranges [R-GA-RANGE-1] from a first single-slice run with
 * random schemes and I = 0: V in [l_c, T_e - l_c] (at least l_c), I in
 * [0, T_d - l_c] (at most 65535).  A first run that does not finish sets no
 * ranges: a deadlock (which minimal routing with datelines rules out) is
 * -FAULT_INTERNAL, a time-out (--max-cycles) -FAULT_RESOURCE. */
static int ranges(ga *g, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int L = g->sp.flits;
    sim_config *c0 = g->child[0];
    sim_config *def = sim_config_new(g->nodes, g->sp.vcs, 0, (uint32_t)L);
    if (!def) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    sim_config_copy(c0, def);
    sim_config_free(def);
    for (int k = 0; k < g->nodes * NPORTS; k++) c0->scheme[k] = (uint8_t)rng_below(&g->rng, VCSEL_NSCHEMES);
    sim_metrics m0;
    sim_status st = sim_run(g->single, c0, &m0);
    g->evals++;
    switch (st) {
    case SIM_OK: break;
    case SIM_DEADLOCK:
        return snprintf(err, errlen, "the first run (one slice, random schemes, I = 0) deadlocked at cycle %lld: "
                        "no search ranges", (long long)m0.stop_cycle), -FAULT_INTERNAL;
    default:
        return snprintf(err, errlen, "the first run (one slice, random schemes, I = 0) did not finish by cycle %lld: "
                        "no search ranges", (long long)m0.stop_cycle), -FAULT_RESOURCE;
    }
    g->t_d0 = m0.duration;
    g->t_e0 = m0.te;
    g->space.genes = gp->genes;
    g->space.vmin = (uint32_t)L;
    g->space.vmax = (uint32_t)(g->t_e0 - L > L ? g->t_e0 - L : L);
    g->space.imax = (uint16_t)(g->t_d0 - L > 0 ? (g->t_d0 - L > 65535 ? 65535 : g->t_d0 - L) : 0);
    g->space.c_fixed = gp->arb;
    return 0;
}

/* The stacking optima of the schemes the search may use (schemes[0..ns),
 * their intervals bv and durations bd), the baselines, and the ranges
 * widened to hold the optima's intervals. */
typedef struct {
    int schemes[VCSEL_NSCHEMES], ns;
    uint32_t bv[VCSEL_NSCHEMES];
    int64_t bd[VCSEL_NSCHEMES];
} optima;

/* Simple stacking over the schemes that may be used: the best interval and
 * duration of each (SCORE_INF where no interval finished). */
static int stacking(ga *g, int *schemes, int nschemes, uint32_t *best_v, int64_t *best_d, char *err, size_t errlen)
{
    uint32_t lo = (uint32_t)g->sp.flits, hi = (uint32_t)(g->gp.stack_vmax > g->sp.flits ? g->gp.stack_vmax : g->sp.flits);
    if (!(g->gp.genes & GENE_V) && g->gp.interval) lo = hi = g->gp.interval;
    if (sim_stacking_optima(g->pool, g->nodes, g->sp.vcs, g->sp.slices, g->sp.flits, schemes, nschemes, lo, hi, best_v,
                            best_d, &g->evals))
        return snprintf(err, errlen, "out of memory in the simple-stacking sweep"), -FAULT_RESOURCE;
    for (int s = 0; s < nschemes; s++)
        if (best_d[s] < 0) best_d[s] = SCORE_INF;
    return 0;
}

/* The whole message, S x l_c flits, as one packet; best scheme. */
static int nonsplit(ga *g, int64_t *out, char *err, size_t errlen)
{
    sim_params p = g->sp;
    p.flits = g->sp.slices * g->sp.flits;
    p.slices = 1;
    *out = -1;
    if (p.flits > SIM_MAX_FLITS) return 0; /* no baseline for huge messages */
    fault_kind kind = FAULT_RESOURCE;
    sim *s = sim_new(&p, g->dest, &kind, err, errlen);
    if (!s) return fault_rc(kind);
    /* sim_new's kind says nothing of what follows: memory is the machine's */
    sim_config *c = sim_config_new(g->nodes, p.vcs, 0, (uint32_t)p.flits);
    if (!c) {
        sim_free(s);
        return snprintf(err, errlen, "out of memory for the non-split baseline"), -FAULT_RESOURCE;
    }
    for (int k = 0; k < VCSEL_NSCHEMES; k++) {
        sim_metrics m;
        memset(c->scheme, k, (size_t)g->nodes * NPORTS);
        if (sim_run(s, c, &m) == SIM_OK && (*out < 0 || m.duration < *out)) *out = m.duration;
        g->evals++;
    }
    sim_free(s);
    sim_config_free(c);
    return 0;
}

static int baselines(ga *g, optima *o, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    o->ns = 0;
    if (gp->genes & GENE_C) for (int k = 0; k < VCSEL_NSCHEMES; k++) o->schemes[o->ns++] = k;
    else o->schemes[o->ns++] = gp->arb;
    int rc = stacking(g, o->schemes, o->ns, o->bv, o->bd, err, errlen);
    if (rc) return rc;
    int bestk = 0;
    for (int k = 1; k < o->ns; k++) if (o->bd[k] < o->bd[bestk]) bestk = k;
    g->base_scheme = o->schemes[bestk];
    g->base_interval = o->bv[bestk];
    g->base_stack = o->bd[bestk] >= SCORE_INF ? -1 : o->bd[bestk];
    if ((rc = nonsplit(g, &g->base_nonsplit, err, errlen))) return rc;
    g->space.v_fixed = gp->interval ? gp->interval : g->base_interval;
    for (int k = 0; k < o->ns; k++) if (o->bv[k] > g->space.vmax) g->space.vmax = o->bv[k];
    if (g->space.v_fixed > g->space.vmax) g->space.vmax = g->space.v_fixed;
    NOCSIM_ASSERT(g->space.vmin <= g->space.vmax && g->space.v_fixed <= g->space.vmax,
                  "ranges: vmin <= vmax, and the fixed interval within");
    return 0;
}

/* The optima in order of their stacking duration, distinct ones first: a
 * scheme whose optimum has the same duration at the same interval as a
 * better one's is taken for a duplicate (e.g. every scheme when no port ever
 * chooses between two VCs, as in bcmp).  Returns the distinct count. */
static int seed_order(const optima *o, int *order)
{
    int ns = o->ns;
    for (int k = 0; k < ns; k++) order[k] = k;
    for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && o->bd[order[j]] < o->bd[order[j - 1]]; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    int nd = 0, dup[VCSEL_NSCHEMES], ndup = 0;
    for (int i = 0; i < ns; i++) {
        int s = order[i], same = 0;
        for (int j = 0; j < nd; j++)
            if (o->bd[order[j]] == o->bd[s] && o->bv[order[j]] == o->bv[s]) same = 1;
        if (same) dup[ndup++] = s;
        else order[nd++] = s;
    }
    for (int i = 0; i < ndup; i++) order[nd + i] = dup[i];
    return nd;
}

/* The first population [R-GA-SEED-1]: the paper's GA at random; the local
 * search with each distinct optimum seeding one lineage as it is and the
 * other lineages as mutated copies of them, never as clones (the stacking
 * optimum can be a strict local minimum that no lineage started on it
 * leaves, data/ga_study.md); --start timetable then improves on them. */
static int seed_population(ga *g, const optima *o, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int order[VCSEL_NSCHEMES], nd = seed_order(o, order);
    for (int k = 0; k < gp->pop; k++) {
        sim_config *c = g->pop[k];
        if (gp->algo == GA_ALGO_PAPER) {
            ga_init_random(c, &g->space, &g->rng);
            continue;
        }
        int s = order[k % nd];
        ga_init_random(c, &(ga_space){ .genes = 0, .v_fixed = (gp->genes & GENE_V) ? o->bv[s] : g->space.v_fixed,
                                        .c_fixed = o->schemes[s] }, &g->rng);
        if (k >= nd) ga_mutate_moves(g, c, 1 + (int)rng_below(&g->rng, (uint32_t)gp->max_genes), NULL);
    }
    if (gp->algo == GA_ALGO_LOCAL && gp->start == GA_START_TIMETABLE)
        return ga_timetable_start(g, o->bd[order[0]], err, errlen);
    return 0;
}

/* Every slot's chromosome run and offered to the records. */
static void evaluate_population(ga *g)
{
    int P = g->gp.pop;
    for (int k = 0; k < P; k++) g->jobs[k] = ga_parent_job(g, k);
    ga_evaluate(g, P);
    for (int k = 0; k < P; k++) {
        g->pop_m[k] = g->jobs[k].m;
        ga_parent_runs_ran(g, k, &g->pop_m[k]);
        g->score[k] = ga_score(&g->gp, &g->pop_m[k]);
        g->age[k] = 0;
        g->kind[k] = KIND_NONE;
        ga_consider(g, g->pop[k], &g->pop_m[k], g->score[k]);
    }
}

int ga_start(ga *g, char *err, size_t errlen)
{
    g->t_start = ga_now_seconds();
    optima o;
    int rc = ranges(g, err, errlen);
    if (!rc) rc = baselines(g, &o, err, errlen);
    if (!rc) rc = seed_population(g, &o, err, errlen);
    if (rc) return rc;
    evaluate_population(g);
    if (g->db && store_run_set_baselines(g->db, g->run, g->base_stack, g->base_nonsplit, err, errlen) != STORE_OK)
        return -FAULT_IO;
    return ga_persist(g, 1, err, errlen);
}
