/* `nocsim cc`: evolutionary scheduling of collective communications on any
 * topology (run, bounds, verify).  This file only parses flags and prints;
 * the work is in cc/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/algo.h"
#include "cc/bounds.h"
#include "cc/search.h"
#include "cli/args.h"
#include "store/store.h"
#include "cli/cli.h"

#define MAX_FAULTS 64

typedef struct {
    const char *topology, *root, *senders, *receivers;
    int kind;            /* -1 until --cc */
    int sw;
    int ports;           /* 0 = all */
    int nonminimal;
    int max_paths;
    const char *fail_link[MAX_FAULTS];
    int nfail_link;
    const char *fail_node[MAX_FAULTS];
    int nfail_node;
    /* run */
    int steps, max_steps, runs, pop;
    int neighbour_first;
    long budget;
    long seed;
    const char *algo;
    out_format fmt;
    const char *out;
    const char *db;
    const char *file;    /* verify */
} cc_opts;

static void usage(FILE *f)
{
    fprintf(f,
"usage: nocsim cc --topology T --cc CC [options]          schedule a CC\n"
"       nocsim cc bounds --topology T --cc CC [options]   print the lower bounds\n"
"       nocsim cc verify SCHEDULE.json --topology T --cc CC [options]\n"
"\n"
"Find a schedule of a collective communication (CC) in the fewest synchronised\n"
"steps, no two transfers of a step sharing a channel (simulated annealing; UMDA of paper 002).\n"
"\n"
"problem:\n"
"  --topology T       ring:P | mesh:RxC | torus:RxC | hypercube:D | octagon |\n"
"                     kautz:D,K (kautz:3,2 = Kautz12) | file:PATH (edge list, see cc/README.md)\n"
"  --cc CC            oab | oas | aab | aas | mnb | mns (gather/reduce: scatter/broadcast reversed)\n"
"  --root N           source node of oab/oas, by name (mesh nodes are \"RC\", e.g. 00, 12) [first node]\n"
"  --senders A,B,..   senders of mnb/mns [all]\n"
"  --receivers A,B,.. receivers of mnb/mns [all]\n"
"  --ports K|all      K-port model: at most K sends and K receives per node and step [all]\n"
"  --switching wh|sf  wormhole (whole path in one step) or store-and-forward (one hop per step) [wh]\n"
"  --nonminimal 0|1   also allow paths one hop longer than the shortest [0]\n"
"  --fail-link A-B    remove a link (a digraph: only the channel A->B); repeatable\n"
"  --fail-node N      remove a node and its links; repeatable\n"
"  --max-paths N      keep at most N routes per node pair [128]\n"
"\n"
"search:\n"
"  --steps S          target step count [auto: from the lower bound up, one at a time]\n"
"  --max-steps S      auto mode gives up above S [4 x bound + 8]\n"
"  --algo sa|umda|ga  search algorithm [sa]\n"
"  --neighbour-first 0|1  WH broadcasts: at each target first search one-hop\n"
"                     deliveries only (SF-style), then all routes [1]\n"
"  --budget N         evaluations per target step count (and phase) [100000]\n"
"  --pop N            population size [60]\n"
"  --runs N           independent runs (seeds SEED, SEED+1, ..) with success statistics [1]\n"
"  --seed N           random seed [1]\n"
"\n"
"output:\n"
"  --format text|json|csv   [text]\n"
"  --out FILE         write the best schedule as JSON (the format verify reads)\n"
"  --db PATH          save the run and its best schedule in a nocsim database\n"
"\n"
"verify checks every delivery, that broadcast senders were informed earlier,\n"
"that paths use working channels, no channel twice in a step, the port limit;\n"
"--steps S there also requires at most S steps.  Exit status: 0 success (a\n"
"schedule found / valid), 1 none found / invalid, 2 bad input.\n");
}

