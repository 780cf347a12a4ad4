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
 *   local  (default) the same loop seeded with the simple-stacking optima
 *          (by default one lineage: a (1+1) search); a child changes
 *          1..max_genes effective genes by small steps, a share of them
 *          aimed at the packets that finished last in its parent's run
 *          (their tail cycles come with each evaluation), and replaces its
 *          parent when it is no worse; re-initialisation restarts from the
 *          best, so it is never lost.
 *
 * Every chromosome that scores a new best, and every other signature that
 * scores the current best (a synonym; with the sparse record rule only the
 * 1st, 2nd, 4th, ... of each score), is recorded in the store with its
 * metrics; the generations' rows and records go to the store with a
 * checkpoint, in one transaction at most once a second (and always at the
 * start, the end and on ga_flush), from which ga_resume continues.
 *
 * Conventions, as in store/store.h: functions that can fail return 0 (or a
 * pointer) on success and -1 (or NULL) on failure, with a one-line message in
 * err (errlen bytes); nothing is printed.  The kind of a failure
 * (util/fault.h): the checks' -1 is -FAULT_INPUT; ga_start, ga_step,
 * ga_flush and ga_finish return -FAULT_IO (the store), -FAULT_RESOURCE
 * (memory, threads) or -FAULT_INTERNAL; ga_new and ga_resume set *kind.
 * A ga owns everything it
 * allocates; the store passed to ga_new or ga_resume is borrowed and must
 * stay open until ga_free.  Pointers returned by accessors point into the ga
 * and stay valid until ga_free. */
#ifndef NOCSIM_GA_H
#define NOCSIM_GA_H

#include <stdint.h>
#include <stdio.h>

#include "ga/operators.h"
#include "sim/sim.h"
#include "util/fault.h"
#include "util/json.h"
#include "store/store.h"

typedef enum { GA_ALGO_LOCAL = 0, GA_ALGO_PAPER, GA_ALGO_COUNT } ga_algo;
/* How equal scores are ordered when the population is sorted: by a random
 * key drawn each generation, or the older chromosome first. */
typedef enum { GA_TIES_RANDOM = 0, GA_TIES_AGE, GA_TIES_COUNT } ga_ties;
/* Secondary sort keys (paper Table 5): how equal durations are ordered. */
typedef enum {
    GA_KEY_NONE = 0, GA_KEY_OR, GA_KEY_OB, GA_KEY_TE, GA_KEY_TE_REV, GA_KEY_TB, GA_KEY_LB,
    GA_KEY_LATE,    /* packets finishing in the last l_c cycles */
    GA_KEY_LATE_LB, /* late first, then lb */
    GA_KEY_TAIL,    /* tails in the last, second and third last cycles, lexicographically */
    GA_KEY_LATE3,   /* tails in the last three cycles */
    GA_KEY_LATE_SUM, /* the sum of the tail cycles in the last 2 l_c cycles (sim_metrics.late_sum) */
    GA_KEY_COUNT
} ga_sort_key;

/* Which synonyms are recorded: every one (the paper), or the 1st, 2nd, 4th,
 * 8th, ... of each best score (a search that drifts across equal scores
 * meets thousands, and each record costs a single-slice simulation). */
typedef enum { GA_RECORD_ALL = 0, GA_RECORD_SPARSE, GA_RECORD_COUNT } ga_record_rule;

/* Where the local search starts: the best simple-stacking optimum, or the
 * better of it and a link-level timetable (ga/timetable.h; its simulations
 * are counted like every other). */
typedef enum { GA_START_STACKING = 0, GA_START_TIMETABLE, GA_START_COUNT } ga_start_rule;

/* What a chromosome is scored by (paper Sect. 6.2 and 7.2). */
typedef enum {
    GA_FIT_DURATION = 0, /* T_d at S slices */
    GA_FIT_ESTIMATE,     /* rough estimation: T_e (S' - 1) + t_d from single-slice runs */
    GA_FIT_TE,           /* T_e alone (paper T09) */
    GA_FIT_COUNT
} ga_fitness;

