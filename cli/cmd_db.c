/* `nocsim db`: query the result database without writing SQL.  This file
 * dispatches the subcommands, parses the options they share, opens the
 * database and implements `merge`; the queries are in db_query.c. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/db_cmds.h"
#include "cli/db_table.h"
#include "cli/opt_group.h"
#include "ga/dbcheck.h"

/* Options a subcommand accepts beyond --db, --format and --help. */
enum {
    O_RUNFILTER = 1, /* --traffic --slices --kind */
    O_CHROM = 2,     /* --where --order-by --limit --all */
    O_EXPORT = 4,    /* --genes --table */
    O_CREATE = 8,    /* --create */
};

static int db_merge(const db_opts *o, FILE *out);

typedef struct {
    const char *name;
    int (*run)(const db_opts *o, FILE *out);
    int opts;
    const char *arg;      /* positional argument: "RUN", "OTHER.db" or NULL */
    const char *summary;
    const char *help;     /* description and the subcommand's own options */
} subcommand;

static const subcommand subs[] = {
    { "runs", db_runs, O_RUNFILTER, NULL, "a table of the runs",
      "One row per run: id, kind, topology, traffic, size (the width), height,\n"
      "slices, flits, genes, algorithm, best duration, number of synonyms,\n"
      "simple-stacking baseline, best/stacking ratio, status and start time; a\n"
      "load or cc run has no GA columns (-).\n" },
    { "show", db_show, 0, "RUN", "one run: every field, its parameters and its curve",
      "Every field of run RUN, its parameters, and the per-generation curve\n"
      "(generation, best, average, evaluations, elapsed).  Text shows a compact\n"
      "curve (about every tenth generation and every new best); csv lists every\n"
      "generation; json gives {\"run\": {...}, \"generations\": [...]}.  An open-loop\n"
      "run (nocsim load) shows its points instead (csv: the points; json: also\n"
      "\"points\": [...]).\n" },
    { "synonyms", db_synonyms, O_CHROM, "RUN", "the synonyms of a run's best, filtered and sorted",
      "The chromosomes of run RUN that have its best score (its best and all its\n"
      "synonyms): id, generation, crc, score, duration, t_d, t_e, ir, or, ib, ob, lb.\n" },
    { "best", db_best, O_RUNFILTER, NULL, "the best run per traffic, size, slices and flits",
      "For each (traffic, size, slices, flits): the run with the shortest best\n"
      "duration (ties: the lowest id), in the columns of nocsim db runs, sorted by\n"
      "traffic, size, slices and flits.\n" },
    { "export", db_export, O_EXPORT, "RUN", "a run with its generations and chromosomes, for scripts",
      "The run, its generations and every chromosome it recorded (metrics,\n"
      "is_synonym, genes_len).  json (the default) writes one object\n"
      "{\"run\": {...}, \"generations\": [...], \"chromosomes\": [...]}, and for an\n"
      "open-loop run (nocsim load) \"points\": [...], its curve; csv writes one\n"
      "table, chosen with --table.\n" },
    { "sweep", db_sweep, 0, "RUN", "a parameter sweep: best and mean per grid point and parameter",
      "The summary of sweep RUN (nocsim sweep): per pattern its best run and\n"
      "chromosome and the parameter whose values' mean best durations differ most;\n"
      "the mean best duration per value of every parameter; and per grid point the\n"
      "number of runs, best and mean best duration and best / simple stacking\n"
      "(paper Fig. 5: best against mean).  For a load sweep (nocsim sweep load) the\n"
      "saturation table: per grid point the saturation throughput and rate (mean\n"
      "over its curves), the mean saturation throughput per value of every\n"
      "parameter, and per pattern the mean, the best and the parameter whose\n"
      "values' means differ most.  csv: the grid points; json: {\"sweep\",\n"
      "\"patterns\", \"levels\", \"points\"}.\n" },
    { "merge", db_merge, O_CREATE, "OTHER.db", "bring the runs of another database file in",
      "Copy every run of OTHER.db that --db does not hold yet (runs are identified\n"
      "by uuid, so merging twice adds nothing) with its generations, chromosomes,\n"
      "checkpoint, schedules and open-loop points, in one transaction.  OTHER.db\n"
      "is only read.\n" },
};
#define NSUBS (sizeof subs / sizeof subs[0])

/* The options of every subcommand, then those of some (enum above): option
 * rows over db_opts (util/options.h). */
