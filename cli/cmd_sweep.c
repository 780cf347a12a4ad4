/* `nocsim sweep`: a parameter study, many GA runs (`nocsim sweep [ga]`) or
 * open-loop curves (`nocsim sweep load`) over a grid of options, all
 * recorded in one database; locally on the cores of this machine, or on the
 * ranks of an MPI job when built with `make MPI=1` and started by mpirun.
 * Parse -> run (sweep/) -> print. */
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "cli/opt_group.h"
#include "sim/ol_options.h"
#include "store/store.h"
#include "sweep/record.h"
#include "sweep/run.h"
#include "sweep/sweep.h"
#include "traffic/synth.h"

#ifdef NOCSIM_MPI
#include <mpi.h>
#endif

typedef struct {
    sweep_spec spec;
    const char *dbpath, *grid;
    char **axis_lines;      /* --axis, in order */
    int naxis_lines;
    int64_t resume, seed;
    int jobs, quiet, fmt_json, oom;
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

/* --traffic A,B,...: the patterns, none empty (a custom row). */
static int parse_traffic(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    sweep_opts *o = base;
    for (const char *p = v; *p; p++)
        if (*p == ',' && (p == v || p[1] == ',' || p[1] == 0))
            return snprintf(err, errlen, "'%.200s' has an empty pattern name", v), -FAULT_INPUT;
    if (!*v) return snprintf(err, errlen, "no pattern given"), -FAULT_INPUT;
    char *copy = strdup(v), *save = NULL;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save))
        if (push_str(&o->spec.traffic, &o->spec.ntraffic, t)) { free(copy); copy = NULL; break; }
    if (!copy) o->oom = 1;
    free(copy);
    return o->oom ? (snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE) : 0;
}

/* --axis LINE: kept in order, parsed with the grid (a custom row). */
static int parse_axis(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    sweep_opts *o = base;
    if (!push_str(&o->axis_lines, &o->naxis_lines, v)) return 0;
    o->oom = 1;
    return snprintf(err, errlen, "out of memory"), -FAULT_RESOURCE;
}

static const char *const format_names[] = { "text", "json" };
#define FIELD(f) #f, offsetof(sweep_opts, f)
#define HEADING(text) { NULL, 0, NULL, text, OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }

/* The sweep's own options (every other flag goes to its runs). */
static const opt_row sweep_rows[] = {
    HEADING("options:"),
    { "traffic", 0, "T[,T...]", "patterns, e.g. brev,shfl (required)", OPT_CUSTOM, FIELD(spec.traffic), 0, 0, 0, 0,
      NULL, 0, parse_traffic, NULL, 1 },
    { "slices", 0, "S", "slices of every GA run", OPT_INT, FIELD(spec.slices), 1, 255, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "grid", 0, "paper|FILE", "the grid: paper (GA default) is --algo paper with mutation\n"
                               "0.1|0.05|0.02, crossover rate 0.1|0.2|0.4|0.6|0.8|0.9,\n"
                               "crossover interval 10|20, ties random|age, watchdog 100|200\n"
                               "or lifetime 100|200; FILE: one axis a line,\n"
                               "  FLAG[,FLAG...] VALUE[,VALUE...] ...   (# comments)\n"
                               "e.g. 'mutation 0.1 0.02' or 'watchdog,lifetime 100,0 0,100';\n"
                               "for load: 'vcs 1 2 4', 'routing dor o1turn' or\n"
                               "'packet 8 1:0.5,8:0.5' (a one-flag axis takes each value whole)",
      OPT_TEXT, FIELD(grid), 0, 0, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "axis", 0, "LINE", "one more axis, a line of a grid file (repeatable; after\n"
                         "--grid's axes), e.g. --axis 'buffer 2 4'",
      OPT_CUSTOM, FIELD(axis_lines), 0, 0, 0, 0, NULL, 0, parse_axis, NULL, 1 },
    { "runs", 0, "R", "replicates per grid point (default 5 for ga, 1 for load)", OPT_INT, FIELD(spec.runs), 1,
      100000, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "seed", 's', "X", "the sweep's seed", OPT_I64, FIELD(seed), 0, (double)(1LL << 53), 0, 0, NULL, 0, NULL, NULL, 0 },
    { "jobs", 'j', "K", "runs at once on this machine (default: all cores); each run\n"
                        "is single-threaded.  Under mpirun: one run per rank > 0",
      OPT_INT, FIELD(jobs), 1, 4096, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "db", 0, "PATH", "database", OPT_TEXT, FIELD(dbpath), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "resume", 0, "SWEEP", "finish an interrupted sweep: finished runs are kept, the\n"
                            "others run again",
      OPT_I64, FIELD(resume), 1, (double)(1LL << 53), 0, 0, NULL, 0, NULL, NULL, 1 },
    { "quiet", 'q', NULL, "no progress line", OPT_SWITCH, FIELD(quiet), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "format", 0, NULL, "summary format", OPT_CHOICE, FIELD(fmt_json), 0, 0, 0, 0, format_names, 2, NULL, NULL, 0 },
    OPT_END
};