/* Delta runs (issue 38, sim/delta_run.h): where the search keeps its
 * parents' decisions (the local search, one child a generation, no
 * --perturb) on a network the delta engine supports, a child is simulated
 * as its difference from its parent's recorded run.  The results are the
 * same either way; only the time and memory differ. */
typedef enum { GA_DELTA_OFF = 0, GA_DELTA_ON, GA_DELTA_COUNT } ga_delta_rule;

/* Option names of each enum, indexed by its value (e.g. ga_algo_names[GA_ALGO_PAPER]
 * is "paper"), for parsing and printing.  Each table has exactly its enum's
 * COUNT entries, so `sizeof t / sizeof t[0]` is its length; static strings. */
extern const char *const ga_fitness_names[GA_FIT_COUNT];
extern const char *const ga_weight_names[GA_WEIGHT_COUNT];
extern const char *const ga_algo_names[GA_ALGO_COUNT];
extern const char *const ga_ties_names[GA_TIES_COUNT];
extern const char *const ga_key_names[GA_KEY_COUNT];
extern const char *const ga_record_names[GA_RECORD_COUNT];
extern const char *const ga_start_names[GA_START_COUNT];
extern const char *const ga_delta_names[GA_DELTA_COUNT];

typedef struct {
    ga_algo algo;
    int pop;                 /* chromosomes */
    int children;            /* children each lineage makes a generation from its parent (the best
                                of them is its candidate); not with perturb */
    int generations;
    int train;               /* mutation-only generations at the start */
    double mutation;         /* paper: ratio of genes redrawn */
    int max_genes;           /* local: genes changed per child, 1..max_genes */
    ga_weighting weights;    /* local: how genes are picked */
    double shift;            /* local: probability a child shifts a whole row or column of I */
    double target;           /* local: probability a child's first move advances a late packet's source */
    int target_window;       /* local: late = tail in the parent's last target_window cycles */
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
    ga_record_rule record;   /* which synonyms are recorded */
    ga_start_rule start;     /* local: where the first lineage starts */
    ga_fitness fitness;
    int estimate_slices;     /* S' of the rough estimation */
    int perturb;             /* vary V by +-perturb at every evaluation, keep the best (0 = off) */
    int64_t max_evals;       /* stop after this many simulations (0 = no limit) */
    int threads;
    ga_delta_rule delta;     /* like threads, how the run is computed, not what: in no
                                record or checkpoint */
    uint64_t seed;
} ga_params;

/* Parameter ranges: ga_params_check enforces them and the command line
 * offers them, so each is written once. */
#define GA_POP_MIN 1
#define GA_POP_MAX 100000
#define GA_COUNT_MAX 100000000         /* generations, train, crossover interval and pairs, watchdog, lifetime */
#define GA_BUDGET 50000                /* the local search's default --evals: the paper's 50,000 simulations */
#define GA_MAX_GENES_MAX 1000
#define GA_PERTURB_MAX 1000
/* --evals beyond this is a typo, not a budget: a billion evaluations of even
 * a 4x4 torus are hours of work, of the default 16x16 weeks. */
#define GA_EVALS_MAX 1000000000L
#define GA_MUTATION_MIN 1e-6
#define GA_TARGET_WINDOW_MAX 255
/* Most children one lineage speculates ahead (one per thread), and most
 * children a lineage makes a generation. */
#define GA_SPEC_MAX 64
#define GA_CHILDREN_MAX 64

/* Fill every field of *gp with the defaults of the local search (which pass
 * ga_params_check).  Cannot fail. */
void ga_params_default(ga_params *gp);
/* Set algo and the defaults that depend on it: population, children,
 * generations, secondary sort key, line shifts, aimed moves and the record
 * rule (paper: 50, 1, 1000, none, 0, 0, all; local: 1, 1, no limit but
 * GA_BUDGET simulations, tail, 0, 0.3, sparse, and the mix weighting).  Other fields are left alone.  Cannot
 * fail. */
