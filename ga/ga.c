/* The GA generation loop, signatures and synonyms, and the record it keeps
 * in the store (see ga.h for the two algorithms). */
#include "ga/ga.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ga/chrom.h"
#include "ga/checkpoint.h"
#include "ga/floor.h"
#include "ga/ga_internal.h"
#include "sim/stacking.h"

const char *const ga_algo_names[] = { "local", "paper" };
const char *const ga_fitness_names[] = { "duration", "estimate", "te" };
const char *const ga_weight_names[] = { "genes", "groups", "mix" };
const char *const ga_ties_names[] = { "random", "age" };
const char *const ga_record_names[] = { "all", "sparse" };
const char *const ga_key_names[] = { "none", "or", "ob", "te", "te-rev", "tb", "lb", "late", "late-lb", "tail", "late3", "late-sum" };

#define SCORE_INF GA_SCORE_INF

void ga_params_for_algo(ga_params *gp, ga_algo algo)
{
    gp->algo = algo;
    if (algo == GA_ALGO_PAPER) {
        gp->pop = 50;
        gp->children = 1;
        gp->generations = 1000;
        gp->sort_key = GA_KEY_NONE;
        gp->shift = 0;
        gp->target = 0;
        gp->record = GA_RECORD_ALL;
        gp->max_evals = 0;
    } else {
        /* The paper's budget, 50,000 simulations (children proven to repeat
         * their parent are not simulations, so it is more generations), in
         * one lineage that keeps every child no worse than itself (one a
         * generation: two, which would keep two cores busy, lose on most
         * patterns); equal durations ordered by the packets that finish in
         * the last cycle, then the second and third last (tail); groups of
         * genes drawn by the fixed mix; a third of the children aimed at a
         * late packet; no line shifts (data/ga_study.md says why). */
        gp->pop = 1;
        gp->children = 1;
        gp->generations = GA_COUNT_MAX;
        gp->max_evals = GA_BUDGET;
        gp->sort_key = GA_KEY_TAIL;
        gp->weights = GA_WEIGHT_MIX;
        gp->shift = 0;
        gp->target = 0.3;
        gp->record = GA_RECORD_SPARSE;
    }
}

void ga_params_default(ga_params *gp)
{
    memset(gp, 0, sizeof *gp);
    gp->algo = GA_ALGO_LOCAL;
    gp->pop = 50;
    gp->children = 1;
    gp->generations = 1000;
    gp->train = 100;
    gp->mutation = 0.05;
    gp->max_genes = 8;
    gp->target_window = 3;
    gp->crossover_interval = 10;
    gp->crossover_rate = 0.4;
    gp->ties = GA_TIES_RANDOM;
    gp->watchdog = 0;
    gp->lifetime = 0;
    gp->genes = GENE_ALL;
    gp->arb = 0;
    gp->stack_vmax = SIM_STACK_VMAX_DEFAULT;
    gp->sort_key = GA_KEY_NONE;
    gp->fitness = GA_FIT_DURATION;
    gp->estimate_slices = 2;
    gp->perturb = 0;
    gp->threads = 1;
    gp->seed = 1;
}

int ga_params_check(const ga_params *gp, char *err, size_t errlen)
{
    if (gp->pop < GA_POP_MIN || gp->pop > GA_POP_MAX)
        return snprintf(err, errlen, "--pop %d: must be in [%d, %d]", gp->pop, GA_POP_MIN, GA_POP_MAX), -1;
    if (gp->generations < 0) return snprintf(err, errlen, "--generations %d: must be >= 0", gp->generations), -1;
    if (gp->train < 0) return snprintf(err, errlen, "--train %d: must be >= 0", gp->train), -1;
    if (!(gp->mutation >= GA_MUTATION_MIN && gp->mutation <= 1))
        return snprintf(err, errlen, "--mutation %g: must be in [%g, 1]", gp->mutation, GA_MUTATION_MIN), -1;
    if (gp->max_genes < 1 || gp->max_genes > GA_MAX_GENES_MAX)
        return snprintf(err, errlen, "--max-genes %d: must be in [1, %d]", gp->max_genes, GA_MAX_GENES_MAX), -1;
    if (gp->crossover_rate < 0 || gp->crossover_rate > 1) return snprintf(err, errlen, "--crossover-rate %g: must be in [0, 1]", gp->crossover_rate), -1;
    if (!(gp->shift >= 0 && gp->shift <= 1)) return snprintf(err, errlen, "--shift %g: must be in [0, 1]", gp->shift), -1;
    if (!(gp->target >= 0 && gp->target <= 1)) return snprintf(err, errlen, "--target %g: must be in [0, 1]", gp->target), -1;
    if (gp->target_window < 1 || gp->target_window > GA_TARGET_WINDOW_MAX)
        return snprintf(err, errlen, "--target-window %d: must be in [1, %d]", gp->target_window, GA_TARGET_WINDOW_MAX), -1;
    if (gp->watchdog > 0 && gp->lifetime > 0)
        return snprintf(err, errlen, "--watchdog and --lifetime exclude each other (set one of them to 0)"), -1;
    if (gp->genes == 0 || gp->genes > GENE_ALL) return snprintf(err, errlen, "--genes: need at least one of V,I,C,Q"), -1;
    if (gp->arb < 0 || gp->arb >= VCSEL_NSCHEMES) return snprintf(err, errlen, "--arb: must be C00-C09"), -1;
    if (gp->estimate_slices < 1 || gp->estimate_slices > SIM_MAX_SLICES)
        return snprintf(err, errlen, "--estimate-slices %d: must be in [1, %d]", gp->estimate_slices, SIM_MAX_SLICES), -1;
    if (gp->perturb < 0 || gp->perturb > GA_PERTURB_MAX)
        return snprintf(err, errlen, "--perturb %d: must be in [0, %d]", gp->perturb, GA_PERTURB_MAX), -1;
    if (gp->children < 1 || gp->children > GA_CHILDREN_MAX)
        return snprintf(err, errlen, "--children %d: must be in [1, %d]", gp->children, GA_CHILDREN_MAX), -1;
    if (gp->children > 1 && gp->perturb > 0)
        return snprintf(err, errlen, "--children %d and --perturb %d exclude each other (set --children 1 or --perturb 0)",
                        gp->children, gp->perturb), -1;
    return 0;
}

