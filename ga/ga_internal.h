/* The GA's state, shared by ga.c (the loop) and checkpoint.c (saving and
 * restoring it).  Not part of the public interface. */
#ifndef NOCSIM_GA_INTERNAL_H
#define NOCSIM_GA_INTERNAL_H

#include "ga/ga.h"
#include "sim/pool.h"
#include "util/rng.h"

enum { KIND_NONE = 0, KIND_MUTATE, KIND_CROSS, KIND_REINIT };

/* The score of a failed simulation, above every real one. */
#define GA_SCORE_INF (INT64_MAX / 4)

/* A chromosome to write in this generation's transaction. */
typedef struct {
    uint8_t *genes;
    size_t len;
    uint32_t crc;
    int64_t score, generation;
    sim_metrics m;   /* at S slices */
    sim_metrics m1;  /* single slice: t_d and T_e */
    int synonym;
} ga_record;

struct ga {
    ga_params gp;
    sim_params sp;
    int n, nodes;
    int32_t *dest;
    char traffic[256];
    ga_space space;
    ga_effective *eff;
    sim_pool *pool;
    sim *single;            /* single-slice runs for records */
    rng rng;
    /* Population, children and the per-generation scratch. */
    sim_config **pop, **child;
    int64_t *score;
    sim_metrics *pop_m;
    int32_t *age;
    int *kind;
    sim_job *jobs;
    /* Tail cycles (sim_tail_cycles, npk = nodes x slices entries) of each
     * chromosome's run and of each child's, swapped with the configs; a
     * chromosome's are known (tails_ok) when its run finished and was not
     * a perturbed one.  They aim the targeted moves (gp.target). */
    int64_t npk;
    int64_t **tails, **ctails;
    uint8_t *tails_ok;
    /* Decisions (sim/decisions.h) of each chromosome's run and of each
     * child's, swapped with the configs like the tails.  A child that its
     * parent's decisions prove to repeat the parent's run (repeat[k]) is
     * not simulated and not counted in evals: its results are the parent's,
     * so it is accepted, and the parent's tails and decisions stay (they are
     * the child's).  NULL when the search cannot use them (several children
     * a generation, perturbed runs, the paper's GA). */
    sim_decisions **dec, **cdec;
    uint8_t *repeat;
    int64_t repeats;        /* children proven to repeat their parent's run */
    /* Speculation, for one lineage on several threads: the children of the
     * next generations, made from the current parent as if each earlier one
     * were rejected (with the generator's state after each making) and
     * evaluated together.  A generation takes the next one while its parent
     * is unchanged; anything else empties the queue (nspec = 0).  The run's
     * results are those of making and evaluating one child a generation;
     * children never taken are not counted.  A proven repeat (see dec
     * below) ends a batch, as it is sure to be accepted.  Not in checkpoints: a resumed
     * run makes them again from the saved generator. */
    int spec_depth;         /* children made at a time (0: no speculation) */
    int nspec, spec_next;
    sim_config **spec;
    int64_t **spec_tails;
    sim_job *spec_jobs;
    rng *spec_rng;
    int *spec_kind;
    sim_decisions **spec_dec;
    uint8_t *spec_repeat;
    /* --children C > 1: a mutating slot's children besides child[k], the
     * j-th (1..C-1) at k (C-1) + j-1, with their tails; their jobs follow
     * the P slots' in jobs.  keep_best_children moves the best of a slot's
     * C into child[k] and keeps what consider said of it in kept_clone. */
    sim_config **extra;
    int64_t **etails;
    int *kept_clone;
    sim_config **pert;      /* --perturb: pop x (2K+1) configurations */
    sim_job *pert_jobs;
    int *order;
    uint64_t *tiekey;
    /* The best so far and the signatures recorded. */
    sim_config *best;
    int64_t best_score;
    sim_metrics best_m;
    uint32_t best_crc;
    uint32_t *crcs;
    size_t ncrc, capcrc;
    int64_t synonyms;       /* recorded synonyms of the best score */
    int64_t syn_seen;       /* synonyms of the best score met (GA_RECORD_SPARSE) */
    int new_best;
    /* Progress. */
    int64_t generation, evals, since_best;
    int64_t t_d0, t_e0;
    int64_t floor;          /* ga_floor of the traffic: no chromosome can be shorter */
    int base_scheme;
    uint32_t base_interval;
    int64_t base_stack, base_nonsplit;
    double t_start, elapsed_before, last_checkpoint;
    /* Store. */
    store *db;
    int64_t run;
    ga_record *recs;
    int nrec, caprec;
    uint8_t *scratch;
};

/* Allocate a GA without a store run (ga_new and ga_resume build on it):
 * parameters checked and copied, dest copied, population, evaluation pool and
 * generator seeded; nothing simulated.  Returns the ga for ga_free, or NULL
 * with a message in err when gp or sp fails its check, memory runs out or
 * the evaluation threads cannot start. */
ga *ga_alloc(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
             char *err, size_t errlen);

/* Take a newly evaluated chromosome into account: a new best or a synonym
 * is recorded with this generation.  Returns 1 if it repeats a recorded
 * best signature (ga.c's consider; island.c needs it). */
int ga_consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score);

#endif