void ga_params_for_algo(ga_params *gp, ga_algo algo);
/* Range checks.  Returns 0 if every field is in range, else -1 with one line
 * in err starting with the first bad field (util/options.h) and its allowed range. */
NOCSIM_MUST_USE
int ga_params_check(const ga_params *gp, char *err, size_t errlen);
/* ga_params_check, sim_params_check, and the checks between the two (a fixed
 * interval no shorter than a packet).  Returns 0, or -1 with err starting with the field. */
NOCSIM_MUST_USE
int ga_setup_check(const ga_params *gp, const sim_params *sp, char *err, size_t errlen);
/* The parameters as a JSON object (jansson; the caller owns it), for the
 * runs table.  NULL when out of memory. */
NOCSIM_MUST_USE
json_t *ga_params_json(const ga_params *gp);
/* Write the "V,I,C,Q" style name of a gene set (GENE_* bits) into buf, which
 * must hold at least 8 bytes, and return buf.  Cannot fail. */
const char *ga_genes_name(unsigned genes, char *buf);

typedef struct {
    int64_t generation, evals;
    int64_t repeats;         /* children not simulated: their parent's decisions proved they
                                repeat its run (sim/decisions.h); not in evals */
    int64_t cones;           /* children simulated on their cone (delta runs), in evals; taken
                                speculated ones only, and not in checkpoints: since ga_new or
                                ga_resume */
    int64_t best_score, best_duration;
    double average;          /* average duration of the population */
    double elapsed;          /* seconds */
} ga_progress;

typedef struct ga ga;

/* A run on traffic dest[] (sp->n squared entries, copied; traffic_name is
 * copied too).  db may be NULL (nothing recorded); otherwise the run is
 * created there, recording `version` and `params_json` (a JSON object of
 * every parameter, built by the caller), and db is borrowed until ga_free.
 * Nothing is simulated yet: call ga_start.  Returns the new ga, or NULL with
 * a message in err when gp or sp fails its check, memory runs out, the
 * evaluation threads cannot start, or the store cannot create the run (the
 * store is then unchanged); *kind (may be NULL) says which. */
NOCSIM_MUST_USE
ga *ga_new(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
           store *db, const char *version, const char *params_json, fault_kind *kind, char *err, size_t errlen);
/* Continue run `run` of db from its last checkpoint, in the state it had
 * then (parameters and traffic from the checkpoint; only threads may be
 * overridden, threads <= 0 keeps them); db is borrowed until ga_free.  Do not
 * call ga_start: the next call is ga_step (a run stopped before its start
 * was recorded is started here).  Returns the ga, or NULL with a message in
 * err when the run has no checkpoint, the checkpoint is damaged ("PATH: run
 * N: database is damaged: ..."), memory runs out or the store fails; *kind
 * (may be NULL) says which (no checkpoint: FAULT_INPUT, damaged: FAULT_IO). */
NOCSIM_MUST_USE
ga *ga_resume(store *db, int64_t run, int threads, fault_kind *kind, char *err, size_t errlen);
/* Delta runs on or off from now on (gp.delta; a resumed run's is not
 * recorded: its caller says).  Where the search cannot use them nothing
 * changes.  Returns 0, or -FAULT_RESOURCE with a message in err when memory
 * runs out (g is then as before).  Between ga_step calls only. */
NOCSIM_MUST_USE
int ga_set_delta(ga *g, ga_delta_rule delta, char *err, size_t errlen);
/* Free g and everything it owns (not its store).  g may be NULL. */
void ga_free(ga *g);