int ga_setup_check(const ga_params *gp, const sim_params *sp, char *err, size_t errlen)
{
    if (ga_params_check(gp, err, errlen) || sim_params_check(sp, err, errlen)) return -1;
    if (gp->interval && gp->interval < (uint32_t)sp->flits)
        return snprintf(err, errlen, "--interval: %u is below the packet length %d (allowed: >= %d)", gp->interval,
                        sp->flits, sp->flits), -1;
    return 0;
}

const char *ga_genes_name(unsigned genes, char *buf)
{
    const char *names = "VICQ";
    char *p = buf;
    for (int k = 0; k < 4; k++)
        if (genes & (1u << k)) {
            if (p != buf) *p++ = ',';
            *p++ = names[k];
        }
    *p = '\0';
    return buf;
}

void ga_params_json(const ga_params *gp, FILE *f)
{
    char genes[8];
    fprintf(f, "\"algo\": \"%s\", \"pop\": %d, \"children\": %d, \"generations\": %d, \"train\": %d, \"mutation\": %g, "
               "\"max_genes\": %d, \"weights\": \"%s\", \"shift\": %g, \"target\": %g, \"target_window\": %d, \"crossover_interval\": %d, \"crossover_rate\": %g, \"crossover_pairs\": %d, "
               "\"ties\": \"%s\", \"watchdog\": %d, \"lifetime\": %d, \"genes\": \"%s\", \"arb\": \"%s\", "
               "\"interval\": %u, \"stack_vmax\": %d, \"sort_key\": \"%s\", \"record\": \"%s\", \"fitness\": \"%s\", \"estimate_slices\": %d, "
               "\"perturb\": %d, \"max_evals\": %lld, \"ga_seed\": %llu",
            ga_algo_names[gp->algo], gp->pop, gp->children, gp->generations, gp->train, gp->mutation, gp->max_genes,
            ga_weight_names[gp->weights], gp->shift, gp->target, gp->target_window,
            gp->crossover_interval, gp->crossover_rate, gp->crossover_pairs, ga_ties_names[gp->ties],
            gp->watchdog, gp->lifetime, ga_genes_name(gp->genes, genes), vcsel_name(gp->arb), gp->interval,
            gp->stack_vmax, ga_key_names[gp->sort_key], ga_record_names[gp->record], ga_fitness_names[gp->fitness], gp->estimate_slices,
            gp->perturb, (long long)gp->max_evals, (unsigned long long)gp->seed);
}