static bool parse_common(cc_opts *o, int argc, char **argv, int *i, bool *handled)
{
    const char *a = argv[*i], *v;
    *handled = true;
    long x;
    static const char *const sws[] = { "wh", "sf" };
    if (strcmp(a, "--topology") == 0) { if (!(o->topology = arg_value("cc", argc, argv, i))) return false; }
    else if (strcmp(a, "--cc") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_choice("cc", "--cc", v, cc_kind_names, 6, &o->kind)) return false;
    } else if (strcmp(a, "--root") == 0) { if (!(o->root = arg_value("cc", argc, argv, i))) return false; }
    else if (strcmp(a, "--senders") == 0) { if (!(o->senders = arg_value("cc", argc, argv, i))) return false; }
    else if (strcmp(a, "--receivers") == 0) { if (!(o->receivers = arg_value("cc", argc, argv, i))) return false; }
    else if (strcmp(a, "--ports") == 0) {
        if (!(v = arg_value("cc", argc, argv, i))) return false;
        if (strcmp(v, "all") == 0) o->ports = 0;
        else if (!arg_int("cc", "--ports", v, 1, 1024, &x)) return false;
        else o->ports = (int)x;
    } else if (strcmp(a, "--switching") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_choice("cc", "--switching", v, sws, 2, &o->sw)) return false;
    } else if (strcmp(a, "--nonminimal") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--nonminimal", v, 0, 1, &x)) return false;
        o->nonminimal = (int)x;
    } else if (strcmp(a, "--max-paths") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--max-paths", v, 1, 100000, &x)) return false;
        o->max_paths = (int)x;
    } else if (strcmp(a, "--fail-link") == 0 || strcmp(a, "--fail-node") == 0) {
        bool link = a[7] == 'l';
        if (!(v = arg_value("cc", argc, argv, i))) return false;
        if ((link ? o->nfail_link : o->nfail_node) >= MAX_FAULTS) {
            fprintf(stderr, "nocsim cc: %s: at most %d faults\n", a, MAX_FAULTS);
            return false;
        }
        if (link) o->fail_link[o->nfail_link++] = v; else o->fail_node[o->nfail_node++] = v;
    } else *handled = false;
    return true;
}

static bool parse_run(cc_opts *o, int argc, char **argv, int *i, bool *handled)
{
    const char *a = argv[*i], *v;
    long x;
    *handled = true;
    if (strcmp(a, "--steps") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--steps", v, 1, 100000, &x)) return false;
        o->steps = (int)x;
    } else if (strcmp(a, "--max-steps") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--max-steps", v, 1, 100000, &x)) return false;
        o->max_steps = (int)x;
    } else if (strcmp(a, "--algo") == 0) {
        if (!(v = arg_value("cc", argc, argv, i))) return false;
        int k, na = 0;
        const char *names[8];
        for (; cc_algos[na] && na < 8; na++) names[na] = cc_algos[na]->name;
        if (!arg_choice("cc", "--algo", v, names, na, &k)) return false;
        o->algo = names[k];
    } else if (strcmp(a, "--neighbour-first") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--neighbour-first", v, 0, 1, &x)) return false;
        o->neighbour_first = (int)x;
    } else if (strcmp(a, "--budget") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--budget", v, 1, 2000000000L, &o->budget)) return false;
    } else if (strcmp(a, "--pop") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--pop", v, 4, 100000, &x)) return false;
        o->pop = (int)x;
    } else if (strcmp(a, "--runs") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--runs", v, 1, 100000, &x)) return false;
        o->runs = (int)x;
    } else if (strcmp(a, "--seed") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_int("cc", "--seed", v, 0, 2000000000L, &o->seed)) return false;
    } else if (strcmp(a, "--format") == 0) {
        if (!(v = arg_value("cc", argc, argv, i)) || !arg_format("cc", v, &o->fmt)) return false;
    } else if (strcmp(a, "--out") == 0) {
        if (!(o->out = arg_value("cc", argc, argv, i))) return false;
    } else if (strcmp(a, "--db") == 0) {
        if (!(o->db = arg_value("cc", argc, argv, i))) return false;
    } else *handled = false;
    return true;
}

/* The problem's parts, built from the options; freed together. */
typedef struct {
    cc_topo *t;
    cc_paths *paths;
    cc_problem *pb;
    cc_bounds bounds;
} cc_setup;

static void setup_free(cc_setup *s)
{
    cc_problem_free(s->pb);
    cc_paths_free(s->paths);
    cc_topo_free(s->t);
}