/* The rows that state the sweep (refused with --resume, which reads them
 * from the record). */
static const char *const spec_rows[] = { "traffic", "slices", "grid", "axis", "runs", "seed" };

static void help(const cli_spec *spec)
{
    printf("usage: nocsim sweep [ga] --traffic T[,T...] [--grid paper|FILE] [--axis LINE]... [options] [GA options]\n"
           "       nocsim sweep load --traffic T[,T...] --grid FILE|--axis LINE... [options] [load options]\n"
           "       nocsim sweep --resume SWEEP [--db PATH] [--jobs K]\n\n"
           "Run the GA (or, with `load`, an open-loop curve) once for every point of a\n"
           "parameter grid, every traffic pattern and every replicate, and record every run\n"
           "in one database (paper Sect. 6.1: 288 combinations x 5 runs per pattern).  Each\n"
           "run's seed follows from --seed and the run's place in the grid, so results do\n"
           "not depend on where or when a run ran.  A load sweep's curves are each bisected\n"
           "for their saturation point (load --saturation) and run on one thread.\n\n");
    cli_help(stdout, spec);
    printf("  any other option of nocsim ga (e.g. --size 8 --generations 200), or of\n"
           "  nocsim load for a load sweep (e.g. --size 4 --rates 0.05:1:0.05 --batch 300),\n"
           "  is passed to every run; see nocsim ga --help, nocsim load --help\n");
    printf("\nResults: nocsim db sweep SWEEP (GA: best and mean per grid point, the parameter\n"
           "that mattered most, the best chromosome; load: saturation throughput per grid\n"
           "point and its mean per parameter value).\n\n"
           "examples:\n"
           "  nocsim sweep --traffic brev --slices 2 --grid paper --runs 5\n"
           "  mpirun -np 64 nocsim sweep --traffic brev,shfl --grid paper --runs 5\n"
           "  nocsim sweep --traffic shfl --grid my.grid --runs 3 --size 8 --generations 100\n"
           "  nocsim sweep load --traffic uniform,transpose,bitcomp --axis 'vcs 1 2 4'\n"
           "               --axis 'buffer 2 4' --axis 'routing dor o1turn' --size 8\n");
}


/* Options the sweep sets itself for every run of its command. */
static int flag_reserved(sweep_command c, const char *a)
{
    static const char *const ga[] = { "--threads", "--db", "--no-db", "--resume", "--save-best", "--format", "--quiet",
                                      "--progress-every", "--dry-run", NULL };
    static const char *const load[] = { "--threads", "--db", "--no-db", "--format", "--quiet", "--saturation",
                                        "--trace", NULL };
    for (const char *const *r = c == SWEEP_LOAD ? load : ga; *r; r++)
        if (!strcmp(a, *r)) return 1;
    return 0;
}

/* The flags of nocsim load beyond the library's rows (sim/ol_options.h) that
 * a load sweep passes to every run (cli/cmd_load.c checks their values, in
 * the sweep's dry run of its grid). */
static const cli_opt load_pass_table[] = {
    { "--rates", 0, "A:B:STEP", "" },
    { "--rate", 0, "R", "" },
    { "--all", 0, NULL, "" },
    { "--precision", 0, "P", "" },
    { "--self", 0, "skip|send", "" },
    { "--hotspot", 0, "NODES:F", "" },
    { "--config", 0, "FILE", "" },
    { "--saturation", 0, NULL, "" },
    { "--trace", 0, "FILE", "" },
    { "--no-db", 0, NULL, "" },
    { "--threads", 'j', "N", "" },
    CLI_END
};

/* The parse in progress: the options, and whether any states the sweep
 * (refused with --resume). */
typedef struct {
    sweep_opts *o;
    int spec_flags, oom;
} sweep_parse;