int64_t ga_score(const ga_params *gp, const sim_metrics *m)
{
    if (m->status != SIM_OK) return SCORE_INF;
    int64_t primary = m->duration, sec = 0;
    if (gp->fitness == GA_FIT_ESTIMATE) primary = m->te * (gp->estimate_slices - 1) + m->duration;
    else if (gp->fitness == GA_FIT_TE) primary = m->te;
    switch (gp->sort_key) {
    case GA_KEY_OR:     sec = m->or_; break;
    case GA_KEY_OB:     sec = m->ob; break;
    case GA_KEY_TE:     sec = m->te; break;
    case GA_KEY_TE_REV: sec = ((int64_t)1 << GA_KEY_BITS) - 1 - m->te; break;
    case GA_KEY_TB:     sec = m->ib + m->ob; break;
    case GA_KEY_LB:     sec = m->lb; break;
    case GA_KEY_LATE:   sec = m->late; break;
    case GA_KEY_LATE_LB: sec = (m->late < 255 ? m->late : 255) << 16 | (m->lb < 65535 ? m->lb : 65535); break;
    case GA_KEY_TAIL:   sec = m->tail_profile; break;
    case GA_KEY_LATE3:  sec = (m->tail_profile >> 16 & 255) + (m->tail_profile >> 8 & 255) + (m->tail_profile & 255); break;
    case GA_KEY_LATE_SUM: sec = m->late_sum; break;
    default:            sec = 0; break;
    }
    if (sec < 0) sec = 0;
    if (sec >= ((int64_t)1 << GA_KEY_BITS)) sec = ((int64_t)1 << GA_KEY_BITS) - 1;
    /* Metrics (from a checkpoint, say) too large to shift are no better than a failure. */
    if (primary < 0 || primary >= (SCORE_INF >> GA_KEY_BITS)) return SCORE_INF;
    return (primary << GA_KEY_BITS) | sec;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- construction ------------------------------------------------------- */

static sim_config *new_config(const ga *g) { return sim_config_new(g->nodes, g->sp.vcs, 0, g->sp.flits); }

/* The parts of a GA that only some parameters need.  Each returns 0, or -1
 * when out of memory (ga_free frees what was allocated). */

/* Tail cycles only where a targeted move reads them. */
static int alloc_tails(ga *g)
{
    size_t P = (size_t)g->gp.pop;
    if (g->gp.target <= 0) return 0;
    g->npk = (int64_t)g->nodes * g->sp.slices;
    g->tails = calloc(P, sizeof *g->tails);
    g->ctails = calloc(P, sizeof *g->ctails);
    g->tails_ok = calloc(P, 1);
    if (!g->tails || !g->ctails || !g->tails_ok) return -1;
    for (size_t k = 0; k < P; k++)
        if (!(g->tails[k] = malloc(sizeof **g->tails * (size_t)g->npk)) ||
            !(g->ctails[k] = malloc(sizeof **g->ctails * (size_t)g->npk)))
            return -1;
    return 0;
}

/* Decisions where one child a generation is made by moving genes: per
 * slot, per child and per speculated child (after alloc_speculation). */
static int alloc_decisions(ga *g)
{
    const ga_params *gp = &g->gp;
    if (!(gp->algo == GA_ALGO_LOCAL && gp->children == 1 && gp->perturb == 0)) return 0;
    size_t P = (size_t)gp->pop, K = (size_t)g->spec_depth;
    g->dec = calloc(P, sizeof *g->dec);
    g->cdec = calloc(P, sizeof *g->cdec);
    g->repeat = calloc(P, 1);
    if (!g->dec || !g->cdec || !g->repeat) return -1;
    for (size_t k = 0; k < P; k++)
        if (!(g->dec[k] = sim_decisions_new(&g->sp)) || !(g->cdec[k] = sim_decisions_new(&g->sp))) return -1;
    if (!K) return 0;
    g->spec_dec = calloc(K, sizeof *g->spec_dec);
    g->spec_repeat = calloc(K, 1);
    if (!g->spec_dec || !g->spec_repeat) return -1;
    for (size_t j = 0; j < K; j++)
        if (!(g->spec_dec[j] = sim_decisions_new(&g->sp))) return -1;
    return 0;
}

/* --perturb K: 2K + 1 configurations per child. */
static int alloc_perturbed(ga *g)
{
    if (g->gp.perturb <= 0) return 0;
    size_t PW = (size_t)g->gp.pop * (size_t)(2 * g->gp.perturb + 1);
    g->pert = calloc(PW, sizeof *g->pert);
    g->pert_jobs = calloc(PW, sizeof *g->pert_jobs);
    if (!g->pert || !g->pert_jobs) return -1;
    for (size_t k = 0; k < PW; k++)
        if (!(g->pert[k] = new_config(g))) return -1;
    return 0;
}

/* --children C > 1: C - 1 further children per slot (after alloc_tails). */
static int alloc_extra_children(ga *g)
{
    if (g->gp.children <= 1) return 0;
    size_t E = (size_t)g->gp.pop * (size_t)(g->gp.children - 1);
    g->extra = calloc(E, sizeof *g->extra);
    g->etails = calloc(E, sizeof *g->etails);
    g->kept_clone = calloc((size_t)g->gp.pop, sizeof *g->kept_clone);
    if (!g->extra || !g->etails || !g->kept_clone) return -1;
    for (size_t k = 0; k < E; k++)
        if (!(g->extra[k] = new_config(g)) ||
            (g->npk && !(g->etails[k] = malloc(sizeof **g->etails * (size_t)g->npk))))
            return -1;
    return 0;
}

/* One lineage of one child on several threads: speculate as deep as there
 * are threads (the perturbation's batches, several children and several
 * lineages use them already).  After alloc_tails. */
static int alloc_speculation(ga *g)
{
    const ga_params *gp = &g->gp;
    if (!(gp->pop == 1 && gp->children == 1 && gp->algo == GA_ALGO_LOCAL && gp->perturb == 0 && gp->threads > 1))
        return 0;
    int K = gp->threads < GA_SPEC_MAX ? gp->threads : GA_SPEC_MAX;
    g->spec = calloc((size_t)K, sizeof *g->spec);
    g->spec_tails = calloc((size_t)K, sizeof *g->spec_tails);
    g->spec_jobs = calloc((size_t)K, sizeof *g->spec_jobs);
    g->spec_rng = calloc((size_t)K, sizeof *g->spec_rng);
    g->spec_kind = calloc((size_t)K, sizeof *g->spec_kind);
    if (!g->spec || !g->spec_tails || !g->spec_jobs || !g->spec_rng || !g->spec_kind) return -1;
    g->spec_depth = K;
    for (int j = 0; j < K; j++) {
        if (!(g->spec[j] = new_config(g))) return -1;
        if (g->npk && !(g->spec_tails[j] = malloc(sizeof **g->spec_tails * (size_t)g->npk))) return -1;
    }
    return 0;
}

ga *ga_alloc(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
             char *err, size_t errlen)
{
    if (ga_params_check(gp, err, errlen) || sim_params_check(sp, err, errlen)) return NULL;
    ga *g = calloc(1, sizeof *g);
    if (!g) return snprintf(err, errlen, "out of memory"), NULL;
    g->gp = *gp;
    g->sp = *sp;
    g->n = sp->n;
    g->nodes = sp->n * sp->n;
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
    g->scratch = malloc(chrom_encoded_size(g->n, sp->vcs));
    if (!g->dest || !g->pop || !g->child || !g->score || !g->age || !g->kind || !g->pop_m || !g->jobs ||
        !g->order || !g->tiekey || !g->scratch)
        goto oom;
    memcpy(g->dest, dest, sizeof *g->dest * (size_t)g->nodes);
    for (size_t k = 0; k < P; k++)
        if (!(g->pop[k] = new_config(g)) || !(g->child[k] = new_config(g))) goto oom;
    if (!(g->best = new_config(g))) goto oom;
    if (alloc_tails(g) || alloc_perturbed(g) || alloc_extra_children(g) || alloc_speculation(g) || alloc_decisions(g))
        goto oom;
    if (!(g->eff = ga_effective_new(sp, dest))) goto oom;
    if ((g->floor = ga_floor(sp, dest)) < 0) goto oom;
    if (!(g->pool = sim_pool_new(sp, dest, gp->threads, err, errlen))) { ga_free(g); return NULL; }
    sim_params one = *sp;
    one.slices = 1;
    if (!(g->single = sim_new(&one, dest, err, errlen))) { ga_free(g); return NULL; }
    rng_seed(&g->rng, gp->seed);
    g->best_score = SCORE_INF;
    return g;
oom:
    snprintf(err, errlen, "out of memory for a population of %d on a %dx%d torus", gp->pop, sp->n, sp->n);
    ga_free(g);
    return NULL;
}

void ga_free(ga *g)
{
    if (!g) return;
    for (int k = 0; g->pop && k < g->gp.pop; k++) sim_config_free(g->pop[k]);
    for (int k = 0; g->child && k < g->gp.pop; k++) sim_config_free(g->child[k]);
    free(g->pop); free(g->child); free(g->score); free(g->age); free(g->kind); free(g->pop_m);
    free(g->jobs); free(g->order); free(g->tiekey); free(g->scratch); free(g->dest);
    if (g->pert)
        for (int k = 0; k < g->gp.pop * (2 * g->gp.perturb + 1); k++) sim_config_free(g->pert[k]);
    free(g->pert);
    free(g->pert_jobs);
    for (int j = 0; j < g->spec_depth; j++) {
        sim_config_free(g->spec[j]);
        free(g->spec_tails[j]);
        if (g->spec_dec) sim_decisions_free(g->spec_dec[j]);
    }
    free(g->spec_dec); free(g->spec_repeat);
    for (int k = 0; g->dec && k < g->gp.pop; k++) sim_decisions_free(g->dec[k]);
    for (int k = 0; g->cdec && k < g->gp.pop; k++) sim_decisions_free(g->cdec[k]);
    free(g->dec); free(g->cdec); free(g->repeat);
    free(g->spec); free(g->spec_tails); free(g->spec_jobs); free(g->spec_rng); free(g->spec_kind);
    for (int k = 0; g->extra && k < g->gp.pop * (g->gp.children - 1); k++) {
        sim_config_free(g->extra[k]);
        free(g->etails[k]);
    }
    free(g->extra); free(g->etails); free(g->kept_clone);
    for (int k = 0; g->tails && k < g->gp.pop; k++) free(g->tails[k]);
    for (int k = 0; g->ctails && k < g->gp.pop; k++) free(g->ctails[k]);
    free(g->tails);
    free(g->ctails);
    free(g->tails_ok);
    sim_config_free(g->best);
    ga_effective_free(g->eff);
    sim_pool_free(g->pool);
    sim_free(g->single);
    for (int k = 0; k < g->nrec; k++) free(g->recs[k].genes);
    free(g->recs);
    free(g->crcs);
    free(g);
}

ga *ga_new(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
           store *db, const char *version, const char *params_json, char *err, size_t errlen)
{
    ga *g = ga_alloc(gp, sp, dest, traffic_name, err, errlen);
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
        g->t_start = now_seconds();
        uint8_t *blob = NULL;
        size_t len = 0;
        int ok = store_begin(db, err, errlen) == STORE_OK;
        ok = ok && store_run_create(db, &r, err, errlen) == STORE_OK;
        g->run = r.id;
        ok = ok && ga_checkpoint_save(g, &blob, &len, err, errlen) == 0;
        ok = ok && store_checkpoint_put(db, g->run, 0, blob, len, err, errlen) == STORE_OK;
        ok = ok && store_commit(db, err, errlen) == STORE_OK;
        free(blob);
        if (!ok) {
            store_rollback(db, NULL, 0);
            ga_free(g);
            return NULL;
        }
    }
    return g;
}

