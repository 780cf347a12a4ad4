/* `nocsim ga`: run the Cup-Stacking GA, record it in the database, print a
 * progress line and a summary with the baselines it has to beat. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/chromfile.h"
#include "cli/cli.h"
#include "cli/model_opts.h"
#include "ga/ga.h"
#include "ga/methods.h"
#include "store/store.h"

/* Set by SIGINT/SIGTERM: finish the generation, leave the run resumable.
 * A signal handler can only talk through a global. */
static volatile sig_atomic_t stop_requested;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

/* --evals beyond this is a typo, not a budget: a billion evaluations of even
 * a 4x4 torus are hours of work, of the default 16x16 weeks. */
#define GA_MAX_EVALS 1000000000L

static void help(void)
{
    printf("usage: nocsim ga [options]\n\n"
           "Evolve inter-slice interval V, injection timings I, VC-selection schemes C\n"
           "and queue-selection orders Q that shorten a sliced collective communication,\n"
           "and record the best chromosomes and their synonyms in the database.\n\n"
           "search:\n"
           "  --algo local|paper       local (default): seeded with simple stacking, few\n"
           "                           small mutations, accepts equal children;\n"
           "                           paper: the paper's GA as written (random start,\n"
           "                           mutation ratio, strict replacement)\n"
           "  --pop N                  chromosomes (default: local 8, paper 50)\n"
           "  --generations G          (default: local 6250, paper 1000: 50,000 simulations either way)\n"
           "  --evals N                stop after N simulations in all (default: no limit)\n"
           "  --train G                mutation-only generations at the start (default 100)\n"
           "  --mutation R             paper: ratio of genes redrawn, e.g. 0.1|0.05|0.02 (default 0.05)\n"
           "  --max-genes K            local: genes changed per child, 1..K (default 8)\n"
           "  --weights genes|groups|mix  local: pick genes uniformly (default), or a group\n"
           "                           (V, I, C, Q) first, uniformly or by the fixed mix 5/30/20/45 %%\n"
           "  --shift P                local: probability that a child also shifts the injection\n"
           "                           timings of a whole row or column by +-1..3 (default 0.3)\n"
           "  --crossover-interval G   generations between crossovers, 0 = none (default 10)\n"
           "  --crossover-rate R       probability a gene is copied, 0.1-0.9 (default 0.4)\n"
           "  --crossover-pairs P      pairs per crossover (default pop/2)\n"
           "  --ties random|age        order of equal scores when sorting (default random)\n"
           "  --watchdog G             restart after G generations without a new best (0 = off)\n"
           "  --lifetime G             maximum age of a chromosome (0 = off; excludes --watchdog)\n"
           "  --genes V,I,C,Q          genes that evolve (default all); e.g. V,C,Q = without\n"
           "                           timing adjustment; V,I with --arb C00 = original Cup-Stacking\n"
           "  --arb Cxx                scheme of every port when C does not evolve (default C00)\n"
           "  --interval V             V when V does not evolve (default: best simple stacking)\n"
           "  --stack-vmax V           simple-stacking sweep range l_c..V (default 200)\n"
           "  --sort-key K             secondary key for equal durations, one of: none, or, ob,\n"
           "                           te, te-rev, tb, lb, late (packets finishing in the last l_c\n"
           "                           cycles), late-lb, tail, late3 (packets finishing in the last\n"
           "                           3 cycles) (default: local late-lb, paper none)\n"
           "  --sort duration|te       first key (te: effective thickness alone, paper T09)\n"
           "  --fitness estimate       rough estimation (paper 6.2): single-slice runs scored\n"
           "                           T_e (S'-1) + t_d, then the best is replayed at S' slices\n"
           "  --estimate-slices S'     (default 2)\n"
           "  --perturb K              try V-K..V+K at every evaluation and keep the best (paper 7.1)\n"
           "  --threads K              evaluation threads (default: all cores); results do not\n"
           "                           depend on it\n"
           "  --seed X                 (default 1)\n"
           "recording:\n"
           "  --db PATH                database (default nocsim.db); --no-db records nothing\n"
           "  --resume RUN             continue an unfinished run of the database\n"
           "  --save-best FILE         write the best chromosome as a --config file\n"
           "output:\n"
           "  --quiet                  no progress line; --progress-every G for a line per G generations\n"
           "  --format text|json       summary format (default text)\n\n");
    model_opts_help(stdout);
    printf("\nexamples:\n  nocsim ga --traffic brev --slices 2 --generations 200\n"
           "  nocsim ga --traffic brev --slices 2 --algo paper --watchdog 200   # the paper's setting\n");
}

