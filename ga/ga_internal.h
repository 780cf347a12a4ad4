/* The GA's state, shared by the files of ga/: ga.c (the loop), start.c,
 * core.c (what the loop and the modes share), alloc.c, the modes, record.c,
 * persist.c and checkpoint.c (saving and restoring it).  Calls go one way:
 * ga.c -> start.c -> the modes -> record.c, core.c; persist.c ->
 * checkpoint.c -> alloc.c -> the modes.  Not part of the public interface. */
#ifndef NOCSIM_GA_INTERNAL_H
#define NOCSIM_GA_INTERNAL_H

#include "ga/ga.h"
#include "sim/delta_run.h"
#include "sim/pool.h"
#include "util/fault.h"
#include "util/rng.h"

enum { KIND_NONE = 0, KIND_MUTATE, KIND_CROSS, KIND_REINIT };

/* The score of a failed simulation, above every real one. */
#define GA_SCORE_INF (INT64_MAX / 4)

/* A chromosome to write in the next transaction (persist.c). */
typedef struct {
    uint8_t *genes;
    size_t len;
    uint32_t crc;
    int64_t score, generation;
    sim_metrics m;   /* at S slices */
    int lean;        /* m is a lean run's (ga_consider): completed before it is written */
    sim_metrics m1;  /* single slice: t_d and T_e */
    int synonym;
} ga_record;

/* Each mode of the search keeps its state in its own struct, allocated,
 * used and freed by its own file; a mode that is off leaves its struct
 * zeroed (NULL pointers).  ga.c is the generation loop. */

/* Tails (parent_runs.c; gp.target > 0): the tail cycles (sim_tail_cycles,
 * npk = nodes x slices entries) of each chromosome's run and of each
 * child's, swapped with the configs; a chromosome's are known (ok) when its
 * run finished and was not a perturbed one.  They aim the targeted moves. */
typedef struct {
    int64_t npk;
    int64_t **tails, **ctails;
    uint8_t *ok;
} ga_tails;

/* Proven repeats (parent_runs.c): the decisions (sim/decisions.h) of each
 * chromosome's run and of each child's, swapped with the configs like the
 * tails.  A child that its parent's decisions prove to repeat the parent's
 * run (repeat[k]) is not simulated and not counted in evals: its results are
 * the parent's, so it is accepted, and the parent's tails and decisions stay
 * (they are the child's).  NULL when the search cannot use them (several
 * children a generation, perturbed runs, the paper's GA). */
typedef struct {
    sim_decisions **dec, **cdec;
    uint8_t *repeat;
    int64_t repeats;        /* children proven so far (speculated ones taken included;
                               0 when the search cannot use decisions) */
    /* Delta runs (ga_set_delta; NULL when off or where dec is NULL or the
     * engine cannot serve the network): each slot's record of its
     * chromosome's run (sim/delta_run.h), which a child reads when it is
     * valid, and each child slot's patch.  An accepted child that ran on its
     * cone patches the record and dec[k] into its own; any other change of
     * the slot makes the record invalid and marks it stale, and before the
     * next children are made a stale slot with known decisions is run again
     * to write its record (ga_parent_runs_record; not counted); so is one
     * whose accepted child went on to the whole network, which leaves its
     * decisions unknown (sim_job's whole) for that run to write.  A proven
     * repeat keeps the record, as it keeps the decisions; so rcfg[k] is the
     * configuration the record is a run of (the repeat's parent, whose genes
     * the repeat changed without changing its run), and the slot's children
     * are run as its children. */
    delta_rec **rec;
    sim_config **rcfg;
    delta_patch **patch;
    uint8_t *stale;         /* per slot: REC_FRESH, REC_STALE or REC_STALE_NO_DEC */
    int64_t cones;          /* children run on their cone (taken ones; not in checkpoints) */
} ga_repeats;

/* A slot's record: as its chromosome's run, stale (run it again when its
 * decisions are known), or stale with the decisions left for that run to
 * write (an accepted child that went on to the whole network). */
enum { REC_FRESH = 0, REC_STALE = 1, REC_STALE_NO_DEC = 2 };

