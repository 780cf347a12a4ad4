/* The GA: construction, the start (ranges, baselines, the first
 * population) and the generation loop (see ga.h for the two algorithms).
 * Each mode keeps its state and code in its own file (ga_internal.h):
 * parent_runs.c (tails, proven repeats), speculate.c, children.c,
 * perturb.c; record.c keeps the record and the store transactions,
 * params.c the parameters. */
#include "ga/ga.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ga/chrom.h"
#include "ga/checkpoint.h"
#include "ga/floor.h"
#include "ga/ga_internal.h"
#include "ga/timetable.h"
#include "sim/stacking.h"

#define SCORE_INF GA_SCORE_INF

double ga_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- construction ------------------------------------------------------- */

sim_config *ga_new_config(const ga *g) { return sim_config_new(g->nodes, g->sp.vcs, 0, g->sp.flits); }

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
    if (!(g->best = ga_new_config(g))) goto oom;
    /* The modes that the parameters ask for (each allocates nothing otherwise). */
    if (ga_parent_runs_alloc(g) || ga_perturb_alloc(g) || ga_extra_alloc(g) || ga_spec_alloc(g)) goto oom;
    if (!(g->eff = ga_effective_new(sp, dest))) goto oom;
    if ((g->floor = ga_floor(sp, dest)) < 0) goto oom;
    if (!(g->pool = sim_pool_new(sp, dest, gp->threads, kind, err, errlen))) { ga_free(g); return NULL; }
    sim_params one = *sp;
    one.slices = 1;
    if (!(g->single = sim_new(&one, dest, kind, err, errlen))) { ga_free(g); return NULL; }
    rng_seed(&g->rng, gp->seed);
    g->best_score = SCORE_INF;
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
    free(g);
}

ga *ga_new(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
           store *db, const char *version, const char *params_json, fault_kind *kind, char *err, size_t errlen)
{
    ga *g = ga_alloc(gp, sp, dest, traffic_name, kind, err, errlen);
    if (!g) return NULL;
    g->db = db;
    if (db) {
        char genes[8];
        store_run r = store_run_init("ga");
        r.version = version;
        r.seed = gp->seed;
        r.traffic = traffic_name;
        r.size = sp->n;
        r.slices = sp->slices;
        r.flits = sp->flits;
        r.genes = ga_genes_name(gp->genes, genes);
        r.algorithm = ga_algo_names[gp->algo];
        r.params = params_json;
        /* The run and its first checkpoint (taken before ga_start) appear
         * together: a run killed at any later moment can be resumed. */
        g->t_start = ga_now_seconds();
        uint8_t *blob = NULL;
        size_t len = 0;
        int ok = store_begin(db, err, errlen) == STORE_OK;
        ok = ok && store_run_create(db, &r, err, errlen) == STORE_OK;
        g->run = r.id;
        int saved = ok ? ga_checkpoint_save(g, &blob, &len, err, errlen) : 0;
        ok = ok && saved == 0;
        ok = ok && store_checkpoint_put(db, g->run, 0, blob, len, err, errlen) == STORE_OK;
        ok = ok && store_commit(db, err, errlen) == STORE_OK;
        free(blob);
        if (!ok) {
            fault_set(kind, saved ? fault_of(saved) : store_last_kind(db));
            (void)!store_rollback(db, NULL, 0);   /* report the first failure; store_close rolls back */
            ga_free(g);
            return NULL;
        }
    }
    return g;
}

/* ---- the generation loop ------------------------------------------------- */

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

static void reinit(ga *g, sim_config *c)
{
    if (g->gp.algo == GA_ALGO_PAPER) {
        ga_init_random(c, &g->space, &g->rng);
    } else {
        sim_config_copy(c, g->best);
        ga_mutate_moves(g, c, g->gp.max_genes, NULL);
    }
}

static void evaluate(ga *g, int count)
{
    sim_pool_run(g->pool, g->jobs, count);
    g->evals += count;
}

/* Evaluate the slots marked for re-initialisation (kind == KIND_REINIT). */
static void run_reinits(ga *g)
{
    int nj = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->kind[k] == KIND_REINIT) {
            reinit(g, g->pop[k]);
            g->jobs[nj++] = ga_parent_job(g, k);
        }
    if (!nj) return;
    evaluate(g, nj);
    nj = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->kind[k] == KIND_REINIT) {
            g->pop_m[k] = g->jobs[nj++].m;
            g->score[k] = ga_score(&g->gp, &g->pop_m[k]);
            g->age[k] = 0;
            g->kind[k] = KIND_NONE;
            ga_parent_runs_ran(g, k, &g->pop_m[k]);
            ga_consider(g, g->pop[k], &g->pop_m[k], g->score[k]);
        }
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