/* ---- signatures ---------------------------------------------------------- */

static int crc_known(const ga *g, uint32_t crc)
{
    for (size_t k = 0; k < g->ncrc; k++)   /* a few hundred at most: a scan is fine */
        if (g->crcs[k] == crc) return 1;
    return 0;
}

static int crc_add(ga *g, uint32_t crc)
{
    if (g->ncrc == g->capcrc) {
        size_t cap = g->capcrc ? 2 * g->capcrc : 64;
        uint32_t *p = realloc(g->crcs, cap * sizeof *p);
        if (!p) return -1;
        g->crcs = p;
        g->capcrc = cap;
    }
    g->crcs[g->ncrc++] = crc;
    return 0;
}

/* Keep c for this generation's transaction, with its single-slice t_d, T_e. */
static int add_record(ga *g, const sim_config *c, const sim_metrics *m, int64_t score, uint32_t crc, int synonym)
{
    if (g->nrec == g->caprec) {
        int cap = g->caprec ? 2 * g->caprec : 16;
        ga_record *p = realloc(g->recs, (size_t)cap * sizeof *p);
        if (!p) return -1;
        g->recs = p;
        g->caprec = cap;
    }
    ga_record *r = &g->recs[g->nrec];
    r->len = chrom_encoded_size(g->n, g->sp.vcs);
    if (!(r->genes = malloc(r->len))) return -1;
    chrom_encode(c, g->n, r->genes);
    r->crc = crc;
    r->score = score;
    r->m = *m;
    sim_run(g->single, c, &r->m1);
    g->evals++;
    r->synonym = synonym;
    r->generation = g->generation;
    g->nrec++;
    return 0;
}