/* Speculation (speculate.c), for one lineage on several threads: the
 * children of the next generations, made from the current parent as if each
 * earlier one were rejected (with the generator's state after each making)
 * and evaluated together (a batch a thread), or offered one at a time.  A generation takes the next one while its parent
 * is unchanged; anything else empties the queue (ga_spec_void).  The run's
 * results are those of making and evaluating one child a generation;
 * children never taken are not counted.  A proven repeat is sure to be
 * accepted once the children before it are rejected: it ends a batch, and
 * offered children behind it are made with it as their parent.  Not in
 * checkpoints: a resumed run makes them again from the saved generator. */
typedef struct {
    int depth;              /* children made at a time (0: no speculation) */
    int n, next;            /* children queued, the next one to take */
    /* With delta runs (rp.rec) children are offered to the pool one at a
     * time instead (sim_pool_offer), up to `ahead` in flight in a ring from
     * `head`, `count` of them; a job that will be accepted withdraws the
     * ones behind it at once (spec_voids_later).  mrng and mgen: the
     * generator and generation the next one is made with; mpar: the entry
     * of the last proven repeat queued, the parent the next one is made
     * from (-1: the slot's parent); kept: the child just taken is a proven
     * repeat, whose acceptance the queue behind it assumed. */
    int ahead, head, count, mpar, kept;
    int slots;              /* entries allocated: the larger of depth and ahead */
    int *ticket;
    rng mrng;
    int64_t mgen;
    sim_config **child;
    int64_t **tails;
    sim_job *jobs;
    rng *rng;
    int *kind;
    sim_decisions **dec;
    delta_patch **patch;    /* with delta runs (rp.rec), else NULL */
    uint8_t *repeat;
} ga_spec;

/* --children C > 1 (children.c): a mutating slot's children besides
 * child[k], the j-th (1..C-1) at k (C-1) + j-1, with their tails; their jobs
 * follow the P slots' in jobs.  ga_extra_keep_best moves the best of a
 * slot's C into child[k] and keeps what ga_consider said of it in clone. */
typedef struct {
    sim_config **child;
    int64_t **tails;
    int *clone;
} ga_extra;

/* --perturb K (perturb.c): pop x (2K+1) configurations and their jobs. */
typedef struct {
    sim_config **cfg;
    sim_job *jobs;
    int64_t *score;         /* one slot's 2K+1 scores */
} ga_perturb;

/* The record (record.c): the signatures recorded, so that a chromosome is
 * recorded once; the synonyms of the best score recorded and met; the
 * generation rows and records made since the last checkpoint, written with
 * the next one in one transaction; the scratch for signatures; and when the
 * last checkpoint was written.  The checkpoint saves the signatures and the
 * two counts. */
typedef struct {
    uint32_t *crcs;
    size_t ncrc, capcrc;
    int64_t synonyms;       /* recorded synonyms of the best score */
    int64_t syn_seen;       /* synonyms of the best score met (GA_RECORD_SPARSE) */
    ga_record *recs;
    int n, cap;
    store_gen *gens;        /* generation rows not yet written */
    int ngen, capgen;
    uint8_t *scratch;
    sim_config *signed_last;   /* the last chromosome signed, and its signature: the next one's base */
    uint32_t signed_crc;
    int signed_any;
    double last_checkpoint;
    int lost;   /* memory ran out keeping one: ga_persist fails the run (FAULT_RESOURCE) */
} ga_records;

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
    sim *full;              /* when the pool's runs are lean (ga_score_lean): a record's
                               every metric, from a run of its own; else NULL */
    rng rng;
    /* Population, children and the per-generation scratch. */
    sim_config **pop, **child;
    int64_t *score;
    sim_metrics *pop_m;
    int32_t *age;
    int *kind;
    sim_job *jobs;
    int *order;             /* sort_population, for crossover */
    uint64_t *tiekey;
    /* The modes. */
    ga_tails tl;
    ga_repeats rp;
    ga_spec spec;
    ga_extra ex;
    ga_perturb pt;
    ga_records rec;
    /* The best so far and its signature (set by ga_consider, record.c). */
    sim_config *best;
    int64_t best_score;
    sim_metrics best_m;
    uint32_t best_crc;
    int new_best;           /* in this generation */
    /* Progress. */
    int64_t generation, evals, since_best;
    int64_t t_d0, t_e0;
    int64_t floor;          /* ga_floor of the traffic: no chromosome can be shorter */
    int base_scheme;
    uint32_t base_interval;
    int64_t base_stack, base_nonsplit;
    double t_start, elapsed_before;
    /* Store. */
    store *db;
    int64_t run;
};