sim_job ga_child_job(const ga *g, int k, const sim_config *c, int64_t *tails, sim_decisions *dec)
{
    if (g->rp.dec && g->rp.repeat[k]) return (sim_job){ .cfg = NULL, .m = g->pop_m[k] };
    return (sim_job){ .cfg = c, .cutoff = ga_child_cutoff(g, k), .tails = tails, .dec = dec };
}

/* Evaluate every child into g->jobs[k].m: the proven repeats without a
 * run, the others with the extra children (--children), or each at several
 * intervals (--perturb, perturb.c). */
static void evaluate_children(ga *g)
{
    int P = g->gp.pop, proven = 0;
    if (g->gp.perturb > 0 && (g->gp.genes & GENE_V)) {
        ga_perturb_evaluate(g);
        return;
    }
    for (int k = 0; k < P; k++) {
        g->jobs[k] = ga_child_job(g, k, g->child[k], g->tl.ctails ? g->tl.ctails[k] : NULL,
                                  g->rp.cdec ? g->rp.cdec[k] : NULL);
        proven += !g->jobs[k].cfg;
    }
    evaluate(g, ga_extra_jobs(g, P));
    g->evals -= proven;
    g->rp.repeats += proven;
}

/* One generation: the children (the next speculated one, or made and
 * evaluated here, the best of C kept), each offered to the records and
 * taking its parent's place when no worse (local) or better (paper; a paper
 * crossover child always); then the restarts (a paper clone of a recorded
 * best, --lifetime, --watchdog) re-initialise slots, any new parent voids
 * the speculated children, and the generation is written. */
int ga_budget_spent(const ga_params *gp, int64_t evals) { return gp->max_evals > 0 && evals >= gp->max_evals; }

int ga_step(ga *g, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int P = gp->pop;
    if (g->generation >= gp->generations || ga_budget_spent(gp, g->evals)) return 0;
    g->generation++;
    g->new_best = 0;
    if (g->spec.depth) {
        ga_spec_take(g);
    } else {
        ga_make_children(g);
        evaluate_children(g);
        if (gp->children > 1) ga_extra_keep_best(g);
    }
    for (int k = 0; k < P; k++) {
        int64_t sc = ga_score(gp, &g->jobs[k].m);
        int accept;
        if (g->kind[k] == KIND_CROSS && gp->algo == GA_ALGO_PAPER) accept = 1;
        else if (gp->algo == GA_ALGO_PAPER) accept = sc < g->score[k];
        else accept = sc <= g->score[k];
        int clone = gp->children > 1 && g->kind[k] == KIND_MUTATE ? g->ex.clone[k]
                                                                  : ga_consider(g, g->child[k], &g->jobs[k].m, sc);
        if (accept) {
            ga_spec_void(g); /* the parent changes */
            sim_config *t = g->pop[k]; g->pop[k] = g->child[k]; g->child[k] = t;
            ga_parent_runs_accept(g, k, &g->jobs[k]);
            g->score[k] = sc;
            g->pop_m[k] = g->jobs[k].m;
            g->age[k] = 0;
        } else {
            g->age[k]++;
        }
        /* Paper: a chromosome that repeats a recorded best signature is re-initialised. */
        g->kind[k] = (clone && accept && gp->algo == GA_ALGO_PAPER) ? KIND_REINIT : KIND_NONE;
    }
    g->since_best = g->new_best ? 0 : g->since_best + 1;
    if (gp->lifetime > 0)
        for (int k = 0; k < P; k++)
            if (g->age[k] >= gp->lifetime) g->kind[k] = KIND_REINIT;
    if (gp->watchdog > 0 && g->since_best >= gp->watchdog) {
        for (int k = 0; k < P; k++) g->kind[k] = KIND_REINIT;
        g->since_best = 0;
    }
    for (int k = 0; k < P; k++)
        if (g->kind[k] == KIND_REINIT) ga_spec_void(g); /* a new parent */
    run_reinits(g);
    /* At the floor nothing can be better. */
    int at_bound = gp->fitness == GA_FIT_DURATION && g->best_score < SCORE_INF && g->best_m.duration <= g->floor;
    int more = g->generation < gp->generations && !ga_budget_spent(gp, g->evals) && !at_bound;
    int rc = ga_persist(g, !more, err, errlen);
    return rc ? rc : more;
}

