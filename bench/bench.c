/* The benchmark driver behind `make bench` (scripts/bench.sh builds it
 * against build/libnocsim.a).  Prints one `name value unit` line per figure
 * so that runs can be compared over time.
 *
 *   bench [--reference | --full] [--only eval|sizes|mem] [--count K] [--seconds X]
 *
 * eval:  evaluations of the paper's case (16x16 brev, two 8-flit slices, a
 *        typical evolved configuration: random schemes and queue orders,
 *        small injection timings) on 1 thread and on all threads, as the GA
 *        makes them (sim_run_lean: the metrics its score reads), and on 1
 *        thread with every metric (sim_run, the eval_*_full line).
 * sizes: router-cycles per second on N x N tori, N = 16 .. 256, under a
 *        saturating pattern (tornado, four slices back to back), every
 *        metric counted (sim_run, as `nocsim sim`).
 * mem:   bytes per router and peak resident memory.
 * --reference runs sim_run_reference instead (the before figure); --full
 * sim_run. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/closedloop.h"
#include "sim/decisions.h"
#include "sim/olnet.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "util/rng.h"

/* The paper: 563.2 s for 50 chromosomes x 1000 generations. */
#define PAPER_MS_PER_EVAL (563.2 * 1000.0 / 50000.0)

typedef struct {
    int reference;
    int full;        /* sim_run (every metric) instead of sim_run_lean */
    double seconds;  /* time per measurement */
    int count;       /* fixed evaluation count (callgrind), 0 = by time */
} options;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench: %s\n", what);
    exit(1);
}

/* A typical configuration of the GA's population: every scheme and queue
 * order drawn at random, injection timings in [0, imax], interval V. */
static sim_config *typical_config(int nodes, uint32_t V, int imax, uint64_t seed)
{
    sim_config *c = sim_config_new(nodes, 3, 0, V);
    if (!c) die("out of memory");
    uint64_t r = seed;
    for (int k = 0; k < nodes * NPORTS; k++) c->scheme[k] = (uint8_t)(rng_splitmix64(&r) % VCSEL_NSCHEMES);
    for (size_t k = 0; k < (size_t)nodes * NPORTS * 3; k++) {
        uint8_t *q = c->qorder + k * NPORTS;
        for (int j = NPORTS - 1; j > 0; j--) {
            int x = (int)(rng_splitmix64(&r) % (uint64_t)(j + 1));
            uint8_t t = q[j]; q[j] = q[x]; q[x] = t;
        }
    }
    for (int i = 0; i < nodes; i++) c->inject[i] = (uint16_t)(rng_splitmix64(&r) % (uint64_t)(imax + 1));
    return c;
}

static sim *make_sim(const char *spec, int n, int slices, traffic **tp)
{
    char err[256];
    traffic *t = traffic_new(spec, n, 1, err, sizeof err);
    if (!t) die(err);
    sim_params p;
    sim_params_default(&p);
    p.n = n;
    p.slices = slices;
    sim *s = sim_new(&p, t->dest, NULL, err, sizeof err);
    if (!s) die(err);
    *tp = t;
    return s;
}

static sim_status run1(const options *o, sim *s, const sim_config *c, sim_metrics *m)
{
    if (o->reference) return sim_run_reference(s, c, m);
    return o->full ? sim_run(s, c, m) : sim_run_lean(s, c, INT64_MAX, NULL, m);
}

/* ---- evaluations per second ---- */

#define NCONFIGS 16

typedef struct {
    const options *o;
    sim *s;
    sim_config **cfg;
    double seconds;
    long evals;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    sim_metrics m;
    double t0 = now();
    long k = 0;
    do {
        for (int j = 0; j < NCONFIGS; j++, k++)
            if (run1(w->o, w->s, w->cfg[j], &m) != SIM_OK) die("evaluation did not finish");
    } while (w->o->count ? k < w->o->count : now() - t0 < w->seconds);
    w->seconds = now() - t0;
    w->evals = k;
    return NULL;
}

/* Evaluations per second on `threads` threads, each with its own sim: the
 * median of five measurements (the machine is noisy). */
static double evals_per_second(const options *o, int threads, sim_config **cfg)
{
    double rates[5];
    int reps = o->count ? 1 : 5;
    worker *w = calloc((size_t)threads, sizeof *w);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    traffic **t = calloc((size_t)threads, sizeof *t);
    if (!w || !tid || !t) die("out of memory");
    for (int k = 0; k < threads; k++) w[k].s = make_sim("brev", 16, 2, &t[k]);
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < threads; k++) {
            w[k].o = o;
            w[k].cfg = cfg;
            w[k].seconds = o->seconds / reps;
            if (k && pthread_create(&tid[k], NULL, work, &w[k])) die("cannot start a thread");
        }
        work(&w[0]);
        double total = w[0].evals / w[0].seconds;
        for (int k = 1; k < threads; k++) {
            pthread_join(tid[k], NULL);
            total += w[k].evals / w[k].seconds;
        }
        rates[r] = total;
    }
    for (int a = 0; a < reps; a++) /* sort for the median */
        for (int b = a + 1; b < reps; b++)
            if (rates[b] < rates[a]) { double x = rates[a]; rates[a] = rates[b]; rates[b] = x; }
    for (int k = 0; k < threads; k++) { sim_free(w[k].s); traffic_free(t[k]); }
    free(w); free(tid); free(t);
    return rates[reps / 2];
}

