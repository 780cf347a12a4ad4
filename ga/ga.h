/* The Cup-Stacking GA (paper Sect. 5.3, Appendix A.3) and nocsim's default
 * search.  A population of chromosomes (sim_configs) is evolved to minimise
 * the duration of a collective communication.  Two algorithms share the
 * generation loop:
 *
 *   paper  the paper's GA as written: random initialisation over the full
 *          ranges, mutation of a ratio of all genes redrawn over their range,
 *          strict replacement (a child must be better), crossover every
 *          `crossover_interval` generations with the pairing (1,2),(1,3),
 *          (2,3),(1,4),..., watchdog or lifetime re-initialisation.
 *   local  (default) the same loop seeded with the simple-stacking optimum of
 *          every scheme; a child changes 1..max_genes effective genes by
 *          small steps and replaces its parent when it is no worse;
 *          re-initialisation restarts from the best, so it is never lost.
 *
 * Every chromosome that scores a new best, and every other signature that
 * scores the current best (a synonym), is recorded in the store with its
 * metrics; one transaction per generation, with a checkpoint from which
 * ga_resume continues. */
#ifndef NOCSIM_GA_H
#define NOCSIM_GA_H

#include <stdint.h>
#include <stdio.h>

#include "ga/operators.h"
#include "sim/sim.h"
#include "store/store.h"

typedef enum { GA_ALGO_LOCAL = 0, GA_ALGO_PAPER } ga_algo;
typedef enum { GA_TIES_RANDOM = 0, GA_TIES_AGE } ga_ties;
/* Secondary sort keys (paper Table 5): how equal durations are ordered. */
typedef enum {
    GA_KEY_NONE = 0, GA_KEY_OR, GA_KEY_OB, GA_KEY_TE, GA_KEY_TE_REV, GA_KEY_TB, GA_KEY_LB,
    GA_KEY_LATE,    /* packets finishing in the last l_c cycles */
    GA_KEY_LATE_LB, /* late first, then lb */
    GA_KEY_TAIL,    /* tails in the last, second and third last cycles, lexicographically */
    GA_KEY_COUNT
} ga_sort_key;

/* What a chromosome is scored by (paper Sect. 6.2 and 7.2). */
typedef enum {
    GA_FIT_DURATION = 0, /* T_d at S slices */
    GA_FIT_ESTIMATE,     /* rough estimation: T_e (S' - 1) + t_d from single-slice runs */
    GA_FIT_TE,           /* T_e alone (paper T09) */
} ga_fitness;

extern const char *const ga_fitness_names[];
extern const char *const ga_weight_names[];
extern const char *const ga_algo_names[];
extern const char *const ga_ties_names[];
extern const char *const ga_key_names[];

typedef struct {
    ga_algo algo;
    int pop;                 /* chromosomes */
    int generations;
    int train;               /* mutation-only generations at the start */
    double mutation;         /* paper: ratio of genes redrawn */
    int max_genes;           /* local: genes changed per child, 1..max_genes */
    ga_weighting weights;    /* local: how genes are picked */
    int crossover_interval;  /* generations between crossovers (0 = none) */
    double crossover_rate;   /* probability each gene is copied */
    int crossover_pairs;     /* pairs per crossover (0 = pop / 2) */
    ga_ties ties;
    int watchdog;            /* generations without a new best before a restart (0 = off) */
    int lifetime;            /* maximum age of a chromosome (0 = off) */
    unsigned genes;          /* GENE_* bits that evolve */
    int arb;                 /* scheme when C does not evolve */
    uint32_t interval;       /* V when V does not evolve (0 = the best stacking interval) */
    int stack_vmax;          /* simple-stacking sweep: V = l_c .. stack_vmax */
    ga_sort_key sort_key;
    ga_fitness fitness;
    int estimate_slices;     /* S' of the rough estimation */
    int perturb;             /* vary V by +-perturb at every evaluation, keep the best (0 = off) */
    int64_t max_evals;       /* stop after this many simulations (0 = no limit) */
    int threads;
    uint64_t seed;
} ga_params;

void ga_params_default(ga_params *gp);
/* The defaults that depend on the algorithm: population, generations and
 * secondary sort key (paper: 50, 1000, none; local: 8, 6250, late-lb). */
void ga_params_for_algo(ga_params *gp, ga_algo algo);
/* Range checks; one line naming the flag on failure. */
int ga_params_check(const ga_params *gp, char *err, size_t errlen);
/* The parameters as JSON members (no braces), for the runs table. */
void ga_params_json(const ga_params *gp, FILE *f);
/* "V,I,C,Q" style name of a gene set; buf of at least 8 bytes. */
const char *ga_genes_name(unsigned genes, char *buf);

typedef struct {
    int64_t generation, evals;
    int64_t best_score, best_duration;
    double average;          /* average duration of the population */
    double elapsed;          /* seconds */
} ga_progress;

typedef struct ga ga;

/* A run on traffic dest[].  db may be NULL (nothing recorded); otherwise
 * the run is created there, recording `version` and `params_json` (a JSON
 * object of every parameter, built by the caller). */
ga *ga_new(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
           store *db, const char *version, const char *params_json, char *err, size_t errlen);
/* Continue run `run` of db from its checkpoint (parameters from the
 * checkpoint; only threads may be overridden, threads <= 0 keeps them). */
ga *ga_resume(store *db, int64_t run, int threads, char *err, size_t errlen);
void ga_free(ga *g);

/* Evaluate the baselines and the initial population (generation 0). */
int ga_start(ga *g, char *err, size_t errlen);
/* One generation.  Returns 1 while there is more to do, 0 when finished,
 * -1 on a store error. */
int ga_step(ga *g, char *err, size_t errlen);
/* Write the checkpoint now (e.g. before stopping on a signal). */
int ga_flush(ga *g, char *err, size_t errlen);
/* Mark the run finished in the store. */
int ga_finish(ga *g, char *err, size_t errlen);

void ga_get_progress(const ga *g, ga_progress *p);
const sim_config *ga_best(const ga *g, sim_metrics *m, uint32_t *crc);
int64_t ga_run_id(const ga *g);
/* Recorded chromosomes with the best score, the best itself included. */
int64_t ga_synonyms(const ga *g);
const ga_params *ga_get_params(const ga *g);
const sim_params *ga_get_sim_params(const ga *g);
/* Baselines: best simple stacking (scheme, interval, duration) and non-split
 * (the whole message as one packet, best scheme). */
void ga_baselines(const ga *g, int *scheme, uint32_t *interval, int64_t *stacking, int64_t *nonsplit);

/* Score of metrics: the fitness first, then the secondary sort key. */
int64_t ga_score(const ga_params *gp, const sim_metrics *m);
/* A score is the fitness shifted left by GA_KEY_BITS, plus the secondary key. */
#define GA_KEY_BITS 24
/* The fitness part of a score. */
static inline int64_t ga_score_primary(int64_t score) { return score >> GA_KEY_BITS; }

#endif