/* Evaluate the baselines and the initial population (generation 0) and
 * record them (start.c).  Returns 0, or a negative fault with a message in
 * err: -FAULT_RESOURCE when memory runs out or the first run, which sets
 * the search ranges, times out (sim_params.max_cycles); -FAULT_INTERNAL when
 * that run deadlocks; -FAULT_IO when the store fails (the transaction is
 * then rolled back). */
NOCSIM_MUST_USE
int ga_start(ga *g, char *err, size_t errlen);
/* One generation; its rows and records are kept and written with the next
 * checkpoint (at most a second later, and at once when it is the last).
 * Returns 1 while there is more to do, 0 when finished (generations or
 * --evals used up, or the best at the floor, ga_get_floor), a negative fault
 * with a message in err when the store fails or a record could not be kept
 * for want of memory (that transaction is rolled back; the ga stays usable
 * for ga_free). */
NOCSIM_MUST_USE
int ga_step(ga *g, char *err, size_t errlen);
/* Write the pending rows and the checkpoint now (e.g. before stopping on a
 * signal).  Returns 0 (also without a store), or -1 with a message in err
 * when the store fails. */
NOCSIM_MUST_USE
int ga_flush(ga *g, char *err, size_t errlen);
/* Mark the run finished in the store.  Returns 0 (also without a store), or
 * -1 with a message in err when the store fails. */
NOCSIM_MUST_USE
int ga_finish(ga *g, char *err, size_t errlen);

/* Fill *p with the generation, simulations, best score and duration (-1
 * before the first evaluation), population average and elapsed seconds
 * (including those before a resume).  Cannot fail. */
void ga_get_progress(const ga *g, ga_progress *p);
/* The best chromosome so far; its metrics into *m and its signature into
 * *crc when those are not NULL.  The pointer is owned by g and stays valid
 * until ga_free, but its contents change when a later ga_step finds a better
 * one: copy it (sim_config_copy) to keep it.  Before ga_start it holds no
 * evaluated chromosome. */
const sim_config *ga_best(const ga *g, sim_metrics *m, uint32_t *crc);
/* The store's id of this run, or 0 when it records nothing. */
int64_t ga_run_id(const ga *g);
/* The traffic's floor (ga/floor.h): no duration can be shorter.  Known from
 * ga_new / ga_resume on.  Cannot fail. */
int64_t ga_get_floor(const ga *g);
/* The traffic pattern's name, recorded with the run (a resumed run's too);
 * valid until ga_free. */
const char *ga_traffic_name(const ga *g);
/* Recorded chromosomes with the best score, the best itself included (0
 * before the first evaluation). */
int64_t ga_synonyms(const ga *g);
/* The run's parameters (after ga_resume: those of the checkpoint, with the
 * thread override).  Owned by g, valid until ga_free. */
const ga_params *ga_get_params(const ga *g);
/* The run's network and model parameters.  Owned by g, valid until ga_free. */
const sim_params *ga_get_sim_params(const ga *g);
/* Baselines, known after ga_start: best simple stacking (scheme, interval,
 * duration) and non-split (the whole message as one packet, best scheme).
 * Any pointer may be NULL to skip that value. */
void ga_baselines(const ga *g, int *scheme, uint32_t *interval, int64_t *stacking, int64_t *nonsplit);

/* Score of metrics, lower is better: the fitness (gp->fitness) shifted left
 * by GA_KEY_BITS plus the secondary sort key, clamped to GA_KEY_BITS bits.
 * A status other than SIM_OK scores above every finished run. */
int64_t ga_score(const ga_params *gp, const sim_metrics *m);
/* 1 when ga_score reads none of te, lb, ir, or_, ib and ob, so that the
 * search's runs may be lean (sim_run_lean). */
int ga_score_lean(const ga_params *gp);
/* A score is the fitness shifted left by GA_KEY_BITS, plus the secondary key. */
#define GA_KEY_BITS 24
/* The fitness part of a score. */
static inline int64_t ga_score_primary(int64_t score) { return score >> GA_KEY_BITS; }

#endif