/* A newly evaluated chromosome: a new best, a synonym of the best, or
 * neither.  Returns 1 if it is a clone of a recorded best (same signature). */
static int consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score)
{
    if (score >= SCORE_INF || score > g->best_score) return 0;
    uint32_t crc = chrom_signature(c, g->n, g->scratch);
    if (score < g->best_score) {
        g->best_score = score;
        g->best_m = *m;
        g->best_crc = crc;
        sim_config_copy(g->best, c);
        g->synonyms = 0;
        g->syn_seen = 0;
        g->new_best = 1;
        if (!crc_known(g, crc)) {
            crc_add(g, crc);
            add_record(g, c, m, score, crc, 0);
        }
        return 0;
    }
    if (crc_known(g, crc)) return 1;
    /* Sparse: only the synonyms whose number (counting this score's synonyms
     * met, revisits of unrecorded ones included) is a power of two. */
    g->syn_seen++;
    if (g->gp.record == GA_RECORD_SPARSE && (g->syn_seen & (g->syn_seen - 1))) return 0;
    crc_add(g, crc);
    g->synonyms++;
    add_record(g, c, m, score, crc, 1);
    return 0;
}

/* ---- the generation loop ------------------------------------------------- */

/* A local mutation of k moves by the run's weighting.  The fixed mix is the
 * one of the independent implementation in issue 16 (data/ga_study.md).
 * tails: the parent's tail cycles, or NULL when they are not known (no
 * targeted move then). */
static void mutate_local(ga *g, sim_config *c, int k, const int64_t *tails)
{
    static const double mix[4] = { 0.05, 0.30, 0.20, 0.45 };
    /* With probability target the first move advances the source of a
     * packet that finished in the parent's last cycles (data/ga_study.md). */
    if (tails && g->gp.target > 0 && rng_unit(&g->rng) < g->gp.target &&
        ga_advance_late(c, &g->space, tails, g->npk, g->sp.slices, g->gp.target_window, &g->rng) && --k == 0)
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
        mutate_local(g, c, g->gp.max_genes, NULL);
    }
}

static void evaluate(ga *g, int count)
{
    sim_pool_run(g->pool, g->jobs, count);
    g->evals += count;
}

/* A full run of slot k's chromosome, keeping its tails and decisions. */
static sim_job parent_job(const ga *g, int k)
{
    return (sim_job){ .cfg = g->pop[k], .cutoff = 0, .tails = g->tails ? g->tails[k] : NULL,
                      .dec = g->dec ? g->dec[k] : NULL };
}

/* Evaluate the slots marked for re-initialisation (kind == KIND_REINIT). */
static void run_reinits(ga *g)
{
    int nj = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->kind[k] == KIND_REINIT) {
            reinit(g, g->pop[k]);
            g->jobs[nj++] = parent_job(g, k);
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
            if (g->tails) g->tails_ok[k] = g->pop_m[k].status == SIM_OK;
            consider(g, g->pop[k], &g->pop_m[k], g->score[k]);
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

/* Where slot k's j-th child (1..children-1) lives in extra and etails. */
static int extra_at(const ga *g, int k, int j) { return k * (g->gp.children - 1) + j - 1; }

static void make_children(ga *g)
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
            sim_config *c = j ? g->extra[extra_at(g, k, j)] : g->child[k];
            sim_config_copy(c, g->pop[k]);
            if (gp->algo == GA_ALGO_PAPER) ga_mutate_paper(c, &g->space, gp->mutation, &g->rng);
            else mutate_local(g, c, 1 + (int)rng_below(&g->rng, (uint32_t)gp->max_genes),
                              g->tails && g->tails_ok[k] ? g->tails[k] : NULL);
        }
    }
    for (int k = 0; g->dec && k < P; k++)
        g->repeat[k] = (uint8_t)sim_decisions_repeat(g->dec[k], g->pop[k], g->child[k]);
}


static int persist(ga *g, int force_checkpoint, char *err, size_t errlen);

/* Cutoff for a child of slot k: a child that cannot match its parent is
 * rejected whatever its exact duration, so its simulation may stop there.  A
 * paper crossover child replaces its parent unconditionally and needs its
 * full score, and scores that are not the duration allow no cutoff. */
static int64_t child_cutoff(const ga *g, int k)
{
    if (g->gp.fitness != GA_FIT_DURATION || g->score[k] >= SCORE_INF) return 0;
    if (g->kind[k] == KIND_CROSS && g->gp.algo == GA_ALGO_PAPER) return 0;
    return ga_score_primary(g->score[k]);
}

/* The job of child c of slot k, just made (repeat[k] is its verdict): a
 * run that keeps its tails and decisions where given, or, for a proven
 * repeat, the parent's results without a run (cfg NULL). */
static sim_job child_job(const ga *g, int k, const sim_config *c, int64_t *tails, sim_decisions *dec)
{
    if (g->dec && g->repeat[k]) return (sim_job){ .cfg = NULL, .m = g->pop_m[k] };
    return (sim_job){ .cfg = c, .cutoff = child_cutoff(g, k), .tails = tails, .dec = dec };
}

