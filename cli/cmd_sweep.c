/* `nocsim sweep`: a parameter study, many GA runs over a grid of options,
 * all recorded in one database; locally on the cores of this machine, or on
 * the ranks of an MPI job when built with `make MPI=1` and started by mpirun.
 * Parse -> run (sweep/) -> print. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "store/store.h"
#include "sweep/record.h"
#include "sweep/run.h"
#include "sweep/sweep.h"

#ifdef NOCSIM_MPI
#include <mpi.h>
#endif

static const cli_opt sweep_table[] = {
    CLI_HEADING("options:"),
    { "--traffic", 0, "T[,T...]", "patterns, e.g. brev,shfl (required)" },
    { "--slices", 0, "S", "slices of every run (default 2)" },
    { "--grid", 0, "paper|FILE", "the grid: paper (default) is --algo paper with mutation\n"
                                 "0.1|0.05|0.02, crossover rate 0.1|0.2|0.4|0.6|0.8|0.9,\n"
                                 "crossover interval 10|20, ties random|age, watchdog 100|200\n"
                                 "or lifetime 100|200; FILE: one axis a line,\n"
                                 "  FLAG[,FLAG...] VALUE[,VALUE...] ...   (# comments)\n"
                                 "e.g. 'mutation 0.1 0.02' or 'watchdog,lifetime 100,0 0,100'" },
    { "--runs", 0, "R", "replicates per grid point (default 5)" },
    { "--seed", 's', "X", "the sweep's seed (default 1)" },
    { "--jobs", 'j', "K", "runs at once on this machine (default: all cores); each run\n"
                          "is single-threaded.  Under mpirun: one run per rank > 0" },
    { "--db", 0, "PATH", "database (default " STORE_DEFAULT_PATH ")" },
    { "--resume", 0, "SWEEP", "finish an interrupted sweep: finished runs are kept, the\n"
                              "others run again" },
    { "--quiet", 'q', NULL, "no progress line" },
    { "--format", 0, "text|json", "summary format (default text)" },
    CLI_END
};

static void help(const cli_spec *spec)
{
    printf("usage: nocsim sweep --traffic T[,T...] [--grid paper|FILE] [--runs R] [options] [GA options]\n"
           "       nocsim sweep --resume SWEEP [--db PATH] [--jobs K]\n\n"
           "Run the GA once for every point of a parameter grid, every traffic pattern and\n"
           "every replicate, and record every run in one database (paper Sect. 6.1: 288\n"
           "combinations x 5 runs per pattern).  Each run's seed follows from --seed and the\n"
           "run's place in the grid, so results do not depend on where or when a run ran.\n\n");
    cli_help(stdout, spec);
    printf("  any other option of nocsim ga (e.g. --size 8 --generations 200) is passed\n"
           "  to every run; see nocsim ga --help\n");
    printf("\nResults: nocsim db sweep SWEEP (best and mean per grid point, the parameter that\n"
           "mattered most, the best chromosome).\n\n"
           "examples:\n"
           "  nocsim sweep --traffic brev --slices 2 --grid paper --runs 5\n"
           "  mpirun -np 64 nocsim sweep --traffic brev,shfl --grid paper --runs 5\n"
           "  nocsim sweep --traffic shfl --grid my.grid --runs 3 --size 8 --generations 100\n");
}

typedef struct {
    sweep_spec spec;
    const char *dbpath, *grid;
    long resume, jobs;
    int quiet, fmt_json;
} sweep_opts;

static int push_str(char ***v, int *n, const char *s)
{
    char *d = strdup(s);
    char **nv = d ? realloc(*v, (size_t)(*n + 1) * sizeof *nv) : NULL;
    if (!nv) { free(d); return -1; }
    nv[(*n)++] = d;
    *v = nv;
    return 0;
}

/* Options the sweep sets itself for every run. */
static int ga_flag_reserved(const char *a)
{
    static const char *const r[] = { "--threads", "--db", "--no-db", "--resume", "--save-best", "--format", "--quiet",
                                     "--progress-every", "--dry-run", NULL };
    for (int i = 0; r[i]; i++)
        if (!strcmp(a, r[i])) return 1;
    return 0;
}

/* The parse in progress: the options, and whether any states the sweep
 * (refused with --resume). */
typedef struct {
    sweep_opts *o;
    int spec_flags, oom;
} sweep_parse;

