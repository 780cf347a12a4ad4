/* `nocsim stack`: simple stacking (paper Sect. 4.1).  Every port uses one
 * VC-selection scheme, every node injects at once (I = 0), and the inter-slice
 * interval is swept; for each scheme the shortest duration and the interval
 * that gives it are reported.  The intervals of a scheme run in parallel on
 * the GA's evaluation pool. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "ga/interval.h"
#include "ga/pool.h"
#include "router/arbiter.h"
#include "sim/sim.h"

/* The schemes to sweep. */
typedef struct {
    int schemes[VCSEL_NSCHEMES];
    int nschemes;
} scheme_set;

static void help(void)
{
    printf("usage: nocsim stack [options]\n\n"
           "Simple stacking: all ports on one VC-selection scheme, all nodes inject at\n"
           "once; sweep the inter-slice interval and report, per scheme, the shortest\n"
           "duration and its interval (paper Sect. 4.1, Fig. 3 and Table 2).\n\n"
           "  --arb all|Cxx[,Cyy...]  schemes to sweep (default all)\n"
           "  --interval MIN:MAX      interval range (default 8:200; MIN >= packet length)\n"
           "  --slices S              (default 2)\n"
           "  --threads K             worker threads (default: all cores)\n"
           "  --format F              text: best per scheme; csv: one row per scheme and\n"
           "                          interval; json: both (default text)\n\n");
    model_opts_help(stdout);
    printf("\nexample: nocsim stack --traffic brev --slices 2 --arb all --interval 8:200\n");
}

static int parse_schemes(const char *v, scheme_set *w)
{
    const char *names[VCSEL_NSCHEMES];
    for (int k = 0; k < VCSEL_NSCHEMES; k++) names[k] = vcsel_name(k);
    if (!strcmp(v, "all")) {
        for (int k = 0; k < VCSEL_NSCHEMES; k++) w->schemes[k] = k;
        w->nschemes = VCSEL_NSCHEMES;
        return 0;
    }
    return arg_name_list("stack", "--arb", v, names, VCSEL_NSCHEMES, w->schemes, &w->nschemes) ? 0 : -1;
}

