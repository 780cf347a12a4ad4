/* Running a sweep's tasks: each task is a child `nocsim ga` or `nocsim load`
 * process writing into a scratch database of its own, adopted into the
 * sweep's database by the coordinator when it finishes (record.h).
 * Locally, `jobs` children run at once; with MPI (sweep/mpi.c) ranks run
 * them and send the scratch files to rank 0. */
#ifndef NOCSIM_SWEEP_RUN_H
#define NOCSIM_SWEEP_RUN_H

#include <signal.h>
#include <sys/types.h>
#include <stdint.h>

#include "store/store.h"
#include "sweep/sweep.h"
#include "util/fault.h"

/* What a runner returns besides 0 (every task done). */
enum {
    SWEEP_INTERRUPTED = 1, /* stop() said so: running tasks were stopped and dropped */
    SWEEP_BAD_TASK = 2,    /* a task's command refused its options (err has its message) */
};

typedef struct sweep_runner {
    const char *exe;                  /* the nocsim binary that runs the tasks */
    const char *tmpdir;               /* scratch root; NULL: $TMPDIR, else /tmp */
    int jobs;                         /* children at once (local runner) */
    int (*stop)(void);                /* non-zero once the sweep should stop (a signal); may be NULL */
    /* Called after each adopted task (run = its id in the sweep's database). */
    void (*progress)(void *ctx, int64_t done, int64_t total, const sweep_task *t, int64_t run, double seconds);
    void *ctx;
} sweep_runner;

/* Check the options of every grid value (and the fixed options) by a dry
 * run of one task per value (`nocsim ga ... --dry-run`; `nocsim load` under
 * NOCSIM_PARSE_SHOW=1, which parses and checks but runs nothing).  Returns 0, SWEEP_BAD_TASK
 * with the child's message in err, SWEEP_INTERRUPTED as soon as rn->stop
 * says so (checked before each child), or -1 when a child cannot be run. */
NOCSIM_MUST_USE
int sweep_validate(const sweep_spec *spec, const sweep_runner *rn, char *err, size_t errlen);

/* Run every task with done[k] == 0 on this machine and adopt it into sweep id
 * of db (done[] and *ndone are updated as tasks finish).  Returns 0,
 * SWEEP_INTERRUPTED, SWEEP_BAD_TASK, or -1 (a store or system failure, or a
 * task that failed at run time: err says which). */
NOCSIM_MUST_USE
int sweep_run_local(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                    const sweep_runner *rn, char *err, size_t errlen);

/* ---- one task, for the local and the MPI runners -------------------------- */
typedef struct {
    char dir[4096];        /* scratch folder */
    char db[4096 + 16];    /* its database */
    pid_t pid;
    sweep_task task;
    double started;
} sweep_child;

/* Make a scratch folder and start task t in it (dry_run: only check its
 * options, see sweep_validate).  Returns 0 or -1 (err). */
NOCSIM_MUST_USE
int sweep_child_start(sweep_child *c, const sweep_spec *spec, const sweep_task *t, const sweep_runner *rn,
                      int dry_run, char *err, size_t errlen);
/* After the child exited with wait status ws: 0 when it succeeded, else
 * SWEEP_BAD_TASK (exit 2) or -1, with the last line of its output in err. */
NOCSIM_MUST_USE
int sweep_child_result(const sweep_child *c, int ws, char *err, size_t errlen);
/* Remove the scratch folder and everything in it. */
void sweep_child_cleanup(sweep_child *c);
/* Remove the scratch folders that killed sweeps (of any spec) left in the
 * scratch root: folders are named after a hash of the spec (or "recv") and
 * the pid of the process that made them; one whose process is alive, or
 * that is not ours (another user's), is kept.  Called at every sweep's
 * start (sweep_validate, the runners). */
void sweep_clean_stale(const sweep_runner *rn);
/* Seconds on a monotonic clock. */
double sweep_now(void);

#endif

#ifdef NOCSIM_MPI
/* The MPI runner (sweep/mpi.c), called on every rank after MPI_Init.  Rank 0
 * passes the sweep's database and spec; the others pass db = NULL and get the
 * spec from rank 0.  Ranks > 0 take tasks one at a time (dynamic balancing:
 * runs differ in length), run them as local children, and send rank 0 the
 * scratch database, which rank 0 adopts; only rank 0 opens the sweep's
 * database.  With one rank, rank 0 runs the tasks itself (the local runner,
 * one job).  Returns on every rank: 0, SWEEP_BAD_TASK or -1 (err). */
NOCSIM_MUST_USE
int sweep_run_mpi(store *db, int64_t id, const sweep_spec *spec, uint8_t *done, int64_t *ndone,
                  const sweep_runner *rn, char *err, size_t errlen);
/* Rank 0 sends the spec text to the other ranks; they fill *spec from it.
 * Returns 0 or -1 on every rank alike (ok is rank 0's verdict: 0 means rank 0
 * has nothing to run and every rank should stop). */
NOCSIM_MUST_USE
int sweep_mpi_share_spec(sweep_spec *spec, int *ok, char *err, size_t errlen);
#endif
