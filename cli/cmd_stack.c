/* `nocsim stack`: simple stacking (paper Sect. 4.1).  Every port uses one
 * VC-selection scheme, every node injects at once (I = 0), and the inter-slice
 * interval is swept; for each scheme the shortest duration and the interval
 * that gives it are reported.  Schemes run in parallel, one sim per thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "router/arbiter.h"
#include "sim/sim.h"

typedef struct {
    const model_opts *mo;
    const traffic *t;
    long lo, hi;
    int schemes[VCSEL_NSCHEMES];
    int nschemes;
    int64_t *duration;   /* [scheme slot][interval - lo] */
    int next;            /* next scheme slot to take */
    int failed;
    pthread_mutex_t lock;
} sweep;

static void *sweep_worker(void *arg)
{
    sweep *w = arg;
    char err[256];
    sim *s = sim_new(&w->mo->params, w->t->dest, err, sizeof err);
    sim_config *c = sim_config_new(w->t->nodes, w->mo->params.vcs, 0, 0);
    for (;;) {
        pthread_mutex_lock(&w->lock);
        int slot = (s && c) ? w->next++ : w->nschemes;
        if (!s || !c) w->failed = 1;
        pthread_mutex_unlock(&w->lock);
        if (slot >= w->nschemes) break;
        memset(c->scheme, w->schemes[slot], (size_t)c->nodes * NPORTS);
        for (long v = w->lo; v <= w->hi; v++) {
            sim_metrics m;
            c->interval = (uint32_t)v;
            int64_t d = sim_run(s, c, &m) == SIM_OK ? m.duration : -1;
            w->duration[(size_t)slot * (size_t)(w->hi - w->lo + 1) + (size_t)(v - w->lo)] = d;
        }
    }
    sim_free(s);
    sim_config_free(c);
    return NULL;
}

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

static int parse_schemes(const char *v, sweep *w)
{
    if (!strcmp(v, "all")) {
        for (int k = 0; k < VCSEL_NSCHEMES; k++) w->schemes[k] = k;
        w->nschemes = VCSEL_NSCHEMES;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    w->nschemes = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = vcsel_parse(tok);
        if (k < 0 || w->nschemes == VCSEL_NSCHEMES) {
            fprintf(stderr, "nocsim stack: --arb: '%s' is not a scheme (allowed: all, or C00-C09 separated by commas)\n", tok);
            return -1;
        }
        w->schemes[w->nschemes++] = k;
    }
    return 0;
}

int cmd_stack(int argc, char **argv)
{
    const char *cmd = "stack";
    model_opts mo;
    model_opts_default(&mo);
    mo.params.slices = 2;
    sweep w;
    memset(&w, 0, sizeof w);
    parse_schemes("all", &w);
    w.lo = 8;
    w.hi = 200;
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
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_range(cmd, a, v, 1, 100000, &w.lo, &w.hi)) return EXIT_USAGE;
            lo_given = 1;
        } else if (!strcmp(a, "--threads")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_int(cmd, a, v, 1, 256, &threads)) return EXIT_USAGE;
        } else if (!strcmp(a, "--format")) {
            if (!(v = arg_value(cmd, argc, argv, &i)) || !arg_format(cmd, v, &fmt)) return EXIT_USAGE;
        } else { arg_unknown(cmd, a); return EXIT_USAGE; }
    }
    if (w.lo < mo.params.flits) {
        if (lo_given) {
            fprintf(stderr, "nocsim stack: --interval: %ld is below the packet length %d (allowed: >= %d)\n",
                    w.lo, mo.params.flits, mo.params.flits);
            return EXIT_USAGE;
        }
        w.lo = mo.params.flits;
        if (w.hi < w.lo) w.hi = w.lo;
    }
    char err[256];
    if (sim_params_check(&mo.params, err, sizeof err)) {
        fprintf(stderr, "nocsim stack: %s\n", err);
        return EXIT_USAGE;
    }
    traffic *t = model_opts_traffic(cmd, &mo);
    if (!t) return EXIT_USAGE;
    w.mo = &mo;
    w.t = t;
    size_t width = (size_t)(w.hi - w.lo + 1);
    w.duration = calloc((size_t)w.nschemes * width, sizeof *w.duration);
    pthread_t tid[256];
    int started = 0;
    if (!w.duration || pthread_mutex_init(&w.lock, NULL)) {
        fprintf(stderr, "nocsim stack: out of memory\n");
        free(w.duration);
        traffic_free(t);
        return EXIT_FAIL;
    }
    if (threads > w.nschemes) threads = w.nschemes;
    for (long k = 0; k < threads; k++)
        if (pthread_create(&tid[k], NULL, sweep_worker, &w) == 0) started++;
    if (started == 0) sweep_worker(&w);
    for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
    pthread_mutex_destroy(&w.lock);
    if (w.failed) {
        fprintf(stderr, "nocsim stack: could not set up the simulator (out of memory)\n");
        free(w.duration);
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
            int64_t d = w.duration[(size_t)k * width + j];
            if (d >= 0 && (best_d[k] < 0 || d < best_d[k])) { best_d[k] = d; best_v[k] = w.lo + (long)j; }
        }
        if (best_d[k] >= 0 && (best_d[overall] < 0 || best_d[k] < best_d[overall])) overall = k;
    }
    if (fmt == FMT_CSV) {
        printf("traffic,size,slices,scheme,interval,duration\n");
        for (int k = 0; k < w.nschemes; k++)
            for (size_t j = 0; j < width; j++)
                printf("%s,%d,%d,%s,%ld,%lld\n", mo.traffic, mo.params.n, mo.params.slices,
                       vcsel_name(w.schemes[k]), w.lo + (long)j, (long long)w.duration[(size_t)k * width + j]);
    } else if (fmt == FMT_JSON) {
        printf("{");
        model_opts_json(stdout, &mo);
        printf(", \"interval_min\": %ld, \"interval_max\": %ld,\n \"best\": [", w.lo, w.hi);
        for (int k = 0; k < w.nschemes; k++)
            printf("%s{\"scheme\": \"%s\", \"interval\": %ld, \"duration\": %lld}", k ? ", " : "",
                   vcsel_name(w.schemes[k]), best_v[k], (long long)best_d[k]);
        printf("],\n \"sweep\": {");
        for (int k = 0; k < w.nschemes; k++) {
            printf("%s\"%s\": [", k ? ", " : "", vcsel_name(w.schemes[k]));
            for (size_t j = 0; j < width; j++)
                printf("%s%lld", j ? "," : "", (long long)w.duration[(size_t)k * width + j]);
            printf("]");
        }
        printf("}}\n");
    } else {
        printf("simple stacking: %s on a %dx%d torus, %d slices of %d flits, interval %ld..%ld\n",
               mo.traffic, mo.params.n, mo.params.n, mo.params.slices, mo.params.flits, w.lo, w.hi);
        printf("scheme  best-interval  duration\n");
        for (int k = 0; k < w.nschemes; k++)
            printf("%-6s  %13ld  %8lld%s\n", vcsel_name(w.schemes[k]), best_v[k], (long long)best_d[k],
                   k == overall ? "  <- best" : "");
    }
    free(w.duration);
    traffic_free(t);
    return EXIT_OK;
}
