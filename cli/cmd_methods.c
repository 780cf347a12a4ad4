/* `nocsim extrapolate` and `nocsim post-stack`: the paper's methods that
 * mine recorded chromosomes (Sect. 6.1 and 6.3).  Each result is recorded as
 * a new run whose parent is the source run. */
#include <stddef.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/opt_group.h"
#include "ga/methods.h"
#include "sim/pool.h"
#include "store/store.h"

/* Slices extrapolate replays at when --slices is not given. */
#define METHOD_EXTRAPOLATE_SLICES 2

typedef struct {
    const char *name;     /* command and run kind */
    const char *summary;
    int post_stack;
} method_cmd;

typedef struct {
    const char *db;
    int64_t run, limit;   /* limit 0: none */
    int slices, threads;  /* slices 0 = the source run's */
    int no_record;
    method_options opt;
    out_format fmt;
} method_opts;

/* A switch that picks the chromosomes mined (opt.set): --best-only,
 * --synonyms, --all. */
static int parse_set(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)v, (void)err, (void)errlen;
    ((method_opts *)base)->opt.set = (method_mine_set)(int)r->lo;
    return 0;
}

static void show_set(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s", ((const method_opts *)base)->opt.set == (method_mine_set)(int)r->lo ? "on" : "");
}

#define OFIELD(f) #f, offsetof(method_opts, f)
/* A switch of the chromosome set (its value in lo; no range shown: hi 0). */
#define SET_ROW(name, help, which) { name, 0, NULL, help, OPT_CUSTOM, OFIELD(opt.set), which, 0, 0, 0, NULL, 0, parse_set, \
                                   show_set, 1 }