/* Returns EXIT_OK, or EXIT_USAGE for bad input / EXIT_FAIL for OOM. */
static int setup(const cc_opts *o, cc_setup *s)
{
    char err[CC_ERRLEN];
    memset(s, 0, sizeof *s);
    if (!o->topology) { fprintf(stderr, "nocsim cc: --topology is required (see nocsim cc --help)\n"); return EXIT_USAGE; }
    if (o->kind < 0) { fprintf(stderr, "nocsim cc: --cc is required: one of oab oas aab aas mnb mns\n"); return EXIT_USAGE; }
    if (o->root && !(o->kind == CC_OAB || o->kind == CC_OAS)) { fprintf(stderr, "nocsim cc: --root applies only to --cc oab|oas\n"); return EXIT_USAGE; }
    if ((o->senders || o->receivers) && !(o->kind == CC_MNB || o->kind == CC_MNS)) {
        fprintf(stderr, "nocsim cc: --senders/--receivers apply only to --cc mnb|mns\n"); return EXIT_USAGE; }
    cc_topo_builder *b = cc_topo_parse(o->topology, err);
    if (!b) { fprintf(stderr, "nocsim cc: %s\n", err); return EXIT_USAGE; }
    for (int i = 0; i < o->nfail_link; i++)
        if (!cc_topo_fail_link(b, o->fail_link[i], err)) { fprintf(stderr, "nocsim cc: %s\n", err); cc_topo_builder_free(b); return EXIT_USAGE; }
    for (int i = 0; i < o->nfail_node; i++)
        if (!cc_topo_fail_node(b, o->fail_node[i], err)) { fprintf(stderr, "nocsim cc: %s\n", err); cc_topo_builder_free(b); return EXIT_USAGE; }
    s->t = cc_topo_build(b, err);
    cc_topo_builder_free(b);
    if (!s->t) { fprintf(stderr, "nocsim cc: %s\n", err); return EXIT_USAGE; }
    if (!(s->pb = cc_problem_new(s->t, (cc_kind)o->kind, (cc_switching)o->sw, o->ports, o->root, o->senders, o->receivers, err))) {
        fprintf(stderr, "nocsim cc: %s\n", err); setup_free(s); return EXIT_USAGE; }
    if (!(s->paths = cc_paths_new(s->t, o->nonminimal, o->max_paths, err))) { fprintf(stderr, "nocsim cc: %s\n", err); setup_free(s); return EXIT_FAIL; }
    if (!cc_bounds_compute(s->pb, s->paths, &s->bounds)) { fprintf(stderr, "nocsim cc: out of memory computing bounds\n"); setup_free(s); return EXIT_FAIL; }
    return EXIT_OK;
}

static void describe(FILE *f, const cc_opts *o, const cc_setup *s)
{
    fprintf(f, "topology %s: %d nodes, %d channels%s", s->t->spec, s->t->n, s->t->nch, s->t->directed ? " (digraph)" : "");
    for (int i = 0; i < o->nfail_link; i++) fprintf(f, ", failed link %s", o->fail_link[i]);
    for (int i = 0; i < o->nfail_node; i++) fprintf(f, ", failed node %s", o->fail_node[i]);
    fprintf(f, "\ncc %s", cc_kind_names[o->kind]);
    if (s->pb->root >= 0) fprintf(f, " from %s", s->t->names[s->pb->root]);
    fprintf(f, ", %s, %s-port, %s routing\n", cc_switching_names[o->sw], o->ports ? "K" : "all", o->nonminimal ? "minimal and +1 hop" : "minimal");
    if (o->ports) fprintf(f, "K = %d\n", o->ports);
}

static void print_bounds_json(FILE *f, const cc_bounds *b)
{
    fprintf(f, "[");
    for (int i = 0; i < b->n; i++) {
        fprintf(f, "%s{\"name\": \"%s\", \"value\": %d, \"binds\": %s, \"why\": ", i ? ", " : "", b->b[i].name, b->b[i].value,
                b->b[i].value == b->best ? "true" : "false");
        json_string(f, b->b[i].why);
        fprintf(f, "}");
    }
    fprintf(f, "]");
}