/* Allocate a GA without a store run (ga_new and ga_resume build on it):
 * parameters checked and copied, dest copied, population, evaluation pool and
 * generator seeded; nothing simulated.  Returns the ga for ga_free, or NULL
 * with a message in err when gp or sp fails its check (*kind FAULT_INPUT),
 * memory runs out or the evaluation threads cannot start (FAULT_RESOURCE). */
NOCSIM_MUST_USE
ga *ga_alloc(const ga_params *gp, const sim_params *sp, const int32_t *dest, const char *traffic_name,
             fault_kind *kind, char *err, size_t errlen);

/* Take a newly evaluated chromosome into account: a new best or a synonym
 * is recorded with this generation.  Returns 1 if it repeats a recorded
 * best signature (record.c; island.c needs it too).  When memory runs out
 * keeping the record, rec.lost is set and the generation's ga_persist fails
 * (so the callers, inside the evaluation loops, need no error path). */
int ga_consider(ga *g, const sim_config *c, const sim_metrics *m, int64_t score);

/* ---- core.c: shared by the loop (ga.c, start.c) and the modes' files ---- */

double ga_now_seconds(void);
NOCSIM_MUST_USE
sim_config *ga_new_config(const ga *g);
/* A local mutation of k moves; tails: the parent's, or NULL (no targeted move). */
void ga_mutate_moves(ga *g, sim_config *c, int k, const int64_t *tails);
/* The children of this generation into child[k] (and the extra children),
 * with kind[k] and, where decisions are kept, repeat[k]. */
void ga_make_children(ga *g);
/* The budget rule [R-GA-BUDGET-1]: with --evals E > 0 the run makes no
 * generation once evals >= E (the generation that crosses E finishes);
 * without (E = 0) the budget never ends it. */
int ga_budget_spent(const ga_params *gp, int64_t evals);
/* Run jobs[0..count) on the pool; each run counts in evals. */
void ga_evaluate(ga *g, int count);
/* Cutoff for a child of slot k (0: run to the end). */
int64_t ga_child_cutoff(const ga *g, int k);
/* The job of child c of slot k, just made (repeat[k] is its verdict): a run
 * that keeps its tails and decisions where given, or, for a proven repeat,
 * the parent's results without a run (cfg NULL).  With patch and a valid
 * record of the slot (rp.rec), a delta run against that record's run of
 * rp.rcfg[k]. */
sim_job ga_child_job(const ga *g, int k, const sim_config *c, int64_t *tails, sim_decisions *dec, delta_patch *patch);

/* parent_runs.c: tails and decisions. */
NOCSIM_MUST_USE
int ga_parent_runs_alloc(ga *g);
void ga_parent_runs_free(ga *g);
/* A full run of slot k's chromosome, keeping its tails, decisions and
 * delta record. */
sim_job ga_parent_job(const ga *g, int k);
/* Slot k took child k (accepted, with the job's metrics m): its tails and
 * decisions become the slot's, unless the child was a proven repeat; its
 * delta record the child's when the child ran on its cone, else stale. */
void ga_parent_runs_accept(ga *g, int k, const sim_job *job);
/* Slot k's chromosome was run by a parent job with metrics m. */
void ga_parent_runs_ran(ga *g, int k, const sim_metrics *m);
/* Slot k's chromosome and decisions were replaced another way (a migrant):
 * its delta record is stale. */
void ga_parent_runs_replaced(ga *g, int k);
/* Delta runs on (allocating the records and patches, all stale, and the
 * pool's engines) where the search can use them, or off (freed).  0, or -1
 * with err set when memory runs out (then off). */