static void bench_eval(const options *o)
{
    sim_config *cfg[NCONFIGS];
    for (int j = 0; j < NCONFIGS; j++) cfg[j] = typical_config(256, 16, 8, 1000 + (uint64_t)j);
    int threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1) threads = 1;
    double one = evals_per_second(o, 1, cfg);
    printf("eval_16x16_brev_s2_per_s_1thread %.0f evals/s\n", one);
    printf("eval_16x16_brev_s2_ms %.4f ms\n", 1000.0 / one);
    printf("eval_paper_ratio %.1f x (paper %.2f ms per evaluation)\n", PAPER_MS_PER_EVAL * one / 1000.0,
           PAPER_MS_PER_EVAL);
    if (!o->reference && !o->full && !o->count) {
        options f = *o;
        f.full = 1;
        printf("eval_16x16_brev_s2_full_ms %.4f ms (every metric: sim_run)\n", 1000.0 / evals_per_second(&f, 1, cfg));
    }
    if (!o->count) {
        double all = evals_per_second(o, threads, cfg);
        printf("eval_16x16_brev_s2_per_s_%dthreads %.0f evals/s\n", threads, all);
        /* Simulation time alone of the paper's run, 50 x 1000 evaluations;
         * the GA's own measured line is added by scripts/bench.sh. */
        printf("ga_full_run_sim_only_extrapolated %.2f s (50000 evaluations at the %d-thread rate)\n",
               50000.0 / all, threads);
    }
    for (int j = 0; j < NCONFIGS; j++) sim_config_free(cfg[j]);
}

/* ---- router-cycles per second by size ---- */

static void bench_sizes(const options *o)
{
    const int sizes[] = { 16, 32, 64, 128, 256 };
    for (int k = 0; k < 5; k++) {
        int n = sizes[k];
        if (o->reference && n > 64) break; /* minutes per run */
        traffic *t;
        sim *s = make_sim("torn", n, 4, &t);
        sim_config *c = typical_config(n * n, 8, 0, 7); /* V = L: slices back to back */
        sim_metrics m;
        double t0 = now(), dt;
        long runs = 0;
        int64_t rc = 0;
        do {
            /* Every metric, as `nocsim sim` runs it. */
            if ((o->reference ? sim_run_reference(s, c, &m) : sim_run(s, c, &m)) != SIM_OK)
                die("size run did not finish");
            rc += m.cycles * (int64_t)n * n;
            runs++;
            dt = now() - t0;
        } while (dt < o->seconds / 2 && !o->count);
        printf("router_cycles_per_s_%dx%d %.3g router-cycles/s (torn, 4 slices, %lld cycles, %.3f ms/run)\n", n, n,
               rc / dt, (long long)m.cycles, 1000.0 * dt / runs);
        sim_config_free(c);
        sim_free(s);
        traffic_free(t);
    }
}

/* ---- memory ---- */

static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long v = -1;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0) v = strtol(line + len, NULL, 10);
    fclose(f);
    return v;
}

static void bench_mem(const options *o)
{
    int n = 256;
    sim_params p;
    sim_params_default(&p);
    p.n = n;
    p.slices = 4;
    int32_t *dest = malloc(sizeof *dest * (size_t)(n * n));
    if (!dest) die("out of memory");
    for (int i = 0; i < n * n; i++) dest[i] = i;
    closedloop *f = closedloop_new(&p, dest, 0);
    if (!f) die("out of memory");
    printf("mem_fast_engine_bytes_per_router %.0f bytes (allocated, any N)\n", (double)closedloop_bytes(f) / (n * n));
    closedloop_free(f);
    /* The open-loop network before its packets (which grow with the load). */
    olnet_params op = { .rp = { .w = n, .h = n, .topo = TOPO_TORUS }, .vc_rule = VCRULE_DATELINE,
                        .vcs = SIM_DEFAULT_VCS, .buffer = SIM_DEFAULT_BUFFER };
    char err[256];
    olnet *ol = olnet_new(&op, NULL, NULL, err, sizeof err);
    if (!ol) die(err);
    printf("mem_openloop_bytes_per_router %.0f bytes (allocated, before packets)\n", (double)olnet_bytes(ol) / (n * n));
    olnet_free(ol);
    free(dest);
    long before = status_kb("VmRSS:");
    traffic *t;
    sim *s = make_sim("torn", n, 4, &t);
    sim_config *c = typical_config(n * n, 8, 0, 7);
    sim_metrics m;
    run1(o, s, c, &m);
    long after = status_kb("VmRSS:");
    printf("mem_sim_resident_bytes_per_router %.0f bytes (256x256 sim after a run, both engines)\n",
           (after - before) * 1024.0 / (n * n));
    printf("mem_peak_rss_256x256 %.1f MiB (VmHWM of the bench process)\n", status_kb("VmHWM:") / 1024.0);
    sim_config_free(c);
    sim_free(s);
    traffic_free(t);
}

int main(int argc, char **argv)
{
    options o = { .seconds = 3.0 };
    setvbuf(stdout, NULL, _IOLBF, 0); /* one line at a time through tee */
    const char *only = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--reference")) o.reference = 1;
        else if (!strcmp(argv[k], "--full")) o.full = 1;
        else if (!strcmp(argv[k], "--only") && k + 1 < argc) only = argv[++k];
        else if (!strcmp(argv[k], "--count") && k + 1 < argc) o.count = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--seconds") && k + 1 < argc) o.seconds = atof(argv[++k]);
        else {
            fprintf(stderr, "usage: bench [--reference | --full] [--only eval|sizes|mem] [--count K] [--seconds X]\n");
            return 2;
        }
    }
    if (!only || !strcmp(only, "eval")) bench_eval(&o);
    if (!only || !strcmp(only, "sizes")) bench_sizes(&o);
    if (!only || !strcmp(only, "mem")) bench_mem(&o);
    return 0;
}