static int do_bounds(const cc_opts *o)
{
    cc_setup s;
    int rc = setup(o, &s);
    if (rc != EXIT_OK) return rc;
    const cc_bounds *b = &s.bounds;
    if (o->fmt == FMT_JSON) {
        printf("{\"topology\": ");
        json_string(stdout, s.t->spec);
        printf(", \"cc\": \"%s\", \"bound\": %d, \"bounds\": ", cc_kind_names[o->kind], b->best);
        print_bounds_json(stdout, b);
        printf("}\n");
    } else if (o->fmt == FMT_CSV) {
        printf("bound,value,binds,why\n");
        for (int i = 0; i < b->n; i++) printf("%s,%d,%d,\"%s\"\n", b->b[i].name, b->b[i].value, b->b[i].value == b->best, b->b[i].why);
    } else {
        describe(stdout, o, &s);
        for (int i = 0; i < b->n; i++)
            printf("  %-12s %4d%s  %s\n", b->b[i].name, b->b[i].value, b->b[i].value == b->best ? " *" : "  ", b->b[i].why);
        printf("lower bound: %d steps (binding: %s)\n", b->best, b->b[b->binding].name);
    }
    setup_free(&s);
    return EXIT_OK;
}

static int do_verify(const cc_opts *o)
{
    cc_setup s;
    int rc = setup(o, &s);
    if (rc != EXIT_OK) return rc;
    char err[512];
    cc_schedule *sch = cc_schedule_read_json(o->file, s.t, err, sizeof err);
    if (!sch) { fprintf(stderr, "nocsim cc verify: %s\n", err); setup_free(&s); return EXIT_USAGE; }
    cc_verify_result vr;
    if (!cc_verify(s.pb, sch, &vr)) { fprintf(stderr, "nocsim cc verify: out of memory\n"); cc_schedule_free(sch); setup_free(&s); return EXIT_FAIL; }
    bool too_long = o->steps > 0 && vr.steps > o->steps;
    static const char *const kinds[CC_VERR_KINDS] = { "broken paths", "channel conflicts", "uninformed senders", "port excesses", "missing deliveries", "extra transfers" };
    if (o->fmt == FMT_JSON) {
        printf("{\"valid\": %s, \"steps\": %d, \"bound\": %d", vr.ok && !too_long ? "true" : "false", vr.steps, s.bounds.best);
        for (int k = 0; k < CC_VERR_KINDS; k++) printf(", \"%s\": %d", kinds[k], vr.count[k]);
        printf(", \"first_error\": ");
        json_string(stdout, vr.first);
        printf("}\n");
    } else {
        if (vr.ok) printf("valid: %d steps (lower bound %d)\n", vr.steps, s.bounds.best);
        else {
            printf("INVALID: %s\n", vr.first);
            for (int k = 0; k < CC_VERR_KINDS; k++) if (vr.count[k]) printf("  %d %s\n", vr.count[k], kinds[k]);
        }
        if (too_long) printf("INVALID: %d steps, more than --steps %d\n", vr.steps, o->steps);
    }
    cc_schedule_free(sch);
    setup_free(&s);
    return vr.ok && !too_long ? EXIT_OK : EXIT_FAIL;
}

static bool write_schedule(const char *path, const cc_schedule *sch, const cc_problem *pb)
{
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); return false; }
    cc_schedule_write_json(f, sch, pb, "");
    fputc('\n', f);
    if (fclose(f) != 0) { perror(path); return false; }
    return true;
}

/* Save the run (kind "cc") and its best schedule as JSON text. */
static bool save_db(const cc_opts *o, const cc_setup *s, const cc_search_result *best, int bound, int nbound)
{
    char err[512], params[512];
    store *db = store_open(o->db, STORE_CREATE, err, sizeof err);
    if (!db) { fprintf(stderr, "nocsim cc: --db: %s\n", err); return false; }
    snprintf(params, sizeof params,
             "{\"topology\": \"%s\", \"cc\": \"%s\", \"root\": \"%s\", \"switching\": \"%s\", \"ports\": %d, "
             "\"nonminimal\": %d, \"faults\": %d, \"budget\": %ld, \"runs\": %d, \"reached_bound\": %d}",
             s->t->spec, cc_kind_names[o->kind], s->pb->root >= 0 ? s->t->names[s->pb->root] : "", cc_switching_names[o->sw],
             o->ports, o->nonminimal, o->nfail_link + o->nfail_node, o->budget, o->runs, nbound);
    store_run run = store_run_init("cc");
    run.seed = (uint64_t)o->seed;
    run.algorithm = o->algo;
    run.params = params;
    run.version = NOCSIM_VERSION;
    bool ok = store_run_create(db, &run, err, sizeof err) == STORE_OK;
    if (ok && best->found) {
        char *text = NULL;
        size_t len = 0;
        FILE *mf = open_memstream(&text, &len);
        ok = mf != NULL;
        if (ok) {
            cc_schedule_write_json(mf, best->sched, s->pb, "");
            ok = fclose(mf) == 0;
        }
        store_cc c = { .run = run.id, .steps = best->steps, .bound = bound, .schedule = text };
        int64_t id;
        if (ok) ok = store_cc_add(db, &c, &id, err, sizeof err) == STORE_OK;
        else snprintf(err, sizeof err, "out of memory");
        free(text);
        if (ok) ok = store_run_set_best(db, run.id, best->steps, STORE_NONE, 0, err, sizeof err) == STORE_OK;
    }
    if (ok) ok = store_run_set_status(db, run.id, best->found ? "finished" : "failed", err, sizeof err) == STORE_OK;
    if (!ok) fprintf(stderr, "nocsim cc: --db: %s\n", err);
    store_close(db);
    return ok;
}

