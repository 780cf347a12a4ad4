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

static void help(const method_cmd *mc)
{
    printf("usage: nocsim %s --run RUN [options]\n\n%s\n\n", mc->name, mc->summary);
    printf("  --run RUN       the source run (a GA run, or a run derived from one)\n"
           "  --slices S      slices to replay at (default: %s)\n", mc->post_stack ? "the run's" : "2");
    if (mc->post_stack)
        printf("  --all           every synonym, without the paper's metric filter\n");
    else
        printf("  --best-only     only the run's best chromosome (as rough estimation does)\n"
               "  --synonyms      only the run's synonyms (default: every recorded chromosome)\n");
    printf("  --limit N       at most N candidates\n"
           "  --db PATH       database (default nocsim.db)\n"
           "  --no-record     do not record the result as a run\n"
           "  --threads K     (default: all cores)\n"
           "  --format F      text | json (default text)\n");
}

static int run_method(const method_cmd *mc, int argc, char **argv)
{
    const char *cmd = mc->name, *dbpath = STORE_DEFAULT_PATH, *v;
    long run = 0, slices = 0, limit = 0, threads = sim_pool_default_threads();
    int record = 1;
    method_options opt = { .set = mc->post_stack ? MINE_SYNONYMS_FILTERED : MINE_ALL };
    out_format fmt = FMT_TEXT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(mc); return EXIT_OK; }
        else if (!strcmp(a, "--run")) { if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, INT64_MAX / 2, &run)) return EXIT_USAGE; }
        else if (!strcmp(a, "--slices")) { if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, SIM_MAX_SLICES, &slices)) return EXIT_USAGE; }
        else if (!strcmp(a, "--limit")) { if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, INT64_MAX / 2, &limit)) return EXIT_USAGE; }
        else if (!strcmp(a, "--threads")) { if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, SIM_POOL_MAX_THREADS, &threads)) return EXIT_USAGE; }
        else if (!strcmp(a, "--db")) { if (!(dbpath = arg_value(cmd, argc, argv, &i))) return EXIT_USAGE; }
        else if (!strcmp(a, "--no-record")) record = 0;
        else if (mc->post_stack && !strcmp(a, "--all")) opt.set = MINE_SYNONYMS;
        else if (!mc->post_stack && !strcmp(a, "--best-only")) opt.set = MINE_BEST;
        else if (!mc->post_stack && !strcmp(a, "--synonyms")) opt.set = MINE_SYNONYMS;
        else if (!strcmp(a, "--format")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_format(cmd, v, &fmt)) return EXIT_USAGE;
            if (fmt == FMT_CSV) { fprintf(stderr, "nocsim %s: --format: text or json\n", cmd); return EXIT_USAGE; }
        }
        else { arg_unknown(cmd, a); return EXIT_USAGE; }
    }
    if (!run) { fprintf(stderr, "nocsim %s: --run RUN is required (nocsim db runs lists them)\n", cmd); return EXIT_USAGE; }
    char err[512];
    int rc = EXIT_OK;
    store *db = cli_store_open(cmd, dbpath, record ? 0 : STORE_READONLY, &rc);
    if (!db) return rc;
    store_run src;
    rc = store_run_get(db, run, &src, err, sizeof err);
    if (rc != STORE_OK) {
        if (rc == STORE_NOTFOUND) fprintf(stderr, "nocsim %s: --run: run %ld is not in %s\n", cmd, run, dbpath);
        else fprintf(stderr, "nocsim %s: %s\n", cmd, err);
        store_close(db);
        return rc == STORE_NOTFOUND ? EXIT_USAGE : EXIT_FAIL;
    }
    opt.slices = slices ? (int)slices : (mc->post_stack ? src.slices : 2);
    opt.threads = (int)threads;
    opt.limit = limit;
    int64_t base = src.base_stacking;
    int src_slices = src.slices;
    store_run_clear(&src);
    method_result res;
    if (method_mine(db, run, &opt, mc->name, record, NOCSIM_VERSION, &res, err, sizeof err)) {
        fprintf(stderr, "nocsim %s: %s\n", cmd, err);
        method_result_clear(&res);
        store_close(db);
        return EXIT_FAIL;
    }
    /* The stacking baseline compares only at the source run's slice count. */
    double ratio = (base > 0 && opt.slices == src_slices) ? (double)res.best.duration / (double)base : 0;
    if (fmt == FMT_JSON) {
        printf("{\"method\": \"%s\", \"source_run\": %ld, \"slices\": %d, \"candidates\": %lld, \"simulations\": %lld, "
               "\"best_duration\": %lld, \"interval\": %u, \"source_chromosome\": %lld, \"signature\": \"%08x\", "
               "\"te\": %lld, \"t_d\": %lld, \"ratio_to_stacking\": %.4f, \"run\": %lld}\n",
               cmd, run, opt.slices, (long long)res.candidates, (long long)res.sims, (long long)res.best.duration,
               res.best_interval, (long long)res.best_chrom, res.best_crc, (long long)res.best1.te,
               (long long)res.best1.duration, ratio, (long long)res.run);
    } else {
        printf("%s of run %ld at %d slices: %lld candidates, %lld simulations\n", cmd, run, opt.slices,
               (long long)res.candidates, (long long)res.sims);
        printf("best duration  %lld cycles at interval %u (from chromosome %lld; single slice t_d %lld, T_e %lld)\n",
               (long long)res.best.duration, res.best_interval, (long long)res.best_chrom, (long long)res.best1.duration,
               (long long)res.best1.te);
        if (ratio > 0) printf("improvement    %.3f of simple stacking (%lld)\n", ratio, (long long)base);
        if (res.run) printf("recorded as run %lld (signature %08x)\n", (long long)res.run, res.best_crc);
    }
    method_result_clear(&res);
    store_close(db);
    return EXIT_OK;
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