/* Any other option of the command: passed to every run (a cli_set_fn). */
static int pass_to_cmd(void *ctx, const char *cmd, const char *a, const char *v)
{
    sweep_parse *sp = ctx;
    if (flag_reserved(sp->o->spec.command, a)) {
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

/* The grid of a new sweep: --grid's axes (paper by default for a GA sweep),
 * then --axis's, and the spec finished.  0 or EXIT_USAGE after a message. */
static int build_grid(sweep_opts *o, const opt_group *own)
{
    char err[1024];
    const int load = o->spec.command == SWEEP_LOAD;
    if (load && !o->grid && !o->naxis_lines)
        return cli_fail("sweep", EXIT_USAGE, "a load sweep needs its grid: --grid FILE or --axis 'FLAG V V...'");
    if (load && o->grid && !strcmp(o->grid, "paper"))
        return cli_fail("sweep", EXIT_USAGE, "--grid paper is the GA's grid; a load sweep takes --grid FILE or --axis");
    if (load && opt_groups_given(own, 1, "slices"))
        return cli_fail("sweep", EXIT_USAGE, "--slices: a load sweep's runs have no slices (it is the GA's)");
    const char *grid = o->grid ? o->grid : o->naxis_lines ? NULL : "paper";
    o->spec.grid_name = strdup(grid ? grid : "--axis");
    if (!o->spec.grid_name) return cli_fail("sweep", EXIT_FAIL, "out of memory");
    int rc = 0;
    if (grid)
        rc = !strcmp(grid, "paper") ? sweep_grid_parse(&o->spec, sweep_paper_grid, "paper grid", err, sizeof err)
                                    : sweep_grid_load(&o->spec, grid, err, sizeof err);
    if (rc) return cli_fail("sweep", EXIT_USAGE, "%s%s", strcmp(grid, "paper") ? "--grid " : "", err);
    for (int i = 0; i < o->naxis_lines; i++) {
        char where[32];
        snprintf(where, sizeof where, "--axis #%d", i + 1);
        if (sweep_grid_parse(&o->spec, o->axis_lines[i], where, err, sizeof err))
            return cli_fail("sweep", EXIT_USAGE, "%s", err);
    }
    if (sweep_spec_finish(&o->spec, err, sizeof err)) return cli_fail("sweep", EXIT_USAGE, "%s", err);
    return 0;
}

/* A load sweep's patterns, each checked by name on an 8x8 mesh before
 * anything runs (file: and matrix: patterns depend on the network: their
 * first run checks them).  0 or EXIT_USAGE after a message. */
static int check_load_traffic(const sweep_spec *spec)
{
    for (int i = 0; i < spec->ntraffic; i++) {
        const char *t = spec->traffic[i];
        if (!strncmp(t, "file:", 5) || !strncmp(t, "matrix:", 7)) continue;
        char err[512];
        fault_kind kind;
        synth *s = synth_new(t, 8, 8, SYNTH_SELF_SKIP, 1, &kind, err, sizeof err);
        if (!s) return cli_fail("sweep", cli_fault_status(kind), "--traffic: %s", err);
        synth_free(s);
    }
    return 0;
}

/* The sweep's command from its first word (`nocsim sweep load ...`, or ga,
 * the default), which is taken off argv.  1 when the word was there. */
static int take_command(int *argc, char ***argv, sweep_command *c)
{
    *c = SWEEP_GA;
    if (*argc < 2 || (strcmp((*argv)[1], "load") && strcmp((*argv)[1], "ga"))) return 0;
    *c = !strcmp((*argv)[1], "load") ? SWEEP_LOAD : SWEEP_GA;
    (*argc)--;
    (*argv)++;
    return 1;
}

/* The groups of the command's options a sweep passes to every run: the GA's
 * tables and the model's (made over a scratch model_opts into *mt), or load's
 * rows (made over a scratch ol_params): only their flags are used here.
 * Their number, or -1 when memory runs out. */
enum { NLOAD_ROWS = 3 };
typedef struct {
    opt_group og[NLOAD_ROWS];
    ol_params ol;
    model_table mt;
    model_opts mo;
} pass_scratch;
static int pass_groups(sweep_parse *sp, pass_scratch *ps, cli_group *out)
{
    opt_group *og = ps->og;
    ol_params *scratch = &ps->ol;
    if (sp->o->spec.command == SWEEP_GA) {
        model_opts_default(&ps->mo);
        if (model_table_init(&ps->mt, &ps->mo)) return -1;
        out[0] = (cli_group){ ga_cli_table, pass_to_cmd, sp };
        out[1] = (cli_group){ ps->mt.opts, pass_to_cmd, sp };
        return 2;
    }
    const opt_row *rows[NLOAD_ROWS] = { ol_net_options, ol_packet_options, ol_measure_options };
    ol_params_default(scratch);
    for (int k = 0; k < NLOAD_ROWS; k++) {
        if (opt_group_init(&og[k], rows[k], scratch, sizeof *scratch)) {
            while (k--) opt_group_free(&og[k]);
            return -1;
        }
        out[k] = (cli_group){ og[k].opts, pass_to_cmd, sp };
    }
    out[NLOAD_ROWS] = (cli_group){ load_pass_table, pass_to_cmd, sp };
    return NLOAD_ROWS + 1;
}

/* Fills o from argv after the command's parse: a resume's rules, a new
 * sweep's grid and checks, the jobs.  0 or the exit status. */
static int finish_parse(sweep_opts *o, const opt_group *own, int spec_flags)
{
    for (size_t k = 0; k < sizeof spec_rows / sizeof *spec_rows; k++) spec_flags |= opt_groups_given(own, 1, spec_rows[k]);
    if (o->resume && spec_flags) {
        fprintf(stderr, "nocsim sweep: --resume: the sweep's command, traffic, grid, runs, seed and run options "
                        "come from its record; give only --db, --jobs, --quiet and --format with it\n");
        return EXIT_USAGE;
    }
    o->spec.seed = (uint64_t)o->seed;
    if (!o->resume) {
        if (o->spec.command == SWEEP_LOAD) {
            if (!opt_groups_given(own, 1, "runs")) o->spec.runs = 1;
            o->spec.slices = 0;
        }
        int rc = build_grid(o, own);
        if (!rc && o->spec.command == SWEEP_LOAD) rc = check_load_traffic(&o->spec);
        if (rc) return rc;
    }
    if (!o->jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n > 0 ? (int)(n < 4096 ? n : 4096) : 1;
    }
    return 0;
}

/* The sweep's own rows as a cli group (defaults first) and the groups of the
 * command's options, into groups[]; parse argv with them.  The result of
 * cli_parse, or EXIT_FAIL when memory runs out; *own is made either way. */
static int parse_groups(int argc, char **argv, sweep_opts *o, sweep_parse *sp, opt_group *own)
{
    o->dbpath = STORE_DEFAULT_PATH;
    o->spec.slices = 2;
    o->spec.runs = 5;
    o->seed = 1;
    if (opt_group_init(own, sweep_rows, o, sizeof *o)) return cli_fail("sweep", EXIT_FAIL, "out of memory");
    pass_scratch ps;
    cli_group groups[1 + NLOAD_ROWS + 1] = { opt_group_cli(own) };
    int ng = pass_groups(sp, &ps, groups + 1);
    if (ng < 0) return cli_fail("sweep", EXIT_FAIL, "out of memory");
    const cli_spec spec = { "sweep", groups, 1 + ng, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (o->spec.command == SWEEP_LOAD)
        for (int k = 0; k < NLOAD_ROWS; k++) opt_group_free(&ps.og[k]);
    else model_table_free(&ps.mt);
    if (sp->oom || o->oom) return cli_fail("sweep", EXIT_FAIL, "out of memory");
    if (rc == CLI_HELP) help(&(const cli_spec){ "sweep", groups, 1, NULL, NULL });   /* the command's options: its own --help */
    return rc;
}

/* Fills o from argv: 0 to go on, -1 after --help, else an exit status. */
static int parse(int argc, char **argv, sweep_opts *o)
{
    memset(o, 0, sizeof *o);
    sweep_parse sp = { o, 0, 0 };
    sp.spec_flags = take_command(&argc, &argv, &o->spec.command);
    opt_group own = { 0 };
    int rc = parse_groups(argc, argv, o, &sp, &own);
    if (rc == CLI_HELP) rc = -1;
    else if (rc == EXIT_OK) rc = finish_parse(o, &own, sp.spec_flags);
    opt_group_free(&own);
    return rc;
}

static void opts_clear(sweep_opts *o)
{
    for (int i = 0; i < o->naxis_lines; i++) free(o->axis_lines[i]);
    free(o->axis_lines);
    sweep_spec_clear(&o->spec);
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
    sweep_runner rn = { .exe = exe, .jobs = o.jobs, .stop = cli_stop_signal, .progress = progress };
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
    opts_clear(&o);
#ifdef NOCSIM_MPI
    if (mpi) {
        MPI_Finalize();
    }
#endif
    return rc;
}