/* Evaluate every child into g->jobs[k].m.  With --perturb K each child runs
 * at V-K..V+K (within range) and keeps the best V (paper Sect. 7.1). */
static void evaluate_children(ga *g)
{
    int P = g->gp.pop, K = (g->gp.genes & GENE_V) ? g->gp.perturb : 0;
    if (K == 0 || !g->pert) {
        int C = g->gp.children, nj = P, proven = 0;
        for (int k = 0; k < P; k++) {
            g->jobs[k] = child_job(g, k, g->child[k], g->ctails ? g->ctails[k] : NULL, g->cdec ? g->cdec[k] : NULL);
            proven += !g->jobs[k].cfg;
        }
        for (int k = 0; k < P; k++)
            for (int j = 1; j < C && g->kind[k] == KIND_MUTATE; j++) {
                int e = extra_at(g, k, j);
                g->jobs[nj++] = (sim_job){ .cfg = g->extra[e], .cutoff = child_cutoff(g, k), .tails = g->etails[e] };
            }
        evaluate(g, nj);
        g->evals -= proven;
        g->repeats += proven;
        return;
    }
    int W = 2 * K + 1, nj = 0;
    for (int k = 0; k < P; k++)
        for (int j = 0; j < W; j++) {
            int64_t v = (int64_t)g->child[k]->interval - K + j;
            sim_config *c = g->pert[k * W + j];
            sim_config_copy(c, g->child[k]);
            c->interval = (uint32_t)(v < g->space.vmin ? g->space.vmin : v > g->space.vmax ? g->space.vmax : v);
            g->pert_jobs[nj++] = (sim_job){ .cfg = c, .cutoff = child_cutoff(g, k) };
        }
    sim_pool_run(g->pool, g->pert_jobs, nj);
    g->evals += nj;
    for (int k = 0; k < P; k++) {
        int best = 0;
        for (int j = 1; j < W; j++)
            if (ga_score(&g->gp, &g->pert_jobs[k * W + j].m) < ga_score(&g->gp, &g->pert_jobs[k * W + best].m)) best = j;
        g->child[k]->interval = g->pert[k * W + best]->interval;
        g->jobs[k] = g->pert_jobs[k * W + best];
        g->jobs[k].cfg = g->child[k];
    }
}

/* --children C > 1: a mutating slot's candidate is the best of its C
 * children (the first of equal scores).  Each of them is offered to the
 * records in the order made, as C generations of one child would offer
 * them; the verdict on the one kept is in kept_clone[k]. */
static void keep_best_children(ga *g)
{
    int P = g->gp.pop, C = g->gp.children, nj = P;
    for (int k = 0; k < P; k++) {
        if (g->kind[k] != KIND_MUTATE) continue;
        int64_t best = ga_score(&g->gp, &g->jobs[k].m);
        int bj = 0, bjob = k;
        g->kept_clone[k] = consider(g, g->child[k], &g->jobs[k].m, best);
        for (int j = 1; j < C; j++, nj++) {
            int64_t sc = ga_score(&g->gp, &g->jobs[nj].m);
            int clone = consider(g, g->jobs[nj].cfg, &g->jobs[nj].m, sc);
            if (sc < best) best = sc, bj = j, bjob = nj, g->kept_clone[k] = clone;
        }
        if (!bj) continue;
        int e = extra_at(g, k, bj);
        sim_config *t = g->child[k]; g->child[k] = g->extra[e]; g->extra[e] = t;
        if (g->ctails) {
            int64_t *x = g->ctails[k]; g->ctails[k] = g->etails[e]; g->etails[e] = x;
        }
        g->jobs[k] = g->jobs[bjob];
        g->jobs[k].cfg = g->child[k];
        g->jobs[k].tails = g->ctails ? g->ctails[k] : NULL;
    }
}

/* Make the children of the next spec_depth generations from the one
 * lineage's current parent, each as if the ones before it were rejected, and
 * evaluate them together (not counted until taken). */
static void speculate(ga *g)
{
    int64_t gen = g->generation;
    int j = 0;
    while (j < g->spec_depth) {
        g->generation = gen + j;
        make_children(g);
        sim_config *t = g->child[0]; g->child[0] = g->spec[j]; g->spec[j] = t;
        g->spec_kind[j] = g->kind[0];
        g->spec_rng[j] = g->rng;
        g->spec_jobs[j] = child_job(g, 0, g->spec[j], g->spec_tails[j], g->spec_dec[j]);
        int repeat = !g->spec_jobs[j].cfg;
        g->spec_repeat[j] = (uint8_t)repeat;
        j++;
        /* A proven repeat is accepted: any child behind it would be void. */
        if (repeat) break;
    }
    g->generation = gen;
    sim_pool_run(g->pool, g->spec_jobs, j);
    g->nspec = j;
    g->spec_next = 0;
}

/* This generation's child: the next speculated one, which is exactly what
 * make_children and evaluate_children would give, as the parent and the
 * generator are where they were when it was made. */