static int parse_genes(const char *v, unsigned *out)
{
    static const char *const genes[] = { "V", "I", "C", "Q" };
    int picked[4], n;
    if (!arg_name_list("ga", "--genes", v, genes, 4, picked, &n)) return -1;
    *out = 0;
    for (int j = 0; j < n; j++) *out |= 1u << picked[j];
    return 0;
}

static char *params_json(const model_opts *mo, const ga_params *gp)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputc('{', f);
    model_opts_json(f, mo);
    fputs(", ", f);
    ga_params_json(gp, f);
    fputc('}', f);
    if (fclose(f) != 0) { free(buf); return NULL; }
    return buf;
}

static void progress_line(const ga_progress *p, const ga_params *gp, int tty, double last_rate)
{
    double frac = gp->generations ? (double)p->generation / gp->generations : 1.0;
    if (gp->max_evals > 0 && (double)p->evals / (double)gp->max_evals > frac) frac = (double)p->evals / (double)gp->max_evals;
    double eta = frac > 0 ? p->elapsed * (1 - frac) / frac : 0;
    fprintf(stderr, "%sgen %lld/%d  best %lld  avg %.1f  evals %lld  %.0f evals/s  ETA %.0fs%s",
            tty ? "\r" : "", (long long)p->generation, gp->generations, (long long)p->best_duration,
            p->average, (long long)p->evals, last_rate, eta, tty ? "   " : "\n");
    fflush(stderr);
}