static int do_run(const cc_opts *o)
{
    cc_setup s;
    int rc = setup(o, &s);
    if (rc != EXIT_OK) return rc;
    const cc_algo *algo = cc_algo_find(o->algo);
    int bound = s.bounds.best;
    cc_search_params sp = { .algo = algo, .budget = o->budget, .pop = o->pop, .pmut = 0.9, .steps = o->steps,
                            .neighbour_first = o->neighbour_first != 0, .start_steps = bound, .max_steps = o->max_steps ? o->max_steps : 4 * bound + 8 };
    cc_search_result best = { 0 };
    int nfound = 0, nbound = 0, best_run = -1;
    double sum_t = 0, sum_e = 0, sum_steps = 0;
    if (o->fmt == FMT_TEXT) {
        describe(stdout, o, &s);
        printf("lower bound %d (%s); algorithm %s, budget %ld evaluations per step count\n", bound, s.bounds.b[s.bounds.binding].name, algo->name, o->budget);
    } else if (o->fmt == FMT_CSV) {
        printf("topology,cc,root,switching,ports,faults,algo,bound,run,seed,found,steps,evals,evals_to_best,seconds\n");
    } else {
        printf("{\"topology\": ");
        json_string(stdout, s.t->spec);
        printf(", \"cc\": \"%s\", \"switching\": \"%s\", \"ports\": ", cc_kind_names[o->kind], cc_switching_names[o->sw]);
        if (o->ports) printf("%d", o->ports); else printf("\"all\"");
        printf(", \"algo\": \"%s\", \"bound\": %d, \"bounds\": ", algo->name, bound);
        print_bounds_json(stdout, &s.bounds);
        printf(", \"runs\": [");
    }
    for (int run = 0; run < o->runs; run++) {
        cc_search_result res;
        char err[CC_ERRLEN];
        sp.seed = (uint64_t)o->seed + (uint64_t)run;
        if (!cc_search(s.pb, s.paths, &sp, &res, err)) {
            if (o->fmt == FMT_JSON) printf("]}\n");
            fprintf(stderr, "nocsim cc: %s\n", err);
            cc_search_result_clear(&best);
            setup_free(&s);
            return EXIT_FAIL;
        }
        if (res.found) {
            nfound++;
            nbound += res.steps <= bound;
            sum_steps += res.steps;
        }
        sum_t += res.seconds;
        sum_e += (double)res.evals_to_best;
        if (o->fmt == FMT_TEXT)
            printf("run %d (seed %llu): %s %d steps%s, %ld evaluations (%ld to the best), %.3f s\n", run + 1,
                   (unsigned long long)sp.seed, res.found ? "found" : "NOT found in", res.steps,
                   res.neighbour_only ? " (one-hop deliveries)" : "", res.evals, res.evals_to_best, res.seconds);
        else if (o->fmt == FMT_CSV) {
            printf("\"%s\",%s,%s,%s,", s.t->spec, cc_kind_names[o->kind], s.pb->root >= 0 ? s.t->names[s.pb->root] : "", cc_switching_names[o->sw]);
            if (o->ports) printf("%d,", o->ports); else printf("all,");
            for (int i = 0; i < o->nfail_link; i++) printf("%slink %s", i ? ";" : "", o->fail_link[i]);
            for (int i = 0; i < o->nfail_node; i++) printf("%snode %s", i || o->nfail_link ? ";" : "", o->fail_node[i]);
            printf(",%s,%d,%d,%llu,%d,%d,%ld,%ld,%.4f\n", algo->name, bound, run + 1, (unsigned long long)sp.seed, res.found,
                   res.found ? res.steps : -1, res.evals, res.evals_to_best, res.seconds);
        } else
            printf("%s{\"seed\": %llu, \"found\": %s, \"steps\": %d, \"neighbour_only\": %s, \"evals\": %ld, \"evals_to_best\": %ld, \"seconds\": %.4f}",
                   run ? ", " : "", (unsigned long long)sp.seed, res.found ? "true" : "false", res.found ? res.steps : -1,
                   res.neighbour_only ? "true" : "false", res.evals, res.evals_to_best, res.seconds);
        if (res.found && (!best.found || res.steps < best.steps)) {
            cc_search_result_clear(&best);
            best = res;
            best_run = run;
        } else cc_search_result_clear(&res);
    }
    double rate = (double)nbound / o->runs;
    if (o->fmt == FMT_TEXT) {
        if (o->runs > 1)
            printf("summary: %d/%d runs found a schedule, %d/%d reached the bound %d (%.0f%%); mean steps %.2f, mean evaluations to best %.0f, mean time %.3f s\n",
                   nfound, o->runs, nbound, o->runs, bound, 100.0 * rate, nfound ? sum_steps / nfound : 0.0, sum_e / o->runs, sum_t / o->runs);
        if (best.found) {
            printf("best: %d steps (bound %d, run %d), verified\n", best.steps, bound, best_run + 1);
            cc_schedule_write_text(stdout, best.sched, s.pb);
        }
    } else if (o->fmt == FMT_JSON) {
        printf("], \"found\": %d, \"success_rate\": %.4f, \"mean_seconds\": %.4f, \"mean_evals_to_best\": %.1f",
               nfound, rate, sum_t / o->runs, sum_e / o->runs);
        if (best.found) {
            printf(", \"best_steps\": %d, \"verified\": true, \"schedule\": ", best.steps);
            cc_schedule_write_json(stdout, best.sched, s.pb, "");
        }
        printf("}\n");
    }
    bool ok = true;
    if (o->out && best.found) ok = write_schedule(o->out, best.sched, s.pb);
    if (o->out && !best.found) fprintf(stderr, "nocsim cc: no schedule found, %s not written\n", o->out);
    if (o->db && !save_db(o, &s, &best, bound, nbound)) ok = false;
    rc = !ok ? EXIT_FAIL : best.found ? EXIT_OK : EXIT_FAIL;
    cc_search_result_clear(&best);
    setup_free(&s);
    return rc;
}