int cmd_stack(int argc, char **argv)
{
    const char *cmd = "stack";
    model_opts mo;
    model_opts_default(&mo);
    mo.params.slices = 2;
    scheme_set w;
    memset(&w, 0, sizeof w);
    parse_schemes("all", &w);
    long lo = 8, hi = 200;
    int lo_given = 0;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    out_format fmt = FMT_TEXT;
    for (int i = 1; i < argc; i++) {
        int r = model_opts_parse(cmd, argc, argv, &i, &mo);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(); return EXIT_OK; }
        else if (!strcmp(a, "--arb")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || parse_schemes(v, &w)) return EXIT_USAGE;
        } else if (!strcmp(a, "--interval")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_range(cmd, a, v, 1, 100000, &lo, &hi)) return EXIT_USAGE;
            lo_given = 1;
        } else if (!strcmp(a, "--threads")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, 256, &threads)) return EXIT_USAGE;
        } else if (!strcmp(a, "--format")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_format(cmd, v, &fmt)) return EXIT_USAGE;
        } else { arg_unknown(cmd, a); return EXIT_USAGE; }
    }
    if (lo < mo.params.flits) {
        if (lo_given) {
            fprintf(stderr, "nocsim stack: --interval: %ld is below the packet length %d (allowed: >= %d)\n",
                    lo, mo.params.flits, mo.params.flits);
            return EXIT_USAGE;
        }
        lo = mo.params.flits;
        if (hi < lo) hi = lo;
    }
    char err[256];
    if (sim_params_check(&mo.params, err, sizeof err)) {
        fprintf(stderr, "nocsim stack: %s\n", err);
        return EXIT_USAGE;
    }
    traffic *t = model_opts_traffic(cmd, &mo);
    if (!t) return EXIT_USAGE;
    size_t width = (size_t)(hi - lo + 1);
    int64_t *duration = calloc((size_t)w.nschemes * width, sizeof *duration);
    sim_metrics *all = calloc(width, sizeof *all);
    sim_config *c = sim_config_new(t->nodes, mo.params.vcs, 0, 0);
    ga_pool *pool = ga_pool_new(&mo.params, t->dest, (int)threads, err, sizeof err);
    int rc = (duration && all && c && pool) ? EXIT_OK : EXIT_FAIL;
    for (int k = 0; rc == EXIT_OK && k < w.nschemes; k++) {
        uint32_t bv;
        sim_metrics bm;
        int64_t sims = 0;
        memset(c->scheme, w.schemes[k], (size_t)c->nodes * NPORTS);
        if (ga_interval_search(pool, c, (uint32_t)lo, (uint32_t)hi, &bv, &bm, all, &sims)) {
            rc = EXIT_FAIL;
            break;
        }
        for (size_t j = 0; j < width; j++)
            duration[(size_t)k * width + j] = all[j].status == SIM_OK ? all[j].duration : -1;
    }
    free(all);
    sim_config_free(c);
    ga_pool_free(pool);
    if (rc != EXIT_OK) {
        fprintf(stderr, "nocsim stack: could not set up the simulator (%s)\n", pool ? "out of memory" : err);
        free(duration);
        traffic_free(t);
        return EXIT_FAIL;
    }

    int64_t best_d[VCSEL_NSCHEMES];
    long best_v[VCSEL_NSCHEMES];
    int overall = 0;
    for (int k = 0; k < w.nschemes; k++) {
        best_d[k] = -1;
        best_v[k] = 0;
        for (size_t j = 0; j < width; j++) {
            int64_t d = duration[(size_t)k * width + j];
            if (d >= 0 && (best_d[k] < 0 || d < best_d[k])) { best_d[k] = d; best_v[k] = lo + (long)j; }
        }
        if (best_d[k] >= 0 && (best_d[overall] < 0 || best_d[k] < best_d[overall])) overall = k;
    }
    if (fmt == FMT_CSV) {
        printf("traffic,size,slices,scheme,interval,duration\n");
        for (int k = 0; k < w.nschemes; k++)
            for (size_t j = 0; j < width; j++)
                printf("%s,%d,%d,%s,%ld,%lld\n", mo.traffic, mo.params.n, mo.params.slices,
                       vcsel_name(w.schemes[k]), lo + (long)j, (long long)duration[(size_t)k * width + j]);
    } else if (fmt == FMT_JSON) {
        printf("{");
        model_opts_json(stdout, &mo);
        printf(", \"interval_min\": %ld, \"interval_max\": %ld,\n \"best\": [", lo, hi);
        for (int k = 0; k < w.nschemes; k++)
            printf("%s{\"scheme\": \"%s\", \"interval\": %ld, \"duration\": %lld}", k ? ", " : "",
                   vcsel_name(w.schemes[k]), best_v[k], (long long)best_d[k]);
        printf("],\n \"sweep\": {");
        for (int k = 0; k < w.nschemes; k++) {
            printf("%s\"%s\": [", k ? ", " : "", vcsel_name(w.schemes[k]));
            for (size_t j = 0; j < width; j++)
                printf("%s%lld", j ? "," : "", (long long)duration[(size_t)k * width + j]);
            printf("]");
        }
        printf("}}\n");
    } else {
        printf("simple stacking: %s on a %dx%d torus, %d slices of %d flits, interval %ld..%ld\n",
               mo.traffic, mo.params.n, mo.params.n, mo.params.slices, mo.params.flits, lo, hi);
        printf("scheme  best-interval  duration\n");
        for (int k = 0; k < w.nschemes; k++)
            printf("%-6s  %13ld  %8lld%s\n", vcsel_name(w.schemes[k]), best_v[k], (long long)best_d[k],
                   k == overall ? "  <- best" : "");
    }
    free(duration);
    traffic_free(t);
    return EXIT_OK;
}