/* Any other option of `nocsim ga`: passed to every run (a cli_set_fn). */
static int pass_to_ga(void *ctx, const char *cmd, const char *a, const char *v)
{
    sweep_parse *sp = ctx;
    if (ga_flag_reserved(a)) {
        fprintf(stderr, "nocsim %s: %s: the sweep sets this for every run; it cannot be given\n", cmd, a);
        return -1;
    }
    sp->spec_flags = 1;
    if (push_str(&sp->o->spec.options, &sp->o->spec.noptions, a) ||
        (v && push_str(&sp->o->spec.options, &sp->o->spec.noptions, v))) {
        sp->oom = 1;
        return -1;
    }
    return 0;
}

/* One of sweep_table's flags (a cli_set_fn). */
static int set_option(void *ctx, const char *cmd, const char *a, const char *v)
{
    sweep_parse *sp = ctx;
    sweep_opts *o = sp->o;
    long x;
    if (!strcmp(a, "--traffic")) {
        sp->spec_flags = 1;
        for (const char *p = v; *p; p++)
            if (*p == ',' && (p == v || p[1] == ',' || p[1] == 0)) {
                fprintf(stderr, "nocsim sweep: --traffic: '%s' has an empty pattern name\n", v);
                return -1;
            }
        char *copy = strdup(v), *save = NULL;
        if (!copy) { sp->oom = 1; return -1; }
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
            if (push_str(&o->spec.traffic, &o->spec.ntraffic, t)) { free(copy); sp->oom = 1; return -1; }
        free(copy);
    } else if (!strcmp(a, "--slices")) {
        sp->spec_flags = 1;
        if (!arg_int(cmd, a, v, 1, 255, &x)) return -1;
        o->spec.slices = (int)x;
    } else if (!strcmp(a, "--runs")) {
        sp->spec_flags = 1;
        if (!arg_int(cmd, a, v, 1, 100000, &x)) return -1;
        o->spec.runs = (int)x;
    } else if (!strcmp(a, "--seed")) {
        sp->spec_flags = 1;
        if (!arg_int(cmd, a, v, 0, 1L << 53, &x)) return -1;
        o->spec.seed = (uint64_t)x;
    } else if (!strcmp(a, "--grid")) {
        sp->spec_flags = 1;
        o->grid = v;
    } else if (!strcmp(a, "--jobs")) {
        if (!arg_int(cmd, a, v, 1, 4096, &o->jobs)) return -1;
    } else if (!strcmp(a, "--db")) {
        o->dbpath = v;
    } else if (!strcmp(a, "--resume")) {
        if (!arg_int(cmd, a, v, 1, INT64_MAX / 2, &o->resume)) return -1;
    } else if (!strcmp(a, "--quiet")) {
        o->quiet = 1;
    } else if (!strcmp(a, "--format")) {
        out_format f;
        if (!arg_format(cmd, v, &f)) return -1;
        if (f == FMT_CSV) { fprintf(stderr, "nocsim sweep: --format: the summary is text or json\n"); return -1; }
        o->fmt_json = f == FMT_JSON;
    }
    return 0;
}

