/* The GA's generation loop (see ga.h for the two algorithms), and the
 * run's life around it: ga_new, ga_resume, the accessors.  It stands on
 * core.c (what the loop and the modes share), alloc.c (construction),
 * start.c (ga_start), the modes -- parent_runs.c (tails, proven repeats),
 * speculate.c, children.c, perturb.c -- record.c (the record) and
 * persist.c (the store transactions); none of them calls back into it. */
#include "ga/ga.h"

#include <stdlib.h>
#include <string.h>

#include "ga/checkpoint.h"
#include "ga/ga_internal.h"
#include "util/invariant.h"

#define SCORE_INF GA_SCORE_INF

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

static void reinit(ga *g, sim_config *c)
{
    if (g->gp.algo == GA_ALGO_PAPER) {
        ga_init_random(c, &g->space, &g->rng);
    } else {
        sim_config_copy(c, g->best);
        ga_mutate_moves(g, c, g->gp.max_genes, NULL);
    }
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
    ga_evaluate(g, nj);
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
                                  g->rp.cdec ? g->rp.cdec[k] : NULL, g->rp.patch ? g->rp.patch[k] : NULL);
        proven += !g->jobs[k].cfg;
    }
    ga_evaluate(g, ga_extra_jobs(g, P));
    g->evals -= proven;
    g->rp.repeats += proven;
}

/* One generation: the children (the next speculated one, or made and
 * evaluated here, the best of C kept), each offered to the records and
 * taking its parent's place when no worse (local) or better (paper; a paper
 * crossover child always); then the restarts (a paper clone of a recorded
 * best, --lifetime, --watchdog) re-initialise slots, any new parent voids
 * the speculated children, and the generation is written. */
/* [R-GA-ACC-1]; under the local algorithm it reads only the slot's score
 * (speculate.c asks it on a pool thread while kind[] is being written). */
int ga_accepts(const ga *g, int k, int64_t sc)
{
    if (g->gp.algo != GA_ALGO_PAPER) return sc <= g->score[k];
    return g->kind[k] == KIND_CROSS || sc < g->score[k];
}

int ga_budget_spent(const ga_params *gp, int64_t evals) { return gp->max_evals > 0 && evals >= gp->max_evals; }

int ga_step(ga *g, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int P = gp->pop;
    if (g->generation >= gp->generations || ga_budget_spent(gp, g->evals)) {
        ga_spec_void(g); /* nothing runs on once the search ends */
        return 0;
    }
    g->generation++;
    g->new_best = 0;
    ga_parent_runs_record(g);   /* the delta records of the slots that changed */
    /* Speculation hands the other threads the next generations' children:
     * in batches of a child per thread, or with delta runs, whose children
     * on their cone (0.3 ms) are shorter than a sleeping thread takes to
     * wake, offered one at a time to spinning threads
     * (data/delta_ceiling.md). */
    if (g->spec.depth && g->rp.rec) {
        ga_spec_take_ahead(g);
    } else if (g->spec.depth) {
        ga_spec_take(g);
    } else {
        ga_make_children(g);
        evaluate_children(g);
        if (gp->children > 1) ga_extra_keep_best(g);
    }
    for (int k = 0; g->rp.rec && k < P; k++) g->rp.cones += g->jobs[k].cone;
    for (int k = 0; k < P; k++) {
        int64_t sc = ga_score(gp, &g->jobs[k].m);
        const int accept = ga_accepts(g, k, sc);
        NOCSIM_ASSERT(accept || !ga_spec_kept(g), "speculation: a kept repeat is accepted");
        const int extra = gp->children > 1 && g->kind[k] == KIND_MUTATE;
        if (accept) {
            /* The parent changes; a kept repeat's score is the parent's, and
             * the offered children read it on other threads. */
            if (!ga_spec_kept(g)) ga_spec_void(g);
            NOCSIM_ASSERT(!ga_spec_kept(g) || sc == g->score[k], "speculation: a kept repeat scores as its parent");
            sim_config *t = g->pop[k]; g->pop[k] = g->child[k]; g->child[k] = t;
            ga_parent_runs_accept(g, k, &g->jobs[k]);
            if (g->score[k] != sc) g->score[k] = sc;
            g->pop_m[k] = g->jobs[k].m;
            g->age[k] = 0;
            ga_spec_refill(g); /* before the records: they change nothing it reads */
        } else {
            g->age[k]++;
        }
        const sim_config *taken = accept ? g->pop[k] : g->child[k];
        int clone = extra ? g->ex.clone[k] : ga_consider(g, taken, &g->jobs[k].m, sc);
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
    if (!more) ga_spec_void(g);
    int rc = ga_persist(g, !more, err, errlen);
    return rc ? rc : more;
}

/* ---- accessors ----------------------------------------------------------- */

const sim_config *ga_best(const ga *g, sim_metrics *m, uint32_t *crc)
{
    if (m) *m = g->best_m;
    /* A lean search kept the metrics its score reads: the rest from a run
     * of the best of its own (ga_consider). */
    if (m && g->full && g->best_score < SCORE_INF) {
        sim_run(g->full, g->best, m);
        NOCSIM_ASSERT(m->duration == g->best_m.duration, "ga_best: the full run repeats the search's");
    }
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

int ga_set_delta(ga *g, ga_delta_rule delta, char *err, size_t errlen)
{
    ga_spec_void(g); /* the children queued were made for the other way */
    if (ga_parent_runs_delta(g, delta == GA_DELTA_ON, err, errlen)) return -FAULT_RESOURCE;
    g->gp.delta = delta;
    return 0;
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