_Static_assert(sizeof(out_format) == sizeof(int), "the format row chooses an enum's value as an int");
static const char *const format_names[] = { "text", "json", "csv" };
static const char *const table_names[] = { "run", "generations", "chromosomes", "points" };
#define NAMES(a) (a), (int)(sizeof(a) / sizeof(a)[0])
#define FIELD(f) #f, offsetof(db_opts, f)
#define TEXT_ROW(name, arg, help, f) { name, 0, arg, help, OPT_TEXT, FIELD(f), 0, 0, 0, 0, NULL, 0, NULL, NULL, 1 }
#define SWITCH_ROW(name, help, f) { name, 0, NULL, help, OPT_SWITCH, FIELD(f), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 }

static const opt_row db_common_rows[] = {
    { "db", 0, "PATH", "database; must exist; opened read-only except by merge,\n"
                       "which copies runs into it",
      OPT_TEXT, FIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "format", 0, NULL, "text (aligned, for people), csv (header row) or json\n"
                         "(default text; export: json)",
      OPT_CHOICE, FIELD(fmt), 0, 0, 0, 0, NAMES(format_names), NULL, NULL, 1 },
    OPT_END
};
static const opt_row db_runfilter_rows[] = {
    TEXT_ROW("traffic", "T", "only runs of traffic pattern T", traffic),
    { "slices", 0, "S", "only runs with S slices", OPT_INT, FIELD(slices), 1, 1000000, 0, 0, NULL, 0, NULL, NULL, 1 },
    TEXT_ROW("kind", "K", "only runs of kind K: ga, load, cc, replay or sweep", kind),
    OPT_END
};
static const opt_row db_chrom_rows[] = {
    TEXT_ROW("where", "EXPR", "keep the rows where EXPR holds, e.g. \"lb < 100 and ob > 3\";\n"
                              "metrics: duration score t_d t_e ir or ib ob lb generation\n"
                              "crc id; operators < <= > >= = != and or not ( )", where),
    TEXT_ROW("order-by", "M", "sort by metric M, optionally \"M desc\" (default: id)", order),
    { "limit", 0, "N", "at most N rows", OPT_I64, FIELD(limit), 1, 1000000000, 0, 0, NULL, 0, NULL, NULL, 1 },
    SWITCH_ROW("all", "every recorded chromosome of the run, not only synonyms\n"
                      "(adds a column 'best': 1 if it has the run's best score)", all),
    OPT_END
};
static const opt_row db_export_rows[] = {
    { "table", 0, NULL, "which table (default for csv: points of an open-loop run,\n"
                        "else chromosomes; with json, only that table)",
      OPT_CHOICE, FIELD(table_k), 0, 0, 0, 0, NAMES(table_names), NULL, NULL, 1 },
    SWITCH_ROW("genes", "add the canonical gene encoding as hex (column genes)", genes),
    OPT_END
};
static const opt_row db_create_rows[] = {
    SWITCH_ROW("create", "create the --db file if it does not exist", create),
    OPT_END
};

static void usage(FILE *f)
{
    fprintf(f, "usage: nocsim db SUBCOMMAND [options]\n\n"
               "Query the result database without writing SQL.  The schema is documented\n"
               "for direct sqlite3 use in store/SCHEMA.md.\n\n"
               "subcommands:\n");
    for (size_t i = 0; i < NSUBS; i++) {
        char head[32];
        snprintf(head, sizeof head, "%s%s%s", subs[i].name, subs[i].arg ? " " : "",
                 subs[i].arg ? subs[i].arg : "");
        fprintf(f, "  %-18s %s\n", head, subs[i].summary);
    }
    fprintf(f, "\noptions of every subcommand (nocsim db SUBCOMMAND --help lists its own):\n");
    db_opts o = { .db = STORE_DEFAULT_PATH };
    opt_group g;
    if (opt_group_init(&g, db_common_rows, &o, sizeof o) == 0) {
        const cli_group common[] = { opt_group_cli(&g) };
        const cli_spec spec = { "db", common, 1, NULL, NULL };
        cli_help(f, &spec);
        opt_group_free(&g);
    }
    fprintf(f, "\nexamples:\n"
               "  nocsim db runs --traffic brev\n"
               "  nocsim db synonyms 3 --where \"lb < 100 and ob > 3\" --order-by \"ob desc\"\n"
               "  nocsim db export 3 --format csv > run3.csv\n"
               "  nocsim db merge other-machine.db\n");
}

