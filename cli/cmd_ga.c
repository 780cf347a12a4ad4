/* `nocsim ga`: run the Cup-Stacking GA, record it in the database, print a
 * progress line and a summary with the baselines it has to beat.  Parse the
 * flags, run (new or resumed), print; the GA's parameters, their ranges and
 * the rule for which runs may be resumed live in ga/. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/chromfile.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "cli/opt_group.h"
#include "ga/ga.h"
#include "ga/ga_options.h"
#include "ga/island.h"
#include "ga/methods.h"
#include "ga/resume.h"
#include "sim/interval.h"
#include "sim/pool.h"
#include "sim/stacking.h"
#include "store/store.h"

#ifdef NOCSIM_MPI
#include <mpi.h>
#endif

/* --islands: this process's place in the MPI job (rank 0 of 1 without it).
 * `synced` records that the ranks have agreed on their set-up, so that a rank
 * that failed before that point still takes part in the agreement. */
typedef struct {
    int on, rank, size, every, synced;
} islands;

typedef struct {
    model_opts mo;
    ga_params gp;
    const char *db, *save_best;
    int no_db, quiet, threads_given, vmax_given;
    int64_t resume;
    int every;
    out_format fmt;           /* text or json */
    const char *fixed_flag;   /* the first flag that a resumed run takes from its record */
    int dry_run;              /* --dry-run: check the options, run nothing */
    islands is;
} ga_opts;

/* Everything a run holds; ga_session_clear frees it. */
typedef struct {
    store *db;
    traffic *t;
    ga *g;
    ga_progress p;            /* at the end */
    method_result est;        /* --fitness estimate: the best replayed at S' slices */
    int have_est;
} ga_session;

/* The options of ga over ga_opts itself (the search's are the library's
 * rows over ga_params, ga/ga_options.h). */
