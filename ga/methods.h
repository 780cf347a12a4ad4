/* Parameter-loading mode (paper Appendix A.4) and the methods built on it:
 * recorded chromosomes are re-simulated under other run-time parameters.
 *
 *   slice extrapolation (Sect. 6.1): chromosomes recorded at S slices are
 *     replayed at S' slices; for each, a single-slice run gives its T_e and
 *     the interval is searched from l_c to T_e;
 *   post-stacking (Sect. 6.3): the same over a run's synonyms, filtered as
 *     the paper records them: a synonym counts only if one of ir, or, ib, ob,
 *     lb, T_e exceeds the last one kept;
 *   rough estimation (Sect. 6.2) ends with the extrapolation of its best.
 * Results are recorded as a new run whose parent is the source run.
 *
 * Conventions, as in store/store.h: 0 on success, -1 with a one-line message
 * in err (errlen bytes) on failure; the store is borrowed for the call. */
#ifndef NOCSIM_GA_METHODS_H
#define NOCSIM_GA_METHODS_H

#include <stdint.h>

#include "ga/ga.h"
#include "store/store.h"
#include "util/fault.h"

/* What a source run was simulated with: its parameters and traffic, read
 * from its checkpoint. */
typedef struct {
    ga_params gp;
    sim_params sp;
    int32_t *dest;
    char traffic[256];
    store_run run;
} method_source;

/* Fill *src for run `run` of db: the run's row, and the parameters and
 * traffic of the nearest checkpoint among the run and its ancestors (at most
 * 16 generations up), with the run's own number of slices.  src->dest and
 * src->run's strings are owned by src: release them with
 * method_source_clear.  Returns 0, or with a message in err -FAULT_INPUT
 * when the run does not exist or no ancestor has a checkpoint, the
 * checkpoint's fault when it is damaged, the store's when it fails (src then
 * owns nothing and needs no clear). */
NOCSIM_MUST_USE
int method_source_load(store *db, int64_t run, method_source *src, char *err, size_t errlen);
/* Release what src owns; src may then be loaded again.  Safe on a zeroed or
 * already cleared src. */
void method_source_clear(method_source *src);

typedef enum { MINE_ALL = 0, MINE_SYNONYMS, MINE_SYNONYMS_FILTERED, MINE_BEST } method_mine_set;

typedef struct {
    int slices;            /* S' to replay at */
    method_mine_set set;
    int threads;
    int64_t limit;         /* at most this many candidates (0 = all) */
} method_options;

typedef struct {
    int64_t candidates;    /* chromosomes replayed */
    int64_t sims;
    int64_t best_chrom;    /* id of the winning source chromosome */
    uint32_t best_interval;
    uint32_t best_crc;     /* signature of the winner at its new interval */
    sim_metrics best;      /* at S' slices */
    sim_metrics best1;     /* its single-slice run */
    sim_config *config;    /* the winner, at its best interval (owned) */
    int64_t run;           /* the run recorded for the result (0 if db was read-only) */
} method_result;

/* Replay the chosen candidates of `src_run` at opt->slices with an interval
 * search each; record the winner as a new run of kind `kind` (e.g.
 * "extrapolate", "post-stack"), with `version`, when record != 0.  Fills
 * *res (res->config is owned by res).  Returns 0, or a negative fault with
 * a message in err: method_source_load's, -FAULT_INPUT when the run has no
 * recorded chromosome, -FAULT_RESOURCE when memory or threads run out, the
 * store's when it fails (nothing is recorded then).
 * Call method_result_clear afterwards in both cases. */
NOCSIM_MUST_USE
int method_mine(store *db, int64_t src_run, const method_options *opt, const char *kind, int record,
                const char *version, method_result *res, char *err, size_t errlen);
/* Free res->config and set it to NULL.  Safe to call twice. */
void method_result_clear(method_result *res);

#endif
