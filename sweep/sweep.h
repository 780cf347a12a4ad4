/* Parameter sweeps: many GA runs over a grid of `nocsim ga` options, every
 * result recorded in one database (paper Sect. 6.1 ran 288 combinations x 5
 * runs per traffic pattern, Fig. 5).
 *
 * A sweep is a spec (traffic patterns, slices, replicates, seed, a grid of
 * option axes and fixed options) expanded into tasks.  Task k is one
 * `nocsim ga` run with the options of its grid point and a seed that follows
 * from the sweep's seed and k alone, so a run's result does not depend on
 * which process ran it or when.  Each task runs as a child `nocsim ga` process
 * writing into a private temporary database; the coordinator (the only process
 * that opens the sweep's database) adopts the finished run from that file,
 * linked to the sweep's record by its parent field.  A killed sweep loses only
 * its unfinished tasks, which `--resume` runs again.
 *
 * Conventions: functions that can fail take (char *err, size_t errlen), write
 * one line there and return -1 (or NULL); 0 on success.  Nothing is printed
 * except by the runners' progress callbacks.  Where a caller must tell bad
 * input from a failure (record.h's loaders), the result is a negative
 * util/fault.h kind instead. */
#ifndef NOCSIM_SWEEP_H
#define NOCSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/fault.h"

#define SWEEP_MAX_TASKS 1000000   /* refused above this: a typo, not a study (the paper's: 8,640) */

/* One axis of the grid: one or more `nocsim ga` flags (without "--") that
 * vary together, and the value tuples they take ("100,0" for two flags). */
typedef struct {
    int nflags;
    char **flags;
    int nvalues;
    char **values;   /* each a comma-separated tuple of nflags values */
} sweep_axis;

typedef struct {
    int ntraffic;
    char **traffic;
    int slices;
    int runs;            /* replicates per grid point */
    uint64_t seed;
    char *grid_name;     /* "paper" or the grid file's path, for people */
    int naxes;
    sweep_axis *axes;
    int noptions;
    char **options;      /* fixed `nocsim ga` arguments, e.g. "--size", "8" */
    int64_t ncombos;     /* product of the axes' value counts */
    int64_t ntasks;      /* ntraffic x ncombos x runs */
} sweep_spec;

/* The paper's grid (Appendix A.3): --algo paper, mutation 0.1|0.05|0.02,
 * crossover rate 0.1|0.2|0.4|0.6|0.8|0.9, crossover interval 10|20, ties
 * random|age, and watchdog 100|200 or lifetime 100|200 (they exclude each
 * other): 288 combinations. */
extern const char sweep_paper_grid[];

/* Parse grid text (one axis a line: "flag[,flag...] value[,value...] ...",
 * '#' comments), naming `where` and the line in errors.  A flag that cannot
 * be an axis is refused with the reason: the sweep's own (db, seed, traffic,
 * slices, size, threads, output flags, help, ...) and flags without a value
 * (interlock, slice-reinit: give them to the sweep as fixed options).  Appends the axes to
 * *spec.  Returns 0, or -1 with err set (spec keeps what it had). */
NOCSIM_MUST_USE
int sweep_grid_parse(sweep_spec *spec, const char *text, const char *where, char *err, size_t errlen);
/* Read and parse a grid file (no line length limit; NUL refused). */
NOCSIM_MUST_USE
int sweep_grid_load(sweep_spec *spec, const char *path, char *err, size_t errlen);

/* Check the spec and compute ncombos and ntasks: at least one traffic and
 * one axis value, runs >= 1, no flag both on an axis and in options, and the
 * limits above.  Returns 0 or -1 with err set. */
NOCSIM_MUST_USE
int sweep_spec_finish(sweep_spec *spec, char *err, size_t errlen);
void sweep_spec_clear(sweep_spec *spec);

/* The spec as canonical text (lines "traffic", "slices", "runs", "seed",
 * "grid-name", "option TOKEN", "axis ..."), and back.  Option tokens with a
 * control byte are refused.  sweep_spec_to_text returns a malloc'd string or
 * NULL (out of memory, or a bad token: err says which). */
NOCSIM_MUST_USE
char *sweep_spec_to_text(const sweep_spec *spec, char *err, size_t errlen);
NOCSIM_MUST_USE
int sweep_spec_from_text(sweep_spec *spec, const char *text, char *err, size_t errlen);

/* Task k (0 <= k < ntasks): its traffic pattern, grid point and replicate. */
typedef struct {
    int64_t index;
    int traffic;        /* index into spec->traffic */
    int64_t combo;
    int replicate;
    uint64_t seed;      /* derived from spec->seed and index only; distinct per task */
} sweep_task;

void sweep_task_get(const sweep_spec *spec, int64_t k, sweep_task *t);
/* Value of axis a at grid point combo (a tuple "v1,v2" for a joint axis). */
const char *sweep_task_value(const sweep_spec *spec, int64_t combo, int a);

/* The argument vector of task t's `nocsim ga` run (argv[0] = "ga"),
 * recording into db_path, single-threaded, quiet.  NULL-terminated,
 * malloc'd; free with sweep_argv_free.  NULL when out of memory. */
char **sweep_task_argv(const sweep_spec *spec, const sweep_task *t, const char *db_path);
void sweep_argv_free(char **argv);

#endif
