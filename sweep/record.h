/* A sweep in the database: its record (a run of kind "sweep" whose params
 * hold the spec as canonical text), the tasks already done (runs of the
 * sweep's command, "ga" or "load", whose parent is the record, matched to
 * tasks by their seed), the adoption of a
 * finished task's scratch database, and the summary of `nocsim db sweep`.
 * Same error conventions as sweep.h; store errors come through err. */
#ifndef NOCSIM_SWEEP_RECORD_H
#define NOCSIM_SWEEP_RECORD_H

#include <stdint.h>

#include "store/store.h"
#include "sweep/sweep.h"
#include "util/fault.h"

/* Record spec as a new sweep (status unfinished); sets *id. */
NOCSIM_MUST_USE
int sweep_record_create(store *db, const sweep_spec *spec, const char *version, int64_t *id,
                        char *err, size_t errlen);
/* Load the spec of sweep `id` into *spec (cleared first).  Returns 0,
 * -FAULT_INPUT when the run does not exist or is not a sweep (err says
 * which), the store's fault on a store error, -FAULT_IO for a damaged
 * record. */
NOCSIM_MUST_USE
int sweep_record_load(store *db, int64_t id, sweep_spec *spec, char *err, size_t errlen);

/* Mark done[k] = 1 (an array of spec->ntasks bytes, zeroed by the caller)
 * for every task that has a finished run (of spec->command) under sweep id; *ndone counts
 * them.  A task recorded twice is a damaged sweep: -FAULT_IO; memory:
 * -FAULT_RESOURCE; the store's failures: its fault. */
NOCSIM_MUST_USE
int sweep_done_tasks(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                     char *err, size_t errlen);

/* Bring the finished run of the scratch database at scratch_path into db
 * under sweep id, in one transaction (store_merge).  The scratch file gets a
 * copy of the sweep's record (same uuid) as the run's parent, so merging
 * links the run to the sweep.  The scratch file must hold exactly one run, of
 * kind cmd ("ga" or "load"), finished, with the task's seed.  *run is set to
 * the new id. */
NOCSIM_MUST_USE
int sweep_adopt(store *db, int64_t id, sweep_command cmd, const sweep_task *t, const char *scratch_path,
                int64_t *run, char *err, size_t errlen);

/* ---- the summary of nocsim db sweep -------------------------------------- *
 * The figure of a run: a GA run's best duration (lower is better), a load
 * run's saturation throughput, the accepted flits/cycle per sending node at
 * the highest stable rate its bisection found (params "saturation"; 0 when
 * every rate down to the bisection's precision saturated; higher is better).
 * Runs without their figure (no best; a load run without --saturation) are
 * not counted. */
typedef struct {
    int traffic;          /* index into spec.traffic */
    int64_t combo;
    int runs;             /* finished runs of this grid point with their figure */
    int64_t best;         /* GA: lowest best duration, or -1 with no runs */
    double mean;          /* mean figure over the runs (NaN with none) */
    int64_t best_run;     /* run id of the best figure (-1 with no runs) */
    double top;           /* load: highest saturation throughput (NaN with no runs) */
    double rate;          /* load: mean saturation rate (NaN with no runs) */
} sweep_point;

typedef struct {
    int traffic;
    int axis;             /* the axis whose levels' mean figures differ most (-1: none differ) */
    double spread;        /* max - min of the per-level means of that axis */
    int64_t best_run;     /* the pattern's best run (-1: none) ... */
    int64_t best;         /* ... GA: its duration ... */
    uint32_t best_crc;    /* ... and its best chromosome's signature */
    double stacking;      /* GA: mean simple-stacking baseline, for the ratio */
    double top;           /* load: the best run's saturation throughput (NaN: none) */
    double mean;          /* load: mean saturation throughput over the pattern's runs */
} sweep_pattern;

typedef struct {
    sweep_spec spec;
    int64_t id, done, total;
    const char *status;   /* of the sweep's record */
    char status_buf[16];
    sweep_point *points;  /* ntraffic x ncombos, traffic-major */
    sweep_pattern *patterns;
    double *level_mean;   /* per traffic, axis, value: mean figure (NaN without runs) */
    int64_t nlevels;      /* sum of the axes' value counts */
} sweep_summary;

/* Summarise sweep id.  Returns 0, or sweep_record_load's faults,
 * -FAULT_RESOURCE when memory runs out, the store's fault, -FAULT_IO for a
 * task recorded twice. */
NOCSIM_MUST_USE
int sweep_summarise(store *db, int64_t id, sweep_summary *out, char *err, size_t errlen);
void sweep_summary_clear(sweep_summary *s);
/* Offset of axis a's first level in level_mean's per-traffic block. */
int64_t sweep_level_offset(const sweep_spec *spec, int a);

#endif