/* Fills o from argv: 0 to go on, -1 after --help, else an exit status. */
static int parse(int argc, char **argv, sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    o->dbpath = STORE_DEFAULT_PATH;
    o->grid = "paper";
    o->spec.slices = 2;
    o->spec.runs = 5;
    o->spec.seed = 1;
    sweep_parse sp = { o, 0, 0 };
    const cli_group groups[] = { { sweep_table, set_option, &sp }, { ga_cli_table, pass_to_ga, &sp },
                                 { model_opts_table, pass_to_ga, &sp } };
    const cli_spec spec = { "sweep", groups, 3, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (sp.oom) goto oom;
    if (rc == CLI_HELP) {
        /* The GA's options are listed by nocsim ga --help, not here. */
        const cli_spec own = { "sweep", groups, 1, NULL, NULL };
        help(&own);
        return -1;
    }
    if (rc != EXIT_OK) return rc;
    int spec_flags = sp.spec_flags;
    if (o->resume && spec_flags) {
        fprintf(stderr, "nocsim sweep: --resume: the sweep's traffic, grid, runs, seed and GA options come from its "
                        "record; give only --db, --jobs, --quiet and --format with it\n");
        return EXIT_USAGE;
    }
    if (!o->resume) {
        char err[1024];
        o->spec.grid_name = strdup(o->grid);
        if (!o->spec.grid_name) goto oom;
        int rc = !strcmp(o->grid, "paper") ? sweep_grid_parse(&o->spec, sweep_paper_grid, "paper grid", err, sizeof err)
                                           : sweep_grid_load(&o->spec, o->grid, err, sizeof err);
        if (rc || sweep_spec_finish(&o->spec, err, sizeof err)) {
            fprintf(stderr, "nocsim sweep: %s%s\n", rc && strcmp(o->grid, "paper") ? "--grid " : "", err);
            return EXIT_USAGE;
        }
    }
    if (!o->jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n > 0 ? n : 1;
    }
    return 0;
oom:
    fprintf(stderr, "nocsim sweep: out of memory\n");
    return EXIT_FAIL;
}

typedef struct {
    int quiet, tty;
    double t0;
} progress_ctx;

static void progress(void *vc, int64_t done, int64_t total, const sweep_task *t, int64_t run, double seconds)
{
    progress_ctx *c = vc;
    if (c->quiet) return;
    double el = sweep_now() - c->t0;
    double eta = done ? el * (double)(total - done) / (double)done : 0;
    fprintf(stderr, "%ssweep: %lld/%lld runs  last: task %lld -> run %lld (%.1f s)  ETA %.0f s%s", c->tty ? "\r" : "",
            (long long)done, (long long)total, (long long)t->index, (long long)run, seconds, eta, c->tty ? "   " : "\n");
    fflush(stderr);
}

static int self_exe(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return -1;
    buf[n] = 0;
    return 0;
}

/* Create or load the sweep's record and the list of tasks already done
 * (rank 0 only).  Returns 0 or an exit status. */
static int prepare(sweep_opts *o, store **db, int64_t *id, uint8_t **done, int64_t *ndone, const sweep_runner *rn)
{
    char err[1024];
    if (o->resume) {
        int rc;
        if (!(*db = cli_store_open("sweep", o->dbpath, 0, &rc))) return rc;
        rc = sweep_record_load(*db, o->resume, &o->spec, err, sizeof err);
        if (rc) { fprintf(stderr, "nocsim sweep: --resume: %s\n", err); return cli_fault_status(fault_of(rc)); }
        *id = o->resume;
    } else {
        int rc = sweep_validate(&o->spec, rn, err, sizeof err);
        if (rc == SWEEP_INTERRUPTED) {
            int sig = cli_stop_signal();
            return cli_fail("sweep", cli_signal_status(sig), "stopped by %s while checking the grid (nothing was written)",
                            sig == SIGTERM ? "SIGTERM" : "SIGINT");
        }
        if (rc) {
            fprintf(stderr, "nocsim sweep: %s\n", err);
            return rc == SWEEP_BAD_TASK ? EXIT_USAGE : EXIT_FAIL;
        }
        int orc;
        if (!(*db = cli_store_open("sweep", o->dbpath, STORE_CREATE, &orc))) return orc;
        if (sweep_record_create(*db, &o->spec, NOCSIM_VERSION, id, err, sizeof err)) {
            fprintf(stderr, "nocsim sweep: %s\n", err);
            return EXIT_FAIL;
        }
    }
    *done = calloc((size_t)o->spec.ntasks, 1);
    if (!*done) { fprintf(stderr, "nocsim sweep: out of memory\n"); return EXIT_FAIL; }
    if (sweep_done_tasks(*db, *id, &o->spec, *done, ndone, err, sizeof err)) {
        fprintf(stderr, "nocsim sweep: %s\n", err);
        return EXIT_FAIL;
    }
    return 0;
}

static int print_result(const sweep_opts *o, int64_t id, int64_t ndone, double secs)
{
    if (o->fmt_json)
        return cli_json_out("sweep", NULL, json_pack("{s:I, s:I, s:I, s:f, s:o}", "sweep", (json_int_t)id, "runs",
                                               (json_int_t)o->spec.ntasks, "done", (json_int_t)ndone, "seconds", secs,
                                               "db", ujson_str(o->dbpath)));
    else
        printf("sweep %lld: %lld of %lld runs done in %.1f s (%s); results: nocsim db sweep %lld --db %s\n",
               (long long)id, (long long)ndone, (long long)o->spec.ntasks, secs, o->dbpath, (long long)id, o->dbpath);
    return 0;
}

#ifdef NOCSIM_MPI
/* Every rank's part of the run (rank 0 shares the spec, records and hands
 * out the tasks).  rc: the set-up's status so far (< 0: go on); a rank other
 * than 0 gets its final status there.  Returns the runner's result. */
static int run_ranks(int rank, int *rc, store *db, int64_t id, sweep_spec *spec, uint8_t **done, int64_t *ndone,
                     const sweep_runner *rn, char *err, size_t errlen)
{
    int r = 0, ok = *rc < 0;
    if (sweep_mpi_share_spec(spec, &ok, err, errlen)) { fprintf(stderr, "nocsim sweep: %s\n", err); ok = 0; if (*rc < 0) *rc = EXIT_FAIL; }
    if (ok) {
        if (rank != 0) { *done = calloc((size_t)spec->ntasks, 1); }
        r = sweep_run_mpi(db, id, spec, *done, ndone, rn, err, errlen);
        if (rank != 0) *rc = r ? EXIT_FAIL : EXIT_OK;
    } else if (rank != 0) {
        *rc = EXIT_OK;
    }
    return r;
}
#endif

/* After the runs (rank 0): stopped by a signal (resumable), failed (r, err),
 * or finished: the record marked so and the result printed.  The status. */
static int conclude(const sweep_opts *o, store *db, int64_t id, int64_t ndone, int r, const char *err,
                    const progress_ctx *pc)
{
    if (r == SWEEP_INTERRUPTED || cli_stop_signal()) {
        int sig = cli_stop_signal();
        return cli_fail("sweep", cli_signal_status(sig ? sig : SIGINT),
                        "stopped by %s with %lld of %lld runs done; continue with: nocsim sweep --db %s --resume %lld",
                        sig == SIGTERM ? "SIGTERM" : "SIGINT", (long long)ndone, (long long)o->spec.ntasks, o->dbpath,
                        (long long)id);
    }
    if (r) {
        fprintf(stderr, "%snocsim sweep: %s\n", pc->tty && !o->quiet ? "\n" : "", err);
        return r == SWEEP_BAD_TASK ? EXIT_USAGE : EXIT_FAIL;
    }
    if (pc->tty && !o->quiet) fputc('\n', stderr);
    char e2[512];
    if (store_run_set_status(db, id, "finished", e2, sizeof e2) != STORE_OK) {
        fprintf(stderr, "nocsim sweep: %s\n", e2);
        return EXIT_FAIL;
    }
    return print_result(o, id, ndone, sweep_now() - pc->t0); /* main() checks that stdout was written */
}

int cmd_sweep(int argc, char **argv)
{
    int mpi = 0, rank = 0;
#ifdef NOCSIM_MPI
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE")) {
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        mpi = 1;
    }
#endif
    /* The handlers first: a signal at any point of the set-up is acted on. */
    int handlers = cli_catch_stop_signals();
    sweep_opts o;
    int rc = 0;
    if (rank == 0) rc = parse(argc, argv, &o);
    else memset(&o, 0, sizeof o);
    if (rc < 0) rc = EXIT_OK; /* --help */
    else if (rc == 0) rc = -1; /* go on */
    static char exe[4096];
    sweep_runner rn = { .exe = exe, .jobs = (int)o.jobs, .stop = cli_stop_signal, .progress = progress };
    progress_ctx pc = { o.quiet, isatty(STDERR_FILENO), sweep_now() };
    rn.ctx = &pc;
    if (self_exe(exe, sizeof exe)) rc = cli_fail("sweep", EXIT_FAIL, "cannot find the nocsim binary (/proc/self/exe)");
    /* A signal only sets a flag (no SA_RESTART), so a wait for a child returns. */
    if (handlers) rc = cli_fail("sweep", EXIT_FAIL, "cannot install the signal handlers");

    store *db = NULL;
    int64_t id = 0, ndone = 0;
    uint8_t *done = NULL;
    if (rank == 0 && rc < 0) {
        int p = prepare(&o, &db, &id, &done, &ndone, &rn);
        if (p) rc = p;
    }
    char err[1024] = "";
    int r = 0;
#ifdef NOCSIM_MPI
    if (mpi) r = run_ranks(rank, &rc, db, id, &o.spec, &done, &ndone, &rn, err, sizeof err);
#endif
    if (!mpi && rc < 0) r = sweep_run_local(db, id, &o.spec, done, &ndone, &rn, err, sizeof err);
    if (rank == 0 && rc < 0) rc = conclude(&o, db, id, ndone, r, err, &pc);
    if (rc < 0) rc = EXIT_OK;
    free(done);
    store_close(db);
    sweep_spec_clear(&o.spec);
#ifdef NOCSIM_MPI
    if (mpi) {
        MPI_Finalize();
    }
#endif
    return rc;
}