/* ---- start: ranges, baselines, initial population -------------------------- */

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
    sim_config *c = sim_config_new(g->nodes, p.vcs, 0, (uint32_t)p.flits);
    if (s && !c) snprintf(err, errlen, "out of memory for the non-split baseline");
    if (!s || !c) { sim_free(s); sim_config_free(c); return fault_rc(kind); }
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

int ga_start(ga *g, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int P = gp->pop, L = g->sp.flits;
    g->t_start = ga_now_seconds();

    /* Ranges from a first single-slice run with random schemes and I = 0. */
    sim_config *c0 = g->child[0];
    sim_config *def = sim_config_new(g->nodes, g->sp.vcs, 0, (uint32_t)L);
    if (!def) return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
    sim_config_copy(c0, def);
    sim_config_free(def);
    for (int k = 0; k < g->nodes * NPORTS; k++) c0->scheme[k] = (uint8_t)rng_below(&g->rng, VCSEL_NSCHEMES);
    sim_metrics m0;
    sim_run(g->single, c0, &m0);
    g->evals++;
    g->t_d0 = m0.duration;
    g->t_e0 = m0.te;
    g->space.genes = gp->genes;
    g->space.vmin = (uint32_t)L;
    g->space.vmax = (uint32_t)(g->t_e0 - L > L ? g->t_e0 - L : L);
    g->space.imax = (uint16_t)(g->t_d0 - L > 0 ? (g->t_d0 - L > 65535 ? 65535 : g->t_d0 - L) : 0);
    g->space.c_fixed = gp->arb;

    /* Baselines; the stacking optima also seed the local search. */
    int schemes[VCSEL_NSCHEMES], ns = 0;
    if (gp->genes & GENE_C) for (int k = 0; k < VCSEL_NSCHEMES; k++) schemes[ns++] = k;
    else schemes[ns++] = gp->arb;
    uint32_t bv[VCSEL_NSCHEMES];
    int64_t bd[VCSEL_NSCHEMES];
    int rc = stacking(g, schemes, ns, bv, bd, err, errlen);
    if (rc) return rc;
    int bestk = 0;
    for (int k = 1; k < ns; k++) if (bd[k] < bd[bestk]) bestk = k;
    g->base_scheme = schemes[bestk];
    g->base_interval = bv[bestk];
    g->base_stack = bd[bestk] >= SCORE_INF ? -1 : bd[bestk];
    if ((rc = nonsplit(g, &g->base_nonsplit, err, errlen))) return rc;
    g->space.v_fixed = gp->interval ? gp->interval : g->base_interval;
    for (int k = 0; k < ns; k++) if (bv[k] > g->space.vmax) g->space.vmax = bv[k];
    if (g->space.v_fixed > g->space.vmax) g->space.vmax = g->space.v_fixed;

    /* Seeds in order of their stacking duration. */
    int seed_order[VCSEL_NSCHEMES];
    for (int k = 0; k < ns; k++) seed_order[k] = k;
    for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && bd[seed_order[j]] < bd[seed_order[j - 1]]; j--) {
            int t = seed_order[j]; seed_order[j] = seed_order[j - 1]; seed_order[j - 1] = t;
        }
    /* Distinct seeds first: a scheme whose optimum has the same duration at
     * the same interval as a better one's is taken for a duplicate (e.g. every
     * scheme when no port ever chooses between two VCs, as in bcmp).  Each
     * distinct optimum seeds one lineage as it is; the other lineages start as
     * mutated copies of them, never as clones: the stacking optimum can be a
     * strict local minimum that no lineage started on it leaves
     * (data/ga_study.md). */
    int nd = 0, dup[VCSEL_NSCHEMES], ndup = 0;
    for (int i = 0; i < ns; i++) {
        int s = seed_order[i], same = 0;
        for (int j = 0; j < nd; j++)
            if (bd[seed_order[j]] == bd[s] && bv[seed_order[j]] == bv[s]) same = 1;
        if (same) dup[ndup++] = s;
        else seed_order[nd++] = s;
    }
    for (int i = 0; i < ndup; i++) seed_order[nd + i] = dup[i];
    for (int k = 0; k < P; k++) {
        sim_config *c = g->pop[k];
        if (gp->algo == GA_ALGO_PAPER) {
            ga_init_random(c, &g->space, &g->rng);
            continue;
        }
        int s = seed_order[k % nd];
        ga_init_random(c, &(ga_space){ .genes = 0, .v_fixed = (gp->genes & GENE_V) ? bv[s] : g->space.v_fixed,
                                        .c_fixed = schemes[s] }, &g->rng);
        if (k >= nd) ga_mutate_moves(g, c, 1 + (int)rng_below(&g->rng, (uint32_t)gp->max_genes), NULL);
    }
    if (gp->algo == GA_ALGO_LOCAL && gp->start == GA_START_TIMETABLE) {
        int rc = ga_timetable_start(g, bd[seed_order[0]], err, errlen);
        if (rc) return rc;
    }
    for (int k = 0; k < P; k++) g->jobs[k] = ga_parent_job(g, k);
    evaluate(g, P);
    for (int k = 0; k < P; k++) {
        g->pop_m[k] = g->jobs[k].m;
        ga_parent_runs_ran(g, k, &g->pop_m[k]);
        g->score[k] = ga_score(gp, &g->pop_m[k]);
        g->age[k] = 0;
        g->kind[k] = KIND_NONE;
        ga_consider(g, g->pop[k], &g->pop_m[k], g->score[k]);
    }
    if (g->db && store_run_set_baselines(g->db, g->run, g->base_stack, g->base_nonsplit, err, errlen) != STORE_OK)
        return -FAULT_IO;
    return ga_persist(g, 1, err, errlen);
}