#define OFIELD(f) #f, offsetof(ga_opts, f)
static const opt_row ga_island_rows[] = {
    { "islands", 0, NULL, "an island GA over the ranks of an MPI job (make MPI=1,\n"
                          "mpirun -np K build-mpi/nocsim ga --islands ...)", OPT_SWITCH, OFIELD(is.on), 0, 0, 0, 0,
      NULL, 0, NULL, NULL, 0 },
    { "migrate-every", 0, "G", "islands: generations between migrations", OPT_INT, OFIELD(is.every), 1, GA_COUNT_MAX,
      0, 0, NULL, 0, NULL, NULL, 0 },
    { NULL, 0, NULL, "recording:", OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "db", 0, "PATH", "database", OPT_TEXT, OFIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "no-db", 0, NULL, "record nothing", OPT_SWITCH, OFIELD(no_db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    OPT_END
};
static const opt_row ga_run_rows[] = {
    { "resume", 0, "RUN", "continue an unfinished run of the database with its\n"
                          "recorded parameters; only --db, --threads, --delta,\n"
                          "--save-best, --quiet, --progress-every and --format\n"
                          "may be given", OPT_I64, OFIELD(resume), 1,
      CLI_ID_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "dry-run", 0, NULL, "check the options and stop (exit 0 when they are good)", OPT_SWITCH, OFIELD(dry_run), 0, 0,
      0, 0, NULL, 0, NULL, NULL, 0 },
    { "save-best", 0, "FILE", "write the best chromosome as a --config file", OPT_TEXT, OFIELD(save_best), 0, 0, 0, 0,
      NULL, 0, NULL, NULL, 0 },
    { NULL, 0, NULL, "output:", OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "quiet", 'q', NULL, "no progress line", OPT_SWITCH, OFIELD(quiet), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "progress-every", 0, "G", "a progress line per G generations", OPT_INT, OFIELD(every), 1, GA_COUNT_MAX, 0, 0,
      NULL, 0, NULL, NULL, 1 },
    { "format", 0, NULL, "summary format", OPT_CHOICE, OFIELD(fmt), 0, 0, 0, 0, cli_format_names, 2, NULL, NULL, 0 },
    OPT_END
};

/* Most flags ga's rows have (tests/options.sh walks them all: one more
 * than fit would be missing from sweep's pass-through, and found there). */
#define GA_CLI_MAX 64

const cli_opt *ga_cli_options(void)
{
    /* Built once from the rows (a pure function of constant tables), for
     * `nocsim sweep`, which passes these flags on to each run; no help
     * texts: sweep's --help does not list them. */
    static cli_opt table[GA_CLI_MAX + 1];
    static char flags[GA_CLI_MAX][32];
    static const char arg[] = "X";
    static int built;
    if (built) return table;
    const opt_row *const groups[] = { ga_search_options, ga_island_rows, ga_record_options, ga_run_rows };
    int n = 0;
    for (size_t k = 0; k < sizeof groups / sizeof groups[0]; k++)
        for (const opt_row *r = groups[k]; !opt_is_end(r); r++) {
            if (r->type == OPT_HEADING || n == GA_CLI_MAX) continue;
            snprintf(flags[n], sizeof flags[n], "--%s", r->name);
            table[n] = (cli_opt){ flags[n], r->short_name, r->type == OPT_SWITCH ? NULL : arg, "" };
            n++;
        }
    table[n] = (cli_opt)CLI_END;
    built = 1;
    return table;
}

/* ga's option groups, in the order of --help; the model's follow. */
enum { G_SEARCH, G_ISLANDS, G_RECORD, G_RUN, NGROUPS };
typedef struct {
    opt_group g[NGROUPS];
    int made;
    ga_params alt;            /* the other algorithm's defaults, for --help */
    struct fixing {           /* each group's parser, noting a flag that fixes the run */
        cli_group inner;
        ga_opts *o;
    } fix[NGROUPS + 1];
    model_table model;        /* the model's flags (made last, freed after the parse) */
} ga_groups;

static void help(const cli_spec *spec)
{
    printf("usage: nocsim ga [options]\n\n"
           "Evolve inter-slice interval V, injection timings I, VC-selection schemes C\n"
           "and queue-selection orders Q that shorten a sliced collective communication,\n"
           "and record the best chromosomes and their synonyms in the database.\n\n");
    cli_help(stdout, spec);
    printf("\nexamples:\n  nocsim ga --traffic brev --slices 2 --generations 200\n"
           "  nocsim ga --traffic brev --slices 2 --algo paper --watchdog 200   # the paper's setting\n");
}

/* The run's parameters as JSON text for the database: the model options,
 * the GA's and the islands.  NULL: out of memory. */
static char *params_json(const model_opts *mo, const ga_params *gp, const islands *is)
{
    json_t *g = ga_params_json(gp), *j = model_opts_json(mo);
    int bad = !g || !j || json_object_update(j, g);
    if (!bad && is->on) bad |= json_object_update_new(j, json_pack("{s:i, s:i}", "islands", is->size, "migrate_every", is->every));
    json_decref(g);
    char *text = bad ? NULL : ujson_text(j);
    json_decref(j);
    return text;
}

/* One progress line on stderr.  0, or -1 with errno when it could not be
 * written (a full disk, a closed pipe): the run then stops at once. */
static int progress_line(const ga_progress *p, const ga_params *gp, int tty, double last_rate)
{
    double frac = gp->generations ? (double)p->generation / gp->generations : 1.0;
    if (gp->max_evals > 0 && (double)p->evals / (double)gp->max_evals > frac) frac = (double)p->evals / (double)gp->max_evals;
    double eta = frac > 0 ? p->elapsed * (1 - frac) / frac : 0;
    /* Each count against its limit, when it has one. */
    char gen[48], ev[48];
    if (gp->generations < GA_COUNT_MAX) snprintf(gen, sizeof gen, "%lld/%d", (long long)p->generation, gp->generations);
    else snprintf(gen, sizeof gen, "%lld", (long long)p->generation);
    if (gp->max_evals > 0) snprintf(ev, sizeof ev, "%lld/%lld", (long long)p->evals, (long long)gp->max_evals);
    else snprintf(ev, sizeof ev, "%lld", (long long)p->evals);
    fprintf(stderr, "%sgen %s  best %lld  avg %.1f  evals %s  %.0f evals/s  ETA %.0fs%s", tty ? "\r" : "", gen,
            (long long)p->best_duration, p->average, ev, last_rate, eta, tty ? "   " : "\n");
    return fflush(stderr) != 0 || ferror(stderr) ? -1 : 0;
}

/* Flags that may be given with --resume: where and how the run continues,
 * not what it computes. */
static int applies_to_resume(const char *flag)
{
    static const char *const flags[] = { "--db", "--resume", "--threads", "--delta", "--save-best", "--quiet",
                                         "--progress-every", "--format", "--no-db" };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (!strcmp(flag, flags[k])) return 1;
    return 0;
}

/* A flag that fixes what a run computes, refused with --resume (the first is named). */
static void note_fixed(ga_opts *o, const char *a)
{
    if (!o->fixed_flag && !applies_to_resume(a)) o->fixed_flag = a;
}

/* A flag of one of ga's groups through the group's own parser, noted when
 * it fixes the run (a cli_set_fn over a struct fixing). */
static int set_fixing(void *ctx, const char *cmd, const char *a, const char *v)
{
    struct fixing *f = ctx;
    int rc = f->inner.set(f->inner.ctx, cmd, a, v);
    if (rc) return rc;
    note_fixed(f->o, a);
    return 0;
}

/* A model option (model_opts_set) that also counts as fixing the run. */
static int set_model_option(void *ctx, const char *cmd, const char *a, const char *v)
{
    ga_opts *o = ctx;
    if (model_opts_set(&o->mo, cmd, a, v)) return -1;
    note_fixed(o, a);
    return 0;
}

/* o's defaults: the model's, the chosen algorithm's, the front end's. */
static void ga_defaults(ga_opts *o, ga_algo algo)
{
    model_opts_default(&o->mo);
    o->mo.params.slices = 2;
    ga_params_default(&o->gp);
    ga_params_for_algo(&o->gp, algo);
    o->gp.threads = sim_pool_default_threads();
    o->db = STORE_DEFAULT_PATH;
    o->fmt = FMT_TEXT;
    o->is.every = GA_MIGRATE_EVERY_DEFAULT;
}

/* The option groups over o (their --help shows algo's defaults beside the
 * other algorithm's), and the cli_groups that parse them, model's last. */
static int make_groups(ga_opts *o, ga_algo algo, ga_groups *gg, cli_group *cg)
{
    gg->alt = o->gp;
    ga_params_for_algo(&gg->alt, algo == GA_ALGO_PAPER ? GA_ALGO_LOCAL : GA_ALGO_PAPER);
    const opt_alt alt = { &gg->alt, { ga_algo_names[algo], ga_algo_names[gg->alt.algo] }, "algo" };
    const opt_row *rows[NGROUPS] = { ga_search_options, ga_island_rows, ga_record_options, ga_run_rows };
    void *base[NGROUPS] = { &o->gp, o, &o->gp, o };
    size_t size[NGROUPS] = { sizeof o->gp, sizeof *o, sizeof o->gp, sizeof *o };
    for (gg->made = 0; gg->made < NGROUPS; gg->made++) {
        int k = gg->made;
        if (opt_group_init_alt(&gg->g[k], rows[k], base[k], size[k], base[k] == o ? NULL : &alt))
            return cli_fail("ga", EXIT_FAIL, "out of memory");
        gg->fix[k] = (struct fixing){ opt_group_cli(&gg->g[k]), o };
        cg[k] = (cli_group){ gg->g[k].opts, set_fixing, &gg->fix[k] };
    }
    if (model_table_init(&gg->model, &o->mo)) return cli_fail("ga", EXIT_FAIL, "out of memory");
    cg[NGROUPS] = (cli_group){ gg->model.opts, set_model_option, o };
    return EXIT_OK;
}

/* Whether the command line gave name. */
static int given(const ga_groups *gg, const char *name)
{
    return (opt_groups_given(gg->g, gg->made, name) & OPT_FROM_ARGV) != 0;
}

/* The checks between options, after parsing: EXIT_OK or EXIT_USAGE after a message. */
static int check_options(ga_opts *o, const ga_groups *gg)
{
    o->gp.seed = o->mo.seed;
    /* Rough estimation scores single-slice runs. */
    if (o->gp.fitness == GA_FIT_ESTIMATE) o->mo.params.slices = 1;
    if (o->resume && o->no_db) return cli_fail("ga", EXIT_USAGE, "--resume needs the database (drop --no-db)");
    if (given(gg, "db") && o->no_db) return cli_fail("ga", EXIT_USAGE, "--db and --no-db contradict each other: give one");
    if (o->resume && o->is.on) return cli_fail("ga", EXIT_USAGE, "--islands: an island run cannot be resumed");
    if (o->is.rank > 0) {
        /* Rank 0 keeps the seed (one rank is the plain run); the others
         * derive theirs, evolve quietly and record nothing. */
        o->gp.seed = (o->mo.seed + 0x9e3779b97f4a7c15ULL * (uint64_t)o->is.rank) ^ 0x5851f42d4c957f2dULL;
        o->no_db = o->quiet = 1;
        o->save_best = NULL;
    }
    if (o->resume && o->fixed_flag)
        return cli_fail("ga", EXIT_USAGE, "%s: a resumed run keeps its recorded parameters (with --resume only --db, "
                        "--threads, --delta, --save-best, --quiet, --progress-every and --format apply)", o->fixed_flag);
    char err[512];
    const opt_row *const ga_tables[] = { ga_search_options, ga_record_options };
    char msg[600];
    if (!o->resume && ga_setup_check(&o->gp, &o->mo.params, err, sizeof err))
        return cli_fail("ga", EXIT_USAGE, "%s", model_flag_message(err, ga_tables, 2, msg, sizeof msg));
    /* The default sweep end is raised to the packet length; a given one must reach it. */
    if (!o->resume && o->vmax_given && o->gp.stack_vmax < o->mo.params.flits)
        return cli_fail("ga", EXIT_USAGE, "--stack-vmax: %d is below the packet length %d (allowed: [%d, %d])",
                        o->gp.stack_vmax, o->mo.params.flits, o->mo.params.flits, SIM_SWEEP_MAX);
    /* An output path that cannot be written is refused before the run, not after it. */
    const char *inputs[] = { o->no_db ? NULL : o->db, cli_traffic_file(o->mo.traffic) };
    if (o->save_best) return cli_check_output("ga", "--save-best", o->save_best, inputs, 2);
    return EXIT_OK;
}

/* Fills o from argv and checks it.  Returns EXIT_OK, CLI_HELP (after the
 * help), EXIT_USAGE or EXIT_FAIL; gg holds the groups, the caller frees them. */
static int parse(int argc, char **argv, ga_opts *o, ga_groups *gg)
{
    /* Population, generations and sort key default per algorithm: look for
     * --algo first so the flags after it override those defaults. */
    ga_algo algo = GA_ALGO_LOCAL;
    for (int i = 1; i < argc; i++)
        if ((i + 1 < argc && !strcmp(argv[i], "--algo") && !strcmp(argv[i + 1], "paper")) ||
            !strcmp(argv[i], "--algo=paper"))
            algo = GA_ALGO_PAPER;
    ga_defaults(o, algo);
    cli_group cg[NGROUPS + 1];
    int rc = make_groups(o, algo, gg, cg);
    if (rc != EXIT_OK) return rc;
    const cli_spec spec = { "ga", cg, NGROUPS + 1, NULL, NULL };
    rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) help(&spec);
    if (rc == EXIT_OK) {
        o->threads_given = given(gg, "threads");
        o->vmax_given = given(gg, "stack-vmax");
        rc = check_options(o, gg);   /* may name a model flag: the table is freed after it */
    }
    model_table_free(&gg->model);
    return rc;
}

static void ga_session_clear(ga_session *s)
{
    method_result_clear(&s->est);
    ga_free(s->g);
    store_close(s->db);
    traffic_free(s->t);
    memset(s, 0, sizeof *s);
}

/* Opens the store and creates the run, or loads the one to resume. */
/* The status and message of a GA call that failed with rc < 0: the store's
 * failures (FAULT_IO) are named as the database's when db_named. */
static int ga_failed(int rc, int db_named, const char *err)
{
    fault_kind kind = fault_of(rc);
    return cli_fail("ga", cli_fault_status(kind), "%s%s", db_named && kind == FAULT_IO ? "database: " : "", err);
}

static int open_run(const ga_opts *o, ga_session *s)
{
    char err[512];
    int rc = EXIT_OK;
    fault_kind kind = FAULT_NONE;
    /* Bad traffic is refused before a database file is created. */
    if (!o->resume && !(s->t = model_opts_traffic("ga", &o->mo, &rc))) return rc;
    /* Resuming never creates a file: a typo in --db is a missing database. */
    if (!o->no_db && !(s->db = cli_store_open("ga", o->db, o->resume ? 0 : STORE_CREATE, &rc))) return rc;
    if (o->resume) {
        int st = ga_resume_allowed(s->db, o->resume, err, sizeof err);
        if (st != GA_RESUME_OK) return cli_fail("ga", cli_fault_status(fault_of(st)), "--resume: %s", err);
        /* Resuming a run stopped before its start-up finished runs it again
         * inside ga_resume: a signal then ends it at once, as in evolve. */
        char tail[512];
        snprintf(tail, sizeof tail, " during the start-up; continue with: nocsim ga --db %.*s --resume %lld", 300, o->db,
                 (long long)o->resume);
        int sig = cli_stop_at_once("ga", tail);
        if (sig)
            return cli_fail("ga", cli_signal_status(sig), "stopped by %s before resuming (the run is unchanged); continue "
                            "with: nocsim ga --db %s --resume %lld", sig == SIGINT ? "SIGINT" : "SIGTERM", o->db,
                            (long long)o->resume);
        s->g = ga_resume(s->db, o->resume, o->threads_given ? o->gp.threads : -1, &kind, err, sizeof err);
        cli_stop_at_once(NULL, NULL);
        /* Not recorded (it changes no result): this command line's. */
        if (s->g && ga_set_delta(s->g, o->gp.delta, err, sizeof err)) return cli_fail("ga", EXIT_FAIL, "%s", err);
    } else {
        /* Only a recorded run needs its parameters as JSON (an island of
         * rank > 0 records nothing, and its derived 64-bit seed is beyond
         * JSON's integers). */
        char *pj = s->db ? params_json(&o->mo, &o->gp, &o->is) : NULL;
        if (s->db && !pj) return cli_fail("ga", EXIT_FAIL, "out of memory");
        /* Building the GA walks every route several times (the engines'
         * load bounds: a minute on a 1024x1024 torus) and cannot look at the
         * signal flag: a signal ends it at once.  Its one transaction (the
         * run and its first checkpoint) is then rolled back. */
        const char *tail = s->db ? " while setting up the run (nothing recorded)" : " while setting up the run";
        int sig = cli_stop_at_once("ga", tail);
        if (sig) {
            free(pj);
            return cli_fail("ga", cli_signal_status(sig), "stopped by %s%s", sig == SIGINT ? "SIGINT" : "SIGTERM", tail);
        }
        s->g = ga_new(&o->gp, &o->mo.params, s->t->dest, o->mo.traffic, s->db, NOCSIM_VERSION, pj, &kind, err, sizeof err);
        cli_stop_at_once(NULL, NULL);
        free(pj);
    }
    return s->g ? EXIT_OK : cli_fail("ga", cli_fault_status(kind), "%s", err);
}

#ifdef NOCSIM_MPI
/* Every rank says whether its set-up worked; all go on only if all did. */
static int islands_agree(islands *is, int ok)
{
    int all = ok;
    if (is->on && !is->synced) MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    is->synced = 1;
    return all;
}

static void island_progress(const ga *g, void *ctx)
{
    double *last = ctx;
    ga_progress p;
    ga_get_progress(g, &p);
    if (p.elapsed - *last < 1.0) return;
    *last = p.elapsed;
    fprintf(stderr, "gen %lld  best %lld  avg %.1f  evals %lld (rank 0)\n", (long long)p.generation,
            (long long)p.best_duration, p.average, (long long)p.evals);
}

/* --islands: the generations of every rank in lock step (ga/island.c). */
static int evolve_islands(ga_opts *o, ga_session *s)
{
    char err[512];
    if (!islands_agree(&o->is, 1)) return cli_fail("ga", EXIT_FAIL, "--islands: another rank failed to start");
    double last = 0;
    int r = ga_island_run(s->g, o->is.every, cli_stop_signal, o->is.rank == 0 && !o->quiet ? island_progress : NULL, &last,
                          err, sizeof err);
    ga_get_progress(s->g, &s->p);
    return r < 0 ? ga_failed(r, 0, err) : EXIT_OK;
}
#endif

/* Generations until the end or a stop signal, with the progress line. */
static int evolve(ga_opts *o, ga_session *s)
{
    char err[512];
    const ga_params *rgp = ga_get_params(s->g);
    int tty = isatty(STDERR_FILENO) && !o->quiet;
    long every = o->every ? o->every : o->quiet ? 0 : 100;
    if (!o->resume && !cli_stop_signal()) {
        /* The start-up (the simple-stacking sweep: about 50 s on a 64x64
         * torus) cannot look at the signal flag: a signal ends it at once;
         * the run resumes from its first checkpoint, which ga_new wrote. */
        char tail[512] = " during the start-up (nothing to resume)";
        if (s->db)
            snprintf(tail, sizeof tail, " during the start-up; continue with: nocsim ga --db %.*s --resume %lld", 300, o->db,
                     (long long)ga_run_id(s->g));
        int rc = cli_stop_at_once("ga", tail) ? 1 : ga_start(s->g, err, sizeof err);   /* 1: not started */
        cli_stop_at_once(NULL, NULL);
        if (rc < 0 && !cli_stop_signal()) return ga_failed(rc, 0, err);
        if (rc != 0) return EXIT_OK;   /* conclude reports the signal */
    }
#ifdef NOCSIM_MPI
    if (o->is.on) return evolve_islands(o, s);
#endif
    ga_progress prev;
    ga_get_progress(s->g, &prev);
    double rate = 0;
    int more = 1, lost = 0;
    while (more > 0 && !lost && !cli_stop_signal()) {
        more = ga_step(s->g, err, sizeof err);
        ga_get_progress(s->g, &s->p);
        if (s->p.elapsed > prev.elapsed + 0.5 || more <= 0) {
            rate = (double)(s->p.evals - prev.evals) / (s->p.elapsed - prev.elapsed + 1e-9);
            prev = s->p;
            if (tty) lost = progress_line(&s->p, rgp, 1, rate) != 0;
        }
        if (!tty && every && s->p.generation % every == 0) lost |= progress_line(&s->p, rgp, 0, rate) != 0;
    }
    int e = errno;
    if (tty) fputc('\n', stderr);
    if (more < 0) return ga_failed(more, 1, err);
    if (lost) {
        /* The first lost progress line stops the run, resumable like a signal's. */
        int rc = s->db ? ga_flush(s->g, err, sizeof err) : 0;
        if (rc < 0) return ga_failed(rc, 1, err);
        if (!s->db)
            return cli_fail("ga", EXIT_FAIL, "cannot write the progress: %s; stopped at generation %lld", strerror(e),
                            (long long)s->p.generation);
        return cli_fail("ga", EXIT_FAIL, "cannot write the progress: %s; stopped at generation %lld; continue with: "
                        "nocsim ga --db %s --resume %lld", strerror(e), (long long)s->p.generation, o->db,
                        (long long)ga_run_id(s->g));
    }
    return EXIT_OK;
}

/* After the loop: leave a stopped run resumable, or mark it finished. */
static int conclude(const ga_opts *o, ga_session *s)
{
    char err[512];
    int sig = cli_stop_signal();
    if (sig) {
        const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";
        if (!s->db)
            return cli_fail("ga", cli_signal_status(sig), "stopped by %s at generation %lld (--no-db: nothing to resume)",
                            name, (long long)s->p.generation);
        int rc = ga_flush(s->g, err, sizeof err);
        if (rc < 0) return ga_failed(rc, 1, err);
        return cli_fail("ga", cli_signal_status(sig), "stopped by %s at generation %lld; continue with: nocsim ga --db %s --resume %lld",
                        name, (long long)s->p.generation, o->db, (long long)ga_run_id(s->g));
    }
    int rc = ga_finish(s->g, err, sizeof err);
    return rc < 0 ? ga_failed(rc, 1, err) : EXIT_OK;
}

/* --fitness estimate: replay the best at the S' slices it was scored for. */
static int replay_estimate(ga_session *s)
{
    char err[512];
    const ga_params *rgp = ga_get_params(s->g);
    if (rgp->fitness != GA_FIT_ESTIMATE || !s->db) return EXIT_OK;
    method_options opt = { .slices = rgp->estimate_slices, .set = MINE_BEST, .threads = rgp->threads };
    if (method_mine(s->db, ga_run_id(s->g), &opt, "estimate-stack", 1, NOCSIM_VERSION, &s->est, err, sizeof err))
        return cli_fail("ga", EXIT_FAIL, "replaying the estimate at %d slices: %s", rgp->estimate_slices, err);
    s->have_est = 1;
    return EXIT_OK;
}

static int save_best(const char *path, const ga *g)
{
    const sim_params *sp = ga_get_sim_params(g);
    sim_metrics bm;
    uint32_t crc;
    const sim_config *best = ga_best(g, &bm, &crc);
    chromfile_meta meta = { .traffic = ga_traffic_name(g), .topology = model_topology_names[sp->topo], .slices = sp->slices, .flits = sp->flits,
                            .run = ga_run_id(g), .chromosome = 0, .duration = bm.duration, .crc = crc };
    char err[PATH_MAX + 256];
    if (chromfile_write(path, best, sp->n, &meta, err, sizeof err)) return cli_fail("ga", EXIT_FAIL, "--save-best %s", err);
    return EXIT_OK;
}

/* What the summary reports: the best and the baselines it had to beat. */
typedef struct {
    sim_metrics bm;
    uint32_t crc, bint;
    const sim_config *best;
    int bscheme;
    int64_t stack_d, nonsplit_d;
    double ratio;             /* best / simple stacking */
    /* Two counts, two names: synonyms as nocsim db runs counts them (the
     * recorded chromosomes whose fitness equals the best's, the best
     * included; -1 without a database), and ties, the GA's own: those equal
     * to the best in fitness and secondary key too, met since it was reached. */
    int64_t synonyms, ties;
} ga_summary;

static void summarize(const ga_session *s, ga_summary *u)
{
    const ga *g = s->g;
    u->best = ga_best(g, &u->bm, &u->crc);
    ga_baselines(g, &u->bscheme, &u->bint, &u->stack_d, &u->nonsplit_d);
    u->ratio = u->stack_d > 0 ? (double)u->bm.duration / (double)u->stack_d : 0;
    u->ties = ga_synonyms(g);
    u->synonyms = -1;
    store_run r;
    char err[256];
    if (s->db && store_run_get(s->db, ga_run_id(g), &r, err, sizeof err) == STORE_OK) {
        u->synonyms = r.synonyms;
        store_run_clear(&r);
    }
}

static int print_json(const ga_session *s)
{
    const ga *g = s->g;
    const sim_params *rsp = ga_get_sim_params(g);
    ga_summary u;
    summarize(s, &u);
    char sig[16];
    snprintf(sig, sizeof sig, "%08x", u.crc);
    json_t *j = json_pack("{s:I, s:o, s:i, s:i, s:s, s:I, s:s, s:I, s:i, s:I, s:I, s:I, s:s, s:i, s:I}",
                          "run", (json_int_t)ga_run_id(g), "traffic", ujson_str(ga_traffic_name(g)), "size", rsp->n,
                          "slices", rsp->slices, "algo", ga_algo_names[ga_get_params(g)->algo],
                          "best_duration", (json_int_t)u.bm.duration, "signature", sig, "synonyms", (json_int_t)(u.synonyms >= 0 ? u.synonyms : u.ties),
                          "interval", (int)u.best->interval, "te", (json_int_t)u.bm.te, "lb", (json_int_t)u.bm.lb,
                          "stacking", (json_int_t)u.stack_d, "stacking_scheme", vcsel_name(u.bscheme),
                          "stacking_interval", (int)u.bint, "nonsplit", (json_int_t)u.nonsplit_d);
    if (j && json_object_update_new(j, json_pack("{s:I, s:f, s:I, s:I, s:I, s:I, s:f}", "ties", (json_int_t)u.ties,
                                                 "ratio", u.ratio,
                                                 "floor", (json_int_t)ga_get_floor(g), "generations", (json_int_t)s->p.generation,
                                                 "evaluations", (json_int_t)s->p.evals, "repeats", (json_int_t)s->p.repeats,
                                                 "seconds", s->p.elapsed))) {
        json_decref(j);
        j = NULL;
    }
    /* A rectangle's height follows its width ("size"), as in model_opts_json. */
    if (j && sim_height(rsp) != rsp->n && json_object_set_new(j, "height", json_integer(sim_height(rsp)))) {
        json_decref(j);
        j = NULL;
    }
    return cli_json_out("ga", NULL, j);
}

static void print_text(const ga_opts *o, const ga_session *s)
{
    const ga *g = s->g;
    const sim_params *rsp = ga_get_sim_params(g);
    const ga_params *rgp = ga_get_params(g);
    ga_summary u;
    summarize(s, &u);
    printf("best duration      %lld cycles (signature %08x, interval %u)\n", (long long)u.bm.duration, u.crc,
           u.best->interval);
    if (u.synonyms >= 0)
        printf("synonyms           %lld (recorded chromosomes with the best %s, the best included: nocsim db synonyms)\n"
               "                   %lld of them also tie on the secondary key (found since the best was reached)\n",
               (long long)u.synonyms, rgp->fitness == GA_FIT_ESTIMATE ? "score" : "duration", (long long)u.ties);
    else
        printf("ties               %lld (chromosomes equal to the best in score and secondary key, the best included)\n",
               (long long)u.ties);
    printf("simple stacking    %lld cycles (%s, interval %u)\n", (long long)u.stack_d, vcsel_name(u.bscheme), u.bint);
    printf("non-split          %lld cycles (one packet of %d flits)\n", (long long)u.nonsplit_d, rsp->slices * rsp->flits);
    printf("improvement        %.3f of simple stacking\n", u.ratio);
    printf("floor              %lld cycles (no schedule can be shorter: busiest link or source)\n", (long long)ga_get_floor(g));
    printf("search             %s, %lld generations, %lld simulations, %.1f s\n", ga_algo_names[rgp->algo],
           (long long)s->p.generation, (long long)s->p.evals, s->p.elapsed);
    if (s->p.repeats)
        printf("                   %lld children not simulated (proven to repeat their parent's run)\n",
               (long long)s->p.repeats);
    /* Text only: the JSON summary stays the same with --delta on and off. */
    if (s->p.cones)
        printf("                   %lld children simulated on their cone (--delta)\n", (long long)s->p.cones);
    if (s->db)
        printf("run                %lld in %s (nocsim db show %lld)\n", (long long)ga_run_id(g), o->db, (long long)ga_run_id(g));
    if (s->have_est)
        printf("estimate replayed  %lld cycles at %d slices, interval %u (recorded as run %lld)\n",
               (long long)s->est.best.duration, rgp->estimate_slices, s->est.best_interval, (long long)s->est.run);
}

static int ga_command(int argc, char **argv, ga_opts *op);

int cmd_ga(int argc, char **argv)
{
    ga_opts o;
    memset(&o, 0, sizeof o);
    o.is.size = 1;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--islands")) o.is.on = 1;
    if (!o.is.on) return ga_command(argc, argv, &o);
#ifdef NOCSIM_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &o.is.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &o.is.size);
    int rc = ga_command(argc, argv, &o);
    islands_agree(&o.is, 0); /* a rank that stopped before the agreement */
    MPI_Finalize();
    return rc;
#else
    return cli_fail("ga", EXIT_USAGE, "--islands needs the MPI build (make MPI=1, Open MPI) started by mpirun");
#endif
}

static int ga_command(int argc, char **argv, ga_opts *op)
{
    ga_opts o = *op;
    ga_groups gg = { 0 };
    int rc = parse(argc, argv, &o, &gg);
    if (opt_groups_done(gg.g, gg.made, &rc)) {
        *op = o;
        return rc;
    }
    if (o.dry_run) {
        rc = EXIT_OK;
        traffic *t = o.resume ? NULL : model_opts_traffic("ga", &o.mo, &rc);
        traffic_free(t);
        return rc;
    }
    ga_session s;
    memset(&s, 0, sizeof s);
    /* The handlers before the database is created: a signal during creation
     * is acted on after it (the run stops at generation 0, resumable). */
    if (cli_catch_stop_signals()) rc = cli_fail("ga", EXIT_FAIL, "cannot install the signal handlers");
    if (rc == EXIT_OK) rc = open_run(&o, &s);
    if (rc == EXIT_OK && (rc = evolve(&o, &s)) == EXIT_OK && (rc = conclude(&o, &s)) == EXIT_OK) {
        /* A failed estimate replay or --save-best fails the command, but the
         * run is recorded and its summary still printed. */
        if (o.is.rank > 0) goto out; /* rank 0 reports the run */
        rc = replay_estimate(&s);
        if (o.save_best && save_best(o.save_best, s.g) != EXIT_OK) rc = EXIT_FAIL;
        if (o.fmt == FMT_JSON) { if (print_json(&s) != EXIT_OK) rc = EXIT_FAIL; }
        else print_text(&o, &s);
    }
out:
    ga_session_clear(&s);
    *op = o;
    return rc;
}