static const opt_row method_head_rows[] = {
    { "run", 0, "RUN", "the source run (a GA run, or a run derived from one)", OPT_I64, OFIELD(run), 1, CLI_ID_MAX, 0, 0,
      NULL, 0, NULL, NULL, 1 },
    OPT_END
};
static const opt_row extrapolate_rows[] = {
    { "slices", 0, "S", "slices to replay at", OPT_INT, OFIELD(slices), 1, SIM_MAX_SLICES, 0, 0, NULL, 0, NULL, NULL,
      0 },
    SET_ROW("best-only", "only the run's best chromosome (as rough estimation does)", MINE_BEST),
    SET_ROW("synonyms", "only the run's synonyms (default: every recorded chromosome)", MINE_SYNONYMS),
    OPT_END
};
static const opt_row post_stack_rows[] = {
    { "slices", 0, "S", "slices to replay at (default: the run's)", OPT_INT, OFIELD(slices), 1, SIM_MAX_SLICES, 0, 0,
      NULL, 0, NULL, NULL, 1 },
    SET_ROW("all", "every synonym, without the paper's metric filter", MINE_SYNONYMS),
    OPT_END
};
static const opt_row method_tail_rows[] = {
    { "limit", 0, "N", "at most N candidates", OPT_I64, OFIELD(limit), 1, CLI_ID_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "db", 0, "PATH", "database", OPT_TEXT, OFIELD(db), 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    { "no-record", 0, NULL, "do not record the result as a run", OPT_SWITCH, OFIELD(no_record), 0, 0, 0, 0, NULL, 0,
      NULL, NULL, 0 },
    { "threads", 'j', "K", "evaluation threads (default: all cores)", OPT_INT, OFIELD(threads), 1,
      SIM_POOL_MAX_THREADS, 0, 0, NULL, 0, NULL, NULL, 1 },
    { "format", 0, NULL, "output format", OPT_CHOICE, OFIELD(fmt), 0, 0, 0, 0, cli_format_names, 2, NULL, NULL, 0 },
    OPT_END
};
enum { M_HEAD, M_OWN, M_TAIL, MGROUPS };

/* Fills o from argv (g: the groups, the caller frees them).  Returns
 * EXIT_OK, CLI_HELP (after the help), EXIT_USAGE after a message, or EXIT_FAIL. */
static int parse(const method_cmd *mc, int argc, char **argv, method_opts *o, opt_group *g)
{
    const char *cmd = mc->name;
    memset(o, 0, sizeof *o);
    o->db = STORE_DEFAULT_PATH;
    o->threads = sim_pool_default_threads();
    o->slices = mc->post_stack ? 0 : METHOD_EXTRAPOLATE_SLICES;
    o->opt.set = mc->post_stack ? MINE_SYNONYMS_FILTERED : MINE_ALL;
    o->fmt = FMT_TEXT;
    const opt_row *rows[MGROUPS] = { method_head_rows, mc->post_stack ? post_stack_rows : extrapolate_rows,
                                     method_tail_rows };
    for (int k = 0; k < MGROUPS; k++)
        if (opt_group_init(&g[k], rows[k], o, sizeof *o)) return cli_fail(cmd, EXIT_FAIL, "out of memory");
    const cli_group groups[] = { opt_group_cli(&g[0]), opt_group_cli(&g[1]), opt_group_cli(&g[2]) };
    const cli_spec spec = { cmd, groups, MGROUPS, NULL, NULL };
    int rc = cli_parse(&spec, argc, argv);
    if (rc == CLI_HELP) {
        printf("usage: nocsim %s --run RUN [options]\n\n%s\n\n", mc->name, mc->summary);
        cli_help(stdout, &spec);
    }
    if (rc != EXIT_OK) return rc;
    if (!o->run) return cli_fail(cmd, EXIT_USAGE, "--run RUN is required (nocsim db runs lists them)");
    return EXIT_OK;
}

/* Mines the source run into res (cleared by the caller); *base and *src_slices
 * are its stacking baseline and slice count, for the ratio. */
static int run(const method_cmd *mc, method_opts *o, method_result *res, int64_t *base, int *src_slices)
{
    const char *cmd = mc->name;
    char err[512];
    int rc = EXIT_OK;
    store *db = cli_store_open(cmd, o->db, o->no_record ? STORE_READONLY : 0, &rc);
    if (!db) return rc;
    store_run src;
    rc = store_run_get(db, o->run, &src, err, sizeof err);
    if (rc != STORE_OK) {
        rc = rc == STORE_NOTFOUND ? cli_fail(cmd, EXIT_USAGE, "--run: run %lld is not in %s", (long long)o->run, o->db)
                                  : cli_fail(cmd, EXIT_FAIL, "%s", err);
        store_close(db);
        return rc;
    }
    o->opt.slices = o->slices ? o->slices : src.slices;
    o->opt.threads = o->threads;
    o->opt.limit = o->limit;
    *base = src.base_stacking;
    *src_slices = src.slices;
    store_run_clear(&src);
    rc = EXIT_OK;
    int mined = method_mine(db, o->run, &o->opt, mc->name, !o->no_record, NOCSIM_VERSION, res, err, sizeof err);
    if (mined < 0) rc = cli_fail(cmd, cli_fault_status(fault_of(mined)), "%s", err);
    store_close(db);
    return rc;
}

static int print(const method_cmd *mc, const method_opts *o, const method_result *res, double ratio, int64_t base)
{
    const char *cmd = mc->name;
    if (o->fmt == FMT_JSON) {
        char sig[16];
        snprintf(sig, sizeof sig, "%08x", res->best_crc);
        return cli_json_out(cmd, NULL, json_pack("{s:s, s:I, s:i, s:I, s:I, s:I, s:i, s:I, s:s, s:I, s:I, s:f, s:I}", "method", cmd,
                                    "source_run", (json_int_t)o->run, "slices", o->opt.slices,
                                    "candidates", (json_int_t)res->candidates, "simulations", (json_int_t)res->sims,
                                    "best_duration", (json_int_t)res->best.duration, "interval", (int)res->best_interval,
                                    "source_chromosome", (json_int_t)res->best_chrom, "signature", sig,
                                    "te", (json_int_t)res->best1.te, "t_d", (json_int_t)res->best1.duration,
                                    "ratio_to_stacking", ratio, "run", (json_int_t)res->run));
    }
    printf("%s of run %lld at %d slices: %lld candidates, %lld simulations\n", cmd, (long long)o->run, o->opt.slices,
           (long long)res->candidates, (long long)res->sims);
    printf("best duration  %lld cycles at interval %u (from chromosome %lld; single slice t_d %lld, T_e %lld)\n",
           (long long)res->best.duration, res->best_interval, (long long)res->best_chrom, (long long)res->best1.duration,
           (long long)res->best1.te);
    if (ratio > 0) printf("improvement    %.3f of simple stacking (%lld)\n", ratio, (long long)base);
    if (res->run) printf("recorded as run %lld (signature %08x)\n", (long long)res->run, res->best_crc);
    return EXIT_OK;
}

static int run_method(const method_cmd *mc, int argc, char **argv)
{
    method_opts o;
    opt_group g[MGROUPS] = { { 0 }, { 0 }, { 0 } };
    int rc = parse(mc, argc, argv, &o, g);
    if (opt_groups_done(g, MGROUPS, &rc)) return rc;
    method_result res;
    memset(&res, 0, sizeof res);
    int64_t base = 0;
    int src_slices = 0;
    if ((rc = run(mc, &o, &res, &base, &src_slices)) == EXIT_OK) {
        /* The stacking baseline compares only at the source run's slice count. */
        double ratio = (base > 0 && o.opt.slices == src_slices) ? (double)res.best.duration / (double)base : 0;
        rc = print(mc, &o, &res, ratio, base);
    }
    method_result_clear(&res);
    return rc;
}

int cmd_extrapolate(int argc, char **argv)
{
    static const method_cmd mc = {
        "extrapolate",
        "Slice extrapolation (paper Sect. 6.1): replay the chromosomes recorded by a run\n"
        "at another number of slices; for each, a single-slice run gives its thickness\n"
        "T_e and the interval is searched from the packet length to T_e.  The best is\n"
        "reported and recorded as a new run.",
        0 };
    return run_method(&mc, argc, argv);
}

int cmd_post_stack(int argc, char **argv)
{
    static const method_cmd mc = {
        "post-stack",
        "Post-stacking (paper Sect. 6.3): mine a run's synonyms.  As the paper records\n"
        "them, a synonym is kept only if one of ir, or, ib, ob, lb, T_e exceeds the last\n"
        "one kept; the interval of each is searched from the packet length to its T_e,\n"
        "and the best is reported and recorded as a new run.",
        1 };
    return run_method(&mc, argc, argv);
}