static void take_speculated(ga *g)
{
    if (g->spec_next >= g->nspec) speculate(g);
    int j = g->spec_next++;
    sim_config *t = g->child[0]; g->child[0] = g->spec[j]; g->spec[j] = t;
    if (g->ctails) {
        int64_t *x = g->ctails[0]; g->ctails[0] = g->spec_tails[j]; g->spec_tails[j] = x;
    }
    sim_decisions *d = g->cdec[0]; g->cdec[0] = g->spec_dec[j]; g->spec_dec[j] = d;
    g->repeat[0] = g->spec_repeat[j];
    g->kind[0] = g->spec_kind[j];
    g->rng = g->spec_rng[j];
    g->jobs[0] = g->spec_jobs[j];
    g->jobs[0].cfg = g->child[0];
    g->jobs[0].tails = g->ctails ? g->ctails[0] : NULL;
    g->jobs[0].dec = g->cdec[0];
    if (g->repeat[0]) g->repeats++;
    else g->evals++;
}

int ga_step(ga *g, char *err, size_t errlen)
{
    const ga_params *gp = &g->gp;
    int P = gp->pop;
    if (g->generation >= gp->generations || (gp->max_evals > 0 && g->evals >= gp->max_evals)) return 0;
    g->generation++;
    g->new_best = 0;
    if (g->spec_depth) {
        take_speculated(g);
    } else {
        make_children(g);
        evaluate_children(g);
        if (gp->children > 1) keep_best_children(g);
    }
    for (int k = 0; k < P; k++) {
        int64_t sc = ga_score(gp, &g->jobs[k].m);
        int accept;
        if (g->kind[k] == KIND_CROSS && gp->algo == GA_ALGO_PAPER) accept = 1;
        else if (gp->algo == GA_ALGO_PAPER) accept = sc < g->score[k];
        else accept = sc <= g->score[k];
        int clone = gp->children > 1 && g->kind[k] == KIND_MUTATE ? g->kept_clone[k]
                                                                  : consider(g, g->child[k], &g->jobs[k].m, sc);
        if (accept) {
            g->nspec = 0; /* the parent changes: the speculated children are void */
            sim_config *t = g->pop[k]; g->pop[k] = g->child[k]; g->child[k] = t;
            /* A proven repeat's tails and decisions are its parent's. */
            int repeat = g->dec && g->repeat[k];
            if (g->dec && !repeat) {
                sim_decisions *d = g->dec[k]; g->dec[k] = g->cdec[k]; g->cdec[k] = d;
            }
            if (g->tails && !repeat) {
                int64_t *x = g->tails[k]; g->tails[k] = g->ctails[k]; g->ctails[k] = x;
                /* A perturbed child's run kept no tails (jobs[k].tails NULL). */
                g->tails_ok[k] = g->jobs[k].m.status == SIM_OK && g->jobs[k].tails;
            }
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
        if (g->kind[k] == KIND_REINIT) g->nspec = 0;
    run_reinits(g);
    /* At the floor nothing can be better. */
    int at_bound = gp->fitness == GA_FIT_DURATION && g->best_score < SCORE_INF && g->best_m.duration <= g->floor;
    int more = g->generation < gp->generations && !(gp->max_evals > 0 && g->evals >= gp->max_evals) && !at_bound;
    if (persist(g, !more, err, errlen)) return -1;
    return more;
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
        return snprintf(err, errlen, "out of memory in the simple-stacking sweep"), -1;
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
    sim *s = sim_new(&p, g->dest, err, errlen);
    sim_config *c = sim_config_new(g->nodes, p.vcs, 0, (uint32_t)p.flits);
    if (!s || !c) { sim_free(s); sim_config_free(c); return -1; }
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
    g->t_start = now_seconds();

    /* Ranges from a first single-slice run with random schemes and I = 0. */
    sim_config *c0 = g->child[0];
    sim_config *def = sim_config_new(g->nodes, g->sp.vcs, 0, (uint32_t)L);
    if (!def) return snprintf(err, errlen, "out of memory"), -1;
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
    if (stacking(g, schemes, ns, bv, bd, err, errlen)) return -1;
    int bestk = 0;
    for (int k = 1; k < ns; k++) if (bd[k] < bd[bestk]) bestk = k;
    g->base_scheme = schemes[bestk];
    g->base_interval = bv[bestk];
    g->base_stack = bd[bestk] >= SCORE_INF ? -1 : bd[bestk];
    if (nonsplit(g, &g->base_nonsplit, err, errlen)) return -1;
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
        if (k >= nd) mutate_local(g, c, 1 + (int)rng_below(&g->rng, (uint32_t)gp->max_genes), NULL);
    }
    for (int k = 0; k < P; k++) g->jobs[k] = parent_job(g, k);
    evaluate(g, P);
    for (int k = 0; k < P; k++) {
        g->pop_m[k] = g->jobs[k].m;
        if (g->tails) g->tails_ok[k] = g->pop_m[k].status == SIM_OK;
        g->score[k] = ga_score(gp, &g->pop_m[k]);
        g->age[k] = 0;
        g->kind[k] = KIND_NONE;
        consider(g, g->pop[k], &g->pop_m[k], g->score[k]);
    }
    if (g->db && store_run_set_baselines(g->db, g->run, g->base_stack, g->base_nonsplit, err, errlen) != STORE_OK)
        return -1;
    return persist(g, 1, err, errlen);
}

/* ---- persistence --------------------------------------------------------- */

/* One transaction per generation: its statistics and records, and, at most
 * once a second (and always at the start and the end), the checkpoint.
 * Resuming from an older checkpoint replays the generations after it
 * exactly: their rows are rewritten with the same values and their records
 * are already there. */
static int persist(ga *g, int force_checkpoint, char *err, size_t errlen)
{
    ga_progress pr;
    ga_get_progress(g, &pr);
    if (!g->db) goto done;
    if (store_begin(g->db, err, errlen) != STORE_OK) return -1;
    store_gen sg = { .run = g->run, .generation = g->generation, .best = g->best_m.duration,
                     .average = pr.average, .evaluations = g->evals, .elapsed = pr.elapsed };
    if (store_gen_add(g->db, &sg, err, errlen) != STORE_OK) goto fail;
    for (int k = 0; k < g->nrec; k++) {
        ga_record *r = &g->recs[k];
        /* The store keeps the fitness in cycles; the secondary key only orders the search. */
        store_chrom sc = { .run = g->run, .generation = r->generation, .crc = r->crc, .score = ga_score_primary(r->score),
                           .duration = r->m.duration, .t_d = r->m1.duration, .t_e = r->m1.te,
                           .ir = r->m.ir, .or_ = r->m.or_, .ib = r->m.ib, .ob = r->m.ob, .lb = r->m.lb,
                           .is_synonym = r->synonym, .genes = r->genes, .genes_len = r->len };
        int rc = store_chrom_add(g->db, &sc, NULL, err, errlen);
        if (rc != STORE_OK && rc != STORE_EXISTS) goto fail;
    }
    if (g->best_score < SCORE_INF &&
        store_run_set_best(g->db, g->run, ga_score_primary(g->best_score), g->best_m.duration, g->best_crc, err, errlen) != STORE_OK)
        goto fail;
    double now = now_seconds();
    if (force_checkpoint || now - g->last_checkpoint >= 1.0) {
        uint8_t *blob = NULL;
        size_t len = 0;
        if (ga_checkpoint_save(g, &blob, &len, err, errlen)) goto fail;
        int rc = store_checkpoint_put(g->db, g->run, g->generation, blob, len, err, errlen);
        free(blob);
        if (rc != STORE_OK) goto fail;
        g->last_checkpoint = now;
    }
    if (store_commit(g->db, err, errlen) != STORE_OK) goto fail;
done:
    for (int k = 0; k < g->nrec; k++) free(g->recs[k].genes);
    g->nrec = 0;
    return 0;
fail:
    store_rollback(g->db, NULL, 0);
    return -1;
}

int ga_flush(ga *g, char *err, size_t errlen) { return persist(g, 1, err, errlen); }

int ga_finish(ga *g, char *err, size_t errlen)
{
    if (!g->db) return 0;
    return store_run_set_status(g->db, g->run, "finished", err, errlen) == STORE_OK ? 0 : -1;
}

/* ---- accessors ----------------------------------------------------------- */

void ga_get_progress(const ga *g, ga_progress *p)
{
    p->generation = g->generation;
    p->evals = g->evals;
    p->repeats = g->repeats;
    p->best_score = g->best_score;
    p->best_duration = g->best_score < SCORE_INF ? g->best_m.duration : -1;
    double sum = 0;
    int cnt = 0;
    for (int k = 0; k < g->gp.pop; k++)
        if (g->score[k] < SCORE_INF) { sum += (double)g->pop_m[k].duration; cnt++; }
    p->average = cnt ? sum / cnt : 0;
    p->elapsed = g->elapsed_before + (now_seconds() - g->t_start);
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
int64_t ga_synonyms(const ga *g) { return g->best_score < SCORE_INF ? g->synonyms + 1 : 0; }
const ga_params *ga_get_params(const ga *g) { return &g->gp; }
const sim_params *ga_get_sim_params(const ga *g) { return &g->sp; }

void ga_baselines(const ga *g, int *scheme, uint32_t *interval, int64_t *stacking_d, int64_t *nonsplit_d)
{
    if (scheme) *scheme = g->base_scheme;
    if (interval) *interval = g->base_interval;
    if (stacking_d) *stacking_d = g->base_stack;
    if (nonsplit_d) *nonsplit_d = g->base_nonsplit;
}

/* ---- resume -------------------------------------------------------------- */

/* The population's tail cycles and decisions, which checkpoints do not
 * hold: its runs again (deterministic, so the same as before the stop; not
 * counted as evaluations, which the uninterrupted run did not make). */
static void refresh_parent_runs(ga *g)
{
    if (!g->tails && !g->dec) return;
    for (int k = 0; k < g->gp.pop; k++) g->jobs[k] = parent_job(g, k);
    sim_pool_run(g->pool, g->jobs, g->gp.pop);
    for (int k = 0; g->tails && k < g->gp.pop; k++) g->tails_ok[k] = g->jobs[k].m.status == SIM_OK;
}

ga *ga_resume(store *db, int64_t run, int threads, char *err, size_t errlen)
{
    int64_t generation;
    uint8_t *blob = NULL;
    size_t len = 0;
    int rc = store_checkpoint_get(db, run, &generation, &blob, &len, err, errlen);
    if (rc == STORE_NOTFOUND) return snprintf(err, errlen, "run %lld has no checkpoint to resume from", (long long)run), NULL;
    if (rc != STORE_OK) return NULL;
    char why[384];
    ga *g = ga_checkpoint_load(blob, len, threads, why, sizeof why);
    free(blob);
    if (!g) return snprintf(err, errlen, "%s: run %lld: %s", store_path(db), (long long)run, why), NULL;
    g->db = db;
    g->run = run;
    g->t_start = now_seconds();
    /* Killed before its start was recorded: start it now, as it would have. */
    if (!g->space.genes && ga_start(g, err, errlen)) { ga_free(g); return NULL; }
    refresh_parent_runs(g);
    return g;
}

int ga_consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score) { return consider(g, c, m, score); }