NOCSIM_MUST_USE
int ga_parent_runs_delta(ga *g, int on, char *err, size_t errlen);
/* Before children are made: each stale slot with known decisions (or left
 * for it to write: REC_STALE_NO_DEC) run again to write its record and
 * decisions (not counted in evals). */
void ga_parent_runs_record(ga *g);
/* After a resume: the population's tails and decisions, which checkpoints
 * do not hold, from its runs again (not counted as evaluations); which
 * slots' tails are known (tl.ok) is the checkpoint's. */
void ga_parent_runs_refresh(ga *g);

/* speculate.c */
NOCSIM_MUST_USE
int ga_spec_alloc(ga *g);        /* after ga_parent_runs_alloc */
void ga_spec_free(ga *g);
/* A patch per depth when delta runs are on (rp.rec), none when off.  0, or
 * -1 when memory runs out. */
NOCSIM_MUST_USE
int ga_spec_patches(ga *g);
/* This generation's child and its results, as ga_make_children and
 * evaluation would give them. */
void ga_spec_take(ga *g);
/* Does slot k take a child of score sc in its parent's place (ga.c)? */
int ga_accepts(const ga *g, int k, int64_t sc);
/* The same, with delta runs: the children offered one at a time. */
void ga_spec_take_ahead(ga *g);
/* The parent changed: the queued children are void (the offered ones
 * withdrawn: on return no job reads the parent's record). */
void ga_spec_void(ga *g);
/* Is the child just taken a proven repeat the queue behind it was made
 * from?  Its acceptance then keeps the queue, and nothing the queued jobs
 * read changes (the parent's score, record and decisions are its). */
int ga_spec_kept(const ga *g);
/* After slot 0 accepted its child: the next generation's children offered
 * now (delta runs and a current record only; else nothing). */
void ga_spec_refill(ga *g);

/* children.c: --children C > 1. */
NOCSIM_MUST_USE
int ga_extra_alloc(ga *g);       /* after ga_parent_runs_alloc */
void ga_extra_free(ga *g);
/* Where slot k's j-th child (1..children-1) lives in ex.child and ex.tails. */
static inline int ga_extra_at(const ga *g, int k, int j) { return k * (g->gp.children - 1) + j - 1; }
/* Slot k's j-th child: child[k] for j = 0, else the extra one. */
static inline sim_config *ga_extra_child(ga *g, int k, int j) { return j ? g->ex.child[ga_extra_at(g, k, j)] : g->child[k]; }
/* Append the jobs of the extra children to jobs[nj..]; returns the new count. */
int ga_extra_jobs(ga *g, int nj);
/* After evaluation: each mutating slot keeps the best of its C children. */
void ga_extra_keep_best(ga *g);
/* The tie rule of every "best of several" choice [R-GA-TIE-1]: the index of
 * the smallest of score[0..n) (n >= 1), the first of equal ones. */
int ga_first_best(const int64_t *score, int n);

/* perturb.c: --perturb K. */
NOCSIM_MUST_USE
int ga_perturb_alloc(ga *g);
void ga_perturb_free(ga *g);
/* Evaluate every child at V-K..V+K into jobs[k], keeping the best V (the
 * first of equal scores, ga_first_best).  Every one of the pop x (2K+1)
 * runs counts in evals [R-GA-BUDGET-1], a clamped duplicate included. */
void ga_perturb_evaluate(ga *g);
/* The j-th (0..2K) interval that --perturb K runs for V: V-K+j, clamped
 * into [s->vmin, s->vmax] [R-GA-PERTURB-1]. */
uint32_t ga_perturb_interval(const ga_space *s, uint32_t v, int K, int j);

/* record.c: the record (ga_consider above). */
void ga_records_free(ga *g);

/* persist.c: the store transactions. */
/* This generation's row is kept; at most once a second (or when
 * force_checkpoint), the rows and records kept so far, the run's best and a
 * checkpoint are written in one transaction [R-GA-STORE-1].  Returns 0, or
 * -FAULT_RESOURCE (a record was lost: rec.lost, or memory for the
 * checkpoint or the rows) or -FAULT_IO (the store failed) with a message in
 * err. */
NOCSIM_MUST_USE
int ga_persist(ga *g, int force_checkpoint, char *err, size_t errlen);

#endif