/* The subcommand's positional argument (a cli_spec operand function). */
typedef struct {
    const subcommand *c;
    db_opts *o;
} db_operand;

static int set_operand(void *ctx, const char *cmd, const char *a)
{
    db_operand *d = ctx;
    if (d->c->arg && !d->o->arg) {
        d->o->arg = a;
        return 0;
    }
    fprintf(stderr, "nocsim %s: unexpected argument '%s' (see nocsim %s --help)\n", cmd, a, cmd);
    return -1;
}

enum { NDB_GROUPS = 5 };

/* Subcommand c's option groups over o (the common rows, then those of
 * c->opts) into g[] and cg[]: their number, or -1 when memory runs out
 * (nothing left to free). */
static int make_groups(const subcommand *c, db_opts *o, opt_group *g, cli_group *cg)
{
    const struct { int bit; const opt_row *rows; } all[NDB_GROUPS] = {
        { 0, db_common_rows }, { O_RUNFILTER, db_runfilter_rows }, { O_CHROM, db_chrom_rows },
        { O_EXPORT, db_export_rows }, { O_CREATE, db_create_rows },
    };
    int n = 0;
    for (int k = 0; k < NDB_GROUPS; k++) {
        if (all[k].bit && !(c->opts & all[k].bit)) continue;
        if (opt_group_init(&g[n], all[k].rows, o, sizeof *o)) {
            while (n--) opt_group_free(&g[n]);
            return -1;
        }
        cg[n] = opt_group_cli(&g[n]);
        n++;
    }
    return n;
}

/* After the parse: what was given, the run's id.  -1 to go on, else an exit status. */
static int finish_parse(const subcommand *c, db_opts *o, const opt_group *g, int n)
{
    const char *cmd = o->cmd;
    o->fmt_given = opt_groups_given(g, n, "format") != 0;
    o->table = opt_groups_given(g, n, "table") ? table_names[o->table_k] : NULL;
    if (c->arg && !o->arg) {
        fprintf(stderr, "nocsim %s: missing %s (see nocsim %s --help)\n", cmd, c->arg, cmd);
        return EXIT_USAGE;
    }
    long x;
    if (c->arg && !strcmp(c->arg, "RUN")) {
        if (!arg_int(cmd, "RUN", o->arg, 1, LONG_MAX, &x)) return EXIT_USAGE;
        o->run = x;
    }
    return -1;
}

/* Parse argv of subcommand c into *o.  Returns -1 to go on, else an exit
 * status (--help, or bad input). */
static int parse(const subcommand *c, int argc, char **argv, db_opts *o)
{
    opt_group g[NDB_GROUPS];
    cli_group cg[NDB_GROUPS];
    int n = make_groups(c, o, g, cg);
    if (n < 0) return cli_fail(o->cmd, EXIT_FAIL, "out of memory");
    db_operand d = { c, o };
    const cli_spec spec = { o->cmd, cg, n, set_operand, &d };
    int rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) {
        printf("usage: nocsim db %s%s%s [options]\n\n%s\n", c->name, c->arg ? " " : "", c->arg ? c->arg : "", c->help);
        cli_help(stdout, &spec);
        rc = EXIT_OK;
    } else if (rc == EXIT_OK) {
        rc = finish_parse(c, o, g, n);
    }
    for (int k = 0; k < n; k++) opt_group_free(&g[k]);
    return rc;
}

store *db_open(const db_opts *o, const char *path, int flags, int *rc)
{
    char err[512];
    struct stat sb;
    /* A query must never create a file, and a missing file is the user's
     * typo rather than an I/O failure: say so before SQLite is involved. */
    if (!(flags & STORE_CREATE) && stat(path, &sb) != 0 && errno == ENOENT) {
        fprintf(stderr, "nocsim %s: %s: no such database file%s\n", o->cmd, path,
                flags & STORE_READONLY ? "" : " (--create makes a new one)");
        *rc = EXIT_USAGE;
        return NULL;
    }
    store_fault fault;
    store *s = store_open_fault(path, flags, &fault, err, sizeof err);
    if (!s) {
        fprintf(stderr, "nocsim %s: %s%s\n", o->cmd, path == o->db ? "--db: " : "", err);
        *rc = cli_store_status(fault);   /* the one mapping of every command (cli/status.c) */
    }
    return s;
}

