/* `nocsim extrapolate` and `nocsim post-stack`: the paper's methods that
 * mine recorded chromosomes (Sect. 6.1 and 6.3).  Each result is recorded as
 * a new run whose parent is the source run. */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "ga/methods.h"
#include "sim/pool.h"
#include "store/store.h"

typedef struct {
    const char *name;     /* command and run kind */
    const char *summary;
    int post_stack;
} method_cmd;

typedef struct {
    const char *db;
    long run, slices, limit, threads;   /* slices 0 = the method's default */
    int record;
    method_options opt;
    out_format fmt;
} method_opts;

static const cli_opt method_head_table[] = {
    { "--run", 0, "RUN", "the source run (a GA run, or a run derived from one)" },
    CLI_END
};
static const cli_opt extrapolate_table[] = {
    { "--slices", 0, "S", "slices to replay at (default: 2)" },
    { "--best-only", 0, NULL, "only the run's best chromosome (as rough estimation does)" },
    { "--synonyms", 0, NULL, "only the run's synonyms (default: every recorded chromosome)" },
    CLI_END
};
static const cli_opt post_stack_table[] = {
    { "--slices", 0, "S", "slices to replay at (default: the run's)" },
    { "--all", 0, NULL, "every synonym, without the paper's metric filter" },
    CLI_END
};
static const cli_opt method_tail_table[] = {
    { "--limit", 0, "N", "at most N candidates" },
    { "--db", 0, "PATH", "database (default " STORE_DEFAULT_PATH ")" },
    { "--no-record", 0, NULL, "do not record the result as a run" },
    { "--threads", 'j', "K", "(default: all cores)" },
    { "--format", 0, "F", "text | json (default text)" },
    CLI_END
};

/* One flag of the method tables into o (a cli_set_fn). */
static int set_option(void *ctx, const char *cmd, const char *a, const char *v)
{
    method_opts *o = ctx;
    if (!strcmp(a, "--run")) { if (!arg_int(cmd, a, v, 1, INT64_MAX / 2, &o->run)) return -1; }
    else if (!strcmp(a, "--slices")) { if (!arg_int(cmd, a, v, 1, SIM_MAX_SLICES, &o->slices)) return -1; }
    else if (!strcmp(a, "--limit")) { if (!arg_int(cmd, a, v, 1, INT64_MAX / 2, &o->limit)) return -1; }
    else if (!strcmp(a, "--threads")) { if (!arg_int(cmd, a, v, 1, SIM_POOL_MAX_THREADS, &o->threads)) return -1; }
    else if (!strcmp(a, "--db")) o->db = v;
    else if (!strcmp(a, "--no-record")) o->record = 0;
    else if (!strcmp(a, "--all")) o->opt.set = MINE_SYNONYMS;
    else if (!strcmp(a, "--best-only")) o->opt.set = MINE_BEST;
    else if (!strcmp(a, "--synonyms")) o->opt.set = MINE_SYNONYMS;
    else if (!strcmp(a, "--format")) {
        if (!arg_format(cmd, v, &o->fmt)) return -1;
        if (o->fmt == FMT_CSV) return cli_fail(cmd, -1, "--format: text or json");
    }
    return 0;
}

/* Fills o from argv.  Returns EXIT_OK, CLI_HELP, or EXIT_USAGE after a message. */
static int parse(const method_cmd *mc, int argc, char **argv, method_opts *o, const cli_spec *spec)
{
    const char *cmd = mc->name;
    o->db = STORE_DEFAULT_PATH;
    o->threads = sim_pool_default_threads();
    o->record = 1;
    o->opt.set = mc->post_stack ? MINE_SYNONYMS_FILTERED : MINE_ALL;
    o->fmt = FMT_TEXT;
    int rc = cli_parse(spec, argc, argv);
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
    store *db = cli_store_open(cmd, o->db, o->record ? 0 : STORE_READONLY, &rc);
    if (!db) return rc;
    store_run src;
    rc = store_run_get(db, o->run, &src, err, sizeof err);
    if (rc != STORE_OK) {
        rc = rc == STORE_NOTFOUND ? cli_fail(cmd, EXIT_USAGE, "--run: run %ld is not in %s", o->run, o->db)
                                  : cli_fail(cmd, EXIT_FAIL, "%s", err);
        store_close(db);
        return rc;
    }
    o->opt.slices = o->slices ? (int)o->slices : (mc->post_stack ? src.slices : 2);
    o->opt.threads = (int)o->threads;
    o->opt.limit = o->limit;
    *base = src.base_stacking;
    *src_slices = src.slices;
    store_run_clear(&src);
    rc = EXIT_OK;
    int mined = method_mine(db, o->run, &o->opt, mc->name, o->record, NOCSIM_VERSION, res, err, sizeof err);
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
    printf("%s of run %ld at %d slices: %lld candidates, %lld simulations\n", cmd, o->run, o->opt.slices,
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
    memset(&o, 0, sizeof o);
    const cli_group groups[] = { { method_head_table, set_option, &o },
                                 { mc->post_stack ? post_stack_table : extrapolate_table, set_option, &o },
                                 { method_tail_table, set_option, &o } };
    const cli_spec spec = { mc->name, groups, 3, NULL, NULL };
    int rc = parse(mc, argc, argv, &o, &spec);
    if (rc == CLI_HELP) {
        printf("usage: nocsim %s --run RUN [options]\n\n%s\n\n", mc->name, mc->summary);
        cli_help(stdout, &spec);
    }
    if (rc != EXIT_OK) return rc == CLI_HELP ? EXIT_OK : rc;
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