int cmd_ga(int argc, char **argv)
{
    const char *cmd = "ga";
    model_opts mo;
    model_opts_default(&mo);
    mo.params.slices = 2;
    ga_params gp;
    ga_params_default(&gp);
    /* Population, generations and sort key default per algorithm: look for
     * --algo first so the flags after it override those defaults. */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--algo") && !strcmp(argv[i + 1], "paper")) ga_params_for_algo(&gp, GA_ALGO_PAPER);
    if (gp.algo != GA_ALGO_PAPER) ga_params_for_algo(&gp, GA_ALGO_LOCAL);
    gp.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (gp.threads < 1) gp.threads = 1;
    const char *dbpath = STORE_DEFAULT_PATH, *save_best = NULL;
    int no_db = 0, quiet = 0, threads_given = 0, vmax_given = 0;
    long resume = 0, every = 0, x;
    double d;
    int k;
    out_format fmt = FMT_TEXT;
    for (int i = 1; i < argc; i++) {
        int r = model_opts_parse(cmd, argc, argv, &i, &mo);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        const char *a = argv[i], *v = NULL;
#define VAL() do { if (!(v = arg_value(cmd, argc, argv, &i))) return EXIT_USAGE; } while (0)
#define INTO(field, lo, hi) do { VAL(); if (!arg_int(cmd, a, v, lo, hi, &x)) return EXIT_USAGE; field = (int)x; } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { help(); return EXIT_OK; }
        else if (!strcmp(a, "--algo")) { VAL(); if (!arg_choice(cmd, a, v, ga_algo_names, GA_ALGO_COUNT, &k)) return EXIT_USAGE; gp.algo = (ga_algo)k; }
        else if (!strcmp(a, "--pop")) INTO(gp.pop, 2, 100000);
        else if (!strcmp(a, "--generations")) INTO(gp.generations, 0, 100000000);
        else if (!strcmp(a, "--evals")) { VAL(); if (!arg_int(cmd, a, v, 1, GA_MAX_EVALS, &x)) return EXIT_USAGE; gp.max_evals = x; }
        else if (!strcmp(a, "--train")) INTO(gp.train, 0, 100000000);
        else if (!strcmp(a, "--mutation")) { VAL(); if (!arg_double(cmd, a, v, 1e-6, 1, &d)) return EXIT_USAGE; gp.mutation = d; }
        else if (!strcmp(a, "--max-genes")) INTO(gp.max_genes, 1, 1000);
        else if (!strcmp(a, "--weights")) { VAL(); if (!arg_choice(cmd, a, v, ga_weight_names, GA_WEIGHT_COUNT, &k)) return EXIT_USAGE; gp.weights = (ga_weighting)k; }
        else if (!strcmp(a, "--shift")) { VAL(); if (!arg_double(cmd, a, v, 0, 1, &d)) return EXIT_USAGE; gp.shift = d; }
        else if (!strcmp(a, "--crossover-interval")) INTO(gp.crossover_interval, 0, 100000000);
        else if (!strcmp(a, "--crossover-rate")) { VAL(); if (!arg_double(cmd, a, v, 0, 1, &d)) return EXIT_USAGE; gp.crossover_rate = d; }
        else if (!strcmp(a, "--crossover-pairs")) INTO(gp.crossover_pairs, 0, 100000000);
        else if (!strcmp(a, "--ties")) { VAL(); if (!arg_choice(cmd, a, v, ga_ties_names, GA_TIES_COUNT, &k)) return EXIT_USAGE; gp.ties = (ga_ties)k; }
        else if (!strcmp(a, "--watchdog")) INTO(gp.watchdog, 0, 100000000);
        else if (!strcmp(a, "--lifetime")) INTO(gp.lifetime, 0, 100000000);
        else if (!strcmp(a, "--genes")) { VAL(); if (parse_genes(v, &gp.genes)) return EXIT_USAGE; }
        else if (!strcmp(a, "--arb")) {
            VAL();
            if ((gp.arb = vcsel_parse(v)) < 0) { fprintf(stderr, "nocsim ga: --arb: '%s' is not a scheme (allowed: C00-C09)\n", v); return EXIT_USAGE; }
        }
        else if (!strcmp(a, "--interval")) { VAL(); if (!arg_int(cmd, a, v, 1, 1000000, &x)) return EXIT_USAGE; gp.interval = (uint32_t)x; }
        else if (!strcmp(a, "--stack-vmax")) { INTO(gp.stack_vmax, 1, 100000); vmax_given = 1; }
        else if (!strcmp(a, "--sort-key")) { VAL(); if (!arg_choice(cmd, a, v, ga_key_names, GA_KEY_COUNT, &k)) return EXIT_USAGE; gp.sort_key = (ga_sort_key)k; }
        else if (!strcmp(a, "--threads")) { INTO(gp.threads, 1, 256); threads_given = 1; }
        else if (!strcmp(a, "--fitness")) { VAL(); if (!arg_choice(cmd, a, v, ga_fitness_names, GA_FIT_COUNT, &k)) return EXIT_USAGE; gp.fitness = (ga_fitness)k; }
        else if (!strcmp(a, "--sort")) {
            static const char *const sorts[] = { "duration", "te" };
            VAL();
            if (!arg_choice(cmd, a, v, sorts, 2, &k)) return EXIT_USAGE;
            gp.fitness = k ? GA_FIT_TE : GA_FIT_DURATION;
        }
        else if (!strcmp(a, "--estimate-slices")) INTO(gp.estimate_slices, 1, SIM_MAX_SLICES);
        else if (!strcmp(a, "--perturb")) INTO(gp.perturb, 0, 1000);
        else if (!strcmp(a, "--db")) { VAL(); dbpath = v; }
        else if (!strcmp(a, "--no-db")) no_db = 1;
        else if (!strcmp(a, "--resume")) { VAL(); if (!arg_int(cmd, a, v, 1, INT64_MAX / 2, &resume)) return EXIT_USAGE; }
        else if (!strcmp(a, "--save-best")) { VAL(); save_best = v; }
        else if (!strcmp(a, "--quiet")) quiet = 1;
        else if (!strcmp(a, "--progress-every")) { VAL(); if (!arg_int(cmd, a, v, 1, 100000000, &every)) return EXIT_USAGE; }
        else if (!strcmp(a, "--format")) {
            VAL();
            if (!arg_format(cmd, v, &fmt)) return EXIT_USAGE;
            if (fmt == FMT_CSV) { fprintf(stderr, "nocsim ga: --format: the summary is text or json\n"); return EXIT_USAGE; }
        }
        else { arg_unknown(cmd, a); return EXIT_USAGE; }
#undef VAL
#undef INTO
    }
    gp.seed = mo.seed;
    /* Rough estimation scores single-slice runs. */
    if (gp.fitness == GA_FIT_ESTIMATE) mo.params.slices = 1;
    char err[512];
    if (!resume) {
        if (ga_params_check(&gp, err, sizeof err) || sim_params_check(&mo.params, err, sizeof err)) {
            fprintf(stderr, "nocsim ga: %s\n", err);
            return EXIT_USAGE;
        }
        if (vmax_given && gp.stack_vmax < mo.params.flits) {
            fprintf(stderr, "nocsim ga: --stack-vmax: %d is below the packet length %d (allowed: [%d, 100000])\n",
                    gp.stack_vmax, mo.params.flits, mo.params.flits);
            return EXIT_USAGE;
        }
        if (gp.interval && gp.interval < (uint32_t)mo.params.flits) {
            fprintf(stderr, "nocsim ga: --interval: %u is below the packet length %d (allowed: >= %d)\n",
                    gp.interval, mo.params.flits, mo.params.flits);
            return EXIT_USAGE;
        }
    }
    if (resume && no_db) { fprintf(stderr, "nocsim ga: --resume needs the database (drop --no-db)\n"); return EXIT_USAGE; }

    traffic *t = NULL;
    if (!resume && !(t = model_opts_traffic(cmd, &mo))) return EXIT_USAGE;
    store *db = NULL;
    if (!no_db && !(db = store_open(dbpath, resume ? 0 : STORE_CREATE, err, sizeof err))) {
        fprintf(stderr, "nocsim ga: --db: %s\n", err);
        traffic_free(t);
        return EXIT_FAIL;
    }
    ga *g = NULL;
    int rc = EXIT_OK;
    if (resume) {
        store_run r;
        int st = store_run_get(db, resume, &r, err, sizeof err);
        if (st != STORE_OK) {
            if (st == STORE_NOTFOUND) fprintf(stderr, "nocsim ga: --resume: run %ld is not in %s\n", resume, dbpath);
            else fprintf(stderr, "nocsim ga: --resume: %s\n", err);
            store_close(db);
            return st == STORE_NOTFOUND ? EXIT_USAGE : EXIT_FAIL;
        }
        int finished = r.status && strcmp(r.status, "finished") == 0;
        int is_ga = r.kind && strcmp(r.kind, "ga") == 0;
        store_run_clear(&r);
        if (!is_ga || finished) {
            fprintf(stderr, "nocsim ga: --resume: run %ld is %s\n", resume, !is_ga ? "not a GA run" : "finished already");
            store_close(db);
            return EXIT_USAGE;
        }
        g = ga_resume(db, resume, threads_given ? gp.threads : -1, err, sizeof err);
    } else {
        char *pj = params_json(&mo, &gp);
        g = pj ? ga_new(&gp, &mo.params, t->dest, mo.traffic, db, NOCSIM_VERSION, pj, err, sizeof err) : NULL;
        if (!pj) snprintf(err, sizeof err, "out of memory");
        free(pj);
    }
    if (!g) {
        fprintf(stderr, "nocsim ga: %s\n", err);
        store_close(db);
        traffic_free(t);
        return EXIT_FAIL;
    }
    const ga_params *rgp = ga_get_params(g);
    const sim_params *rsp = ga_get_sim_params(g);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    int tty = isatty(STDERR_FILENO) && !quiet;
    if (!every) every = quiet ? 0 : 100;
    if (!resume && ga_start(g, err, sizeof err)) {
        fprintf(stderr, "nocsim ga: %s\n", err);
        rc = EXIT_FAIL;
        goto out;
    }
    ga_progress p, prev;
    ga_get_progress(g, &prev);
    double rate = 0;
    int more = 1;
    while (more > 0 && !stop_requested) {
        more = ga_step(g, err, sizeof err);
        ga_get_progress(g, &p);
        if (p.elapsed > prev.elapsed + 0.5 || more <= 0) {
            rate = (double)(p.evals - prev.evals) / (p.elapsed - prev.elapsed + 1e-9);
            prev = p;
            if (tty) progress_line(&p, rgp, 1, rate);
        }
        if (!tty && every && p.generation % every == 0) progress_line(&p, rgp, 0, rate);
    }
    if (tty) fputc('\n', stderr);
    if (more < 0) { fprintf(stderr, "nocsim ga: database: %s\n", err); rc = EXIT_FAIL; goto out; }
    if (stop_requested && ga_flush(g, err, sizeof err)) {
        fprintf(stderr, "nocsim ga: database: %s\n", err);
        rc = EXIT_FAIL;
        goto out;
    }
    if (stop_requested) {
        fprintf(stderr, "nocsim ga: interrupted at generation %lld; continue with: nocsim ga --db %s --resume %lld\n",
                (long long)p.generation, dbpath, (long long)ga_run_id(g));
        rc = 130;
        goto out;
    }
    if (ga_finish(g, err, sizeof err)) { fprintf(stderr, "nocsim ga: database: %s\n", err); rc = EXIT_FAIL; goto out; }

    sim_metrics bm;
    uint32_t crc;
    const sim_config *best = ga_best(g, &bm, &crc);
    method_result est;
    memset(&est, 0, sizeof est);
    int have_est = 0;
    if (rgp->fitness == GA_FIT_ESTIMATE && db) {
        method_options opt = { .slices = rgp->estimate_slices, .set = MINE_BEST, .threads = rgp->threads };
        if (method_mine(db, ga_run_id(g), &opt, "estimate-stack", 1, NOCSIM_VERSION, &est, err, sizeof err)) {
            fprintf(stderr, "nocsim ga: replaying the estimate at %d slices: %s\n", rgp->estimate_slices, err);
            rc = EXIT_FAIL;
        } else {
            have_est = 1;
        }
    }
    int bscheme;
    uint32_t bint;
    int64_t stack_d, nonsplit_d;
    ga_baselines(g, &bscheme, &bint, &stack_d, &nonsplit_d);
    double ratio = stack_d > 0 ? (double)bm.duration / (double)stack_d : 0;
    if (save_best) {
        chromfile_meta meta = { .traffic = resume ? NULL : mo.traffic, .slices = rsp->slices, .flits = rsp->flits,
                                .run = ga_run_id(g), .chromosome = 0, .duration = bm.duration, .crc = crc };
        if (chromfile_write(save_best, best, rsp->n, &meta)) {
            fprintf(stderr, "nocsim ga: --save-best %s: cannot write the file\n", save_best);
            rc = EXIT_FAIL;
        }
    }
    if (fmt == FMT_JSON) {
        printf("{\"run\": %lld, \"traffic\": ", (long long)ga_run_id(g));
        json_string(stdout, resume ? "" : mo.traffic);
        printf(", \"size\": %d, \"slices\": %d, \"algo\": \"%s\", \"best_duration\": %lld, \"signature\": \"%08x\", "
               "\"synonyms\": %lld, \"interval\": %u, \"te\": %lld, \"lb\": %lld, \"stacking\": %lld, "
               "\"stacking_scheme\": \"%s\", \"stacking_interval\": %u, \"nonsplit\": %lld, \"ratio\": %.4f, "
               "\"floor\": %lld, \"generations\": %lld, \"evaluations\": %lld, \"seconds\": %.2f}\n",
               rsp->n, rsp->slices, ga_algo_names[rgp->algo], (long long)bm.duration, crc, (long long)ga_synonyms(g),
               best->interval, (long long)bm.te, (long long)bm.lb, (long long)stack_d, vcsel_name(bscheme), bint,
               (long long)nonsplit_d, ratio, (long long)ga_get_floor(g), (long long)p.generation, (long long)p.evals, p.elapsed);
    } else {
        printf("best duration      %lld cycles (signature %08x, interval %u)\n", (long long)bm.duration, crc, best->interval);
        printf("synonyms           %lld (recorded chromosomes with the best score, the best included)\n",
               (long long)ga_synonyms(g));
        printf("simple stacking    %lld cycles (%s, interval %u)\n", (long long)stack_d, vcsel_name(bscheme), bint);
        printf("non-split          %lld cycles (one packet of %d flits)\n", (long long)nonsplit_d, rsp->slices * rsp->flits);
        printf("improvement        %.3f of simple stacking\n", ratio);
        printf("floor              %lld cycles (no schedule can be shorter: busiest link or source)\n", (long long)ga_get_floor(g));
        printf("search             %s, %lld generations, %lld simulations, %.1f s\n", ga_algo_names[rgp->algo],
               (long long)p.generation, (long long)p.evals, p.elapsed);
        if (db) printf("run                %lld in %s (nocsim db show %lld)\n", (long long)ga_run_id(g), dbpath,
                       (long long)ga_run_id(g));
        if (have_est)
            printf("estimate replayed  %lld cycles at %d slices, interval %u (recorded as run %lld)\n",
                   (long long)est.best.duration, rgp->estimate_slices, est.best_interval, (long long)est.run);
    }
    method_result_clear(&est);
out:
    ga_free(g);
    store_close(db);
    traffic_free(t);
    return rc;
}