int cmd_cc(int argc, char **argv)
{
    cc_opts o = { .kind = -1, .sw = CC_WH, .max_paths = 128, .runs = 1, .pop = 60, .budget = 100000, .seed = 1, .neighbour_first = 1,
                  .algo = "sa", .fmt = FMT_TEXT };
    int mode = 0;   /* 0 run, 1 bounds, 2 verify */
    int i = 1;
    if (argc > 1 && strcmp(argv[1], "bounds") == 0) { mode = 1; i = 2; }
    else if (argc > 1 && strcmp(argv[1], "verify") == 0) {
        mode = 2;
        i = 2;
        if (argc < 3 || argv[2][0] == '-') {
            if (argc >= 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) { usage(stdout); return EXIT_OK; }
            fprintf(stderr, "nocsim cc verify: needs a schedule file: nocsim cc verify SCHEDULE.json --topology T --cc CC\n");
            return EXIT_USAGE;
        }
        o.file = argv[i++];
    }
    for (; i < argc; i++) {
        bool handled;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) { usage(stdout); return EXIT_OK; }
        if (!parse_common(&o, argc, argv, &i, &handled)) return EXIT_USAGE;
        if (handled) continue;
        if (!parse_run(&o, argc, argv, &i, &handled)) return EXIT_USAGE;
        if (handled) continue;
        arg_unknown("cc", argv[i]);
        return EXIT_USAGE;
    }
    if (mode == 1) return do_bounds(&o);
    if (mode == 2) return do_verify(&o);
    return do_run(&o);
}