/* ---- accessors ----------------------------------------------------------- */

void ga_get_progress(const ga *g, ga_progress *p)
{
    p->generation = g->generation;
    p->evals = g->evals;
    p->repeats = g->rp.repeats;
    p->best_score = g->best_score;
    p->best_duration = g->best_score < SCORE_INF ? g->best_m.duration : -1;
    double sum = 0;
    int cnt = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->score[k] < SCORE_INF) { sum += (double)g->pop_m[k].duration; cnt++; }
    p->average = cnt ? sum / cnt : 0;
    p->elapsed = g->elapsed_before + (ga_now_seconds() - g->t_start);
}

const sim_config *ga_best(const ga *g, sim_metrics *m, uint32_t *crc)
{
    if (m) *m = g->best_m;
    if (crc) *crc = g->best_crc;
    return g->best;
}

int64_t ga_run_id(const ga *g) { return g->run; }
int64_t ga_get_floor(const ga *g) { return g->floor; }
const char *ga_traffic_name(const ga *g) { return g->traffic; }
int64_t ga_synonyms(const ga *g) { return g->best_score < SCORE_INF ? g->rec.synonyms + 1 : 0; }
const ga_params *ga_get_params(const ga *g) { return &g->gp; }
const sim_params *ga_get_sim_params(const ga *g) { return &g->sp; }

void ga_baselines(const ga *g, int *scheme, uint32_t *interval, int64_t *stacking_d, int64_t *nonsplit_d)
{
    if (scheme) *scheme = g->base_scheme;
    if (interval) *interval = g->base_interval;
    if (stacking_d) *stacking_d = g->base_stack;
    if (nonsplit_d) *nonsplit_d = g->base_nonsplit;
}

ga *ga_resume(store *db, int64_t run, int threads, fault_kind *kind, char *err, size_t errlen)
{
    int64_t generation;
    uint8_t *blob = NULL;
    size_t len = 0;
    int rc = store_checkpoint_get(db, run, &generation, &blob, &len, err, errlen);
    if (rc == STORE_NOTFOUND) {
        fault_set(kind, FAULT_INPUT);   /* the run the user named cannot be resumed */
        return snprintf(err, errlen, "run %lld has no checkpoint to resume from", (long long)run), NULL;
    }
    if (rc != STORE_OK) return fault_set(kind, store_last_kind(db)), NULL;
    char why[384];
    ga *g = ga_checkpoint_load(blob, len, threads, kind, why, sizeof why);
    free(blob);
    if (!g) return snprintf(err, errlen, "%s: run %lld: %s", store_path(db), (long long)run, why), NULL;
    g->db = db;
    g->run = run;
    g->t_start = ga_now_seconds();
    /* Killed before its start was recorded: start it now, as it would have. */
    if (!g->space.genes && (rc = ga_start(g, err, errlen))) { ga_free(g); return fault_set(kind, fault_of(rc)), NULL; }
    ga_parent_runs_refresh(g);
    return g;
}