int db_get_run(store *s, const db_opts *o, store_run *r)
{
    char err[512];
    int st = store_run_get(s, o->run, r, err, sizeof err);
    if (st == STORE_OK)
        return EXIT_OK;
    if (st == STORE_NOTFOUND) {
        fprintf(stderr, "nocsim %s: run %lld is not in %s (nocsim db runs lists them)\n", o->cmd,
                (long long)o->run, o->db);
        return EXIT_USAGE;
    }
    fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
    return EXIT_FAIL;
}

static int db_merge(const db_opts *o, FILE *out)
{
    int rc = EXIT_OK;
    /* Validate the other file first, read-only, so that a wrong OTHER.db is
     * reported as bad input and --create makes no file for it. */
    store *other = db_open(o, o->arg, STORE_READONLY, &rc);
    if (!other)
        return rc;
    /* Everything merged is later trusted by resume, replay and export. */
    char why[512];
    int bad = ga_db_check(other, why, sizeof why);
    if (bad) {
        fprintf(stderr, "nocsim %s: %s (nothing merged)\n", o->cmd, why);
        store_close(other);
        return cli_fault_status(fault_of(bad));   /* ga --resume's rule: an earlier format is bad input */
    }
    store_close(other);
    store *s = db_open(o, o->db, o->create ? STORE_CREATE : 0, &rc);
    if (!s)
        return rc;
    store_merge_stats m;
    char err[512];
    if (store_merge(s, o->arg, &m, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "nocsim %s: %s\n", o->cmd, err);
        store_close(s);
        return EXIT_FAIL;
    }
    store_close(s);
    if (o->fmt == FMT_TEXT) {
        fprintf(out, "merged %s into %s: %lld run%s added, %lld skipped (already present); "
                     "%lld generations, %lld chromosomes, %lld checkpoints, %lld schedules, "
                     "%lld load points\n",
                o->arg, o->db, (long long)m.runs_added, m.runs_added == 1 ? "" : "s",
                (long long)m.runs_skipped, (long long)m.generations, (long long)m.chromosomes,
                (long long)m.checkpoints, (long long)m.schedules, (long long)m.load_points);
        return EXIT_OK;
    }
    static const db_col cols[] = {
        {"runs_added", COL_NUM}, {"runs_skipped", COL_NUM}, {"generations", COL_NUM},
        {"chromosomes", COL_NUM}, {"checkpoints", COL_NUM}, {"schedules", COL_NUM},
        {"load_points", COL_NUM},
    };
    db_table *t = db_table_new(cols, (int)(sizeof cols / sizeof *cols));
    if (!t) {
        fprintf(stderr, "nocsim %s: out of memory\n", o->cmd);
        return EXIT_FAIL;
    }
    db_table_row(t);
    db_table_int(t, m.runs_added);
    db_table_int(t, m.runs_skipped);
    db_table_int(t, m.generations);
    db_table_int(t, m.chromosomes);
    db_table_int(t, m.checkpoints);
    db_table_int(t, m.schedules);
    db_table_int(t, m.load_points);
    /* The merge is committed: a failure here only loses the report. */
    rc = db_table_print(t, out, o->fmt, o->cmd) ? EXIT_FAIL : EXIT_OK;
    if (rc != EXIT_OK)
        fprintf(stderr, "nocsim %s: out of memory (the merge itself is committed)\n", o->cmd);
    db_table_free(t);
    return rc;
}

int cmd_db(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    const subcommand *c = NULL;
    for (size_t i = 0; i < NSUBS; i++)
        if (!strcmp(argv[1], subs[i].name))
            c = &subs[i];
    if (!c) {
        fprintf(stderr, "nocsim db: unknown subcommand '%s' (allowed: runs show synonyms best "
                        "export sweep merge)\n", argv[1]);
        return EXIT_USAGE;
    }
    char cmd[32];
    snprintf(cmd, sizeof cmd, "db %s", c->name);
    db_opts o = { .cmd = cmd, .db = STORE_DEFAULT_PATH, .fmt = FMT_TEXT };
    int rc = parse(c, argc - 1, argv + 1, &o);
    if (rc >= 0)
        return rc;

    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out) {
        fprintf(stderr, "nocsim %s: out of memory\n", cmd);
        return EXIT_FAIL;
    }
    rc = c->run(&o, out);
    if (fclose(out) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "nocsim %s: out of memory\n", cmd);
        rc = EXIT_FAIL;
    }
    if (rc == EXIT_OK && (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
        fprintf(stderr, "nocsim %s: cannot write the output: %s\n", cmd, strerror(errno));
        rc = EXIT_FAIL;
    }
    free(buf);
    return rc;
}
