/* Parameter sweeps: many runs over a grid of options, every result recorded
 * in one database: GA runs (`nocsim ga`; the paper's Sect. 6.1 ran 288
 * combinations x 5 runs per traffic pattern, Fig. 5) or open-loop curves
 * (`nocsim load`: VCs x buffers x patterns x routing x packet mixes, each
 * curve bisected for its saturation throughput).
 *
 * A sweep is a spec (its command, traffic patterns, slices, replicates,
 * seed, a grid of option axes and fixed options) expanded into tasks.  Task
 * k is one run of the command with the options of its grid point and a
 * seed that follows from the sweep's seed and k alone, so a run's result
 * does not depend on which process ran it or when.  Each task runs as a
 * child `nocsim ga` or `nocsim load` process writing into a private
 * temporary database; the coordinator (the only process that opens the
 * sweep's database) adopts the finished run from that file, linked to the
 * sweep's record by its parent field.  A killed sweep loses only its
 * unfinished tasks, which `--resume` runs again.
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

/* What each task of a sweep runs: `nocsim ga` (a GA run, the paper's study)
 * or `nocsim load` (an open-loop curve bisected for its saturation point). */
typedef enum { SWEEP_GA = 0, SWEEP_LOAD = 1 } sweep_command;
/* The command's name ("ga", "load"), which is also the kind of its runs. */
const char *sweep_command_name(sweep_command c);

/* One axis of the grid: one or more flags of the command (without "--") that
 * vary together, and the value tuples they take ("100,0" for two flags; the
 * value of a one-flag axis is taken whole, commas and all: a packet mix
 * "1:0.5,8:0.5"). */
typedef struct {
    int nflags;
    char **flags;
    int nvalues;
    char **values;   /* each a comma-separated tuple of nflags values */
} sweep_axis;

typedef struct {
    sweep_command command;   /* set before the grid is parsed: it decides which flags can be axes */
    int ntraffic;
    char **traffic;
    int slices;          /* GA only (0 in a load sweep) */
    int runs;            /* replicates per grid point */
    uint64_t seed;
    char *grid_name;     /* "paper" or the grid file's path, for people */
    int naxes;
    sweep_axis *axes;
    int noptions;
    char **options;      /* fixed arguments of the command, e.g. "--size", "8" */
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
 * be an axis of spec->command is refused with the reason: the sweep's own
 * (db, seed, traffic, threads, output flags, help; a GA sweep's slices and
 * size; a load sweep's saturation and trace) and flags without a value (GA:
 * interlock, slice-reinit; load: all, per-flow, throughput, by-length: give
 * them to the sweep as fixed options).  Appends the axes to *spec.  Returns
 * 0, or -1 with err set (spec keeps what it had). */
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

/* The spec as canonical text (lines "command" (a load sweep's only: a GA
 * sweep's text is as it was before load sweeps, so old records read as GA
 * sweeps), "traffic", "slices" (GA only), "runs", "seed", "grid-name",
 * "option TOKEN", "axis ..."), and back.  Option tokens with a
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

/* The argument vector of task t's run (argv[0] = "ga" or "load"),
 * recording into db_path, single-threaded, quiet; a load task also
 * bisects for its saturation point (--saturation).  NULL-terminated,
 * malloc'd; free with sweep_argv_free.  NULL when out of memory. */
char **sweep_task_argv(const sweep_spec *spec, const sweep_task *t, const char *db_path);
void sweep_argv_free(char **argv);

#endif
