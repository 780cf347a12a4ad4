/* The GA's option tables (see ga_options.h). */
#include "ga/ga_options.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "router/arbiter.h"
#include "sim/interval.h"
#include "sim/pool.h"
#include "util/quote.h"

#define NAMES(a) (a), (int)(sizeof(a) / sizeof(a)[0])
#define FIELD(f) #f, offsetof(ga_params, f)
/* A row of a number in [lo, hi]; a choice of names; a custom row. */
#define NUM(name, arg, help, type, f, lo, hi) { name, 0, arg, help, type, FIELD(f), lo, hi, 0, 0, NULL, 0, NULL, NULL, 0 }
#define PICK(name, help, f, names) { name, 0, NULL, help, OPT_CHOICE, FIELD(f), 0, 0, 0, 0, NAMES(names), NULL, NULL, 0 }
#define CUSTOM(name, arg, help, f, parse, show) \
    { name, 0, arg, help, OPT_CUSTOM, FIELD(f), 0, 0, 0, 0, NULL, 0, parse, show, 0 }

/* "V,I,C,Q": the genes that evolve, each named once. */
static int parse_genes(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    static const char *const genes[] = { "V", "I", "C", "Q" };
    int picked[4], n, rc = opt_parse_names(v, genes, 4, picked, &n, err, errlen);
    if (rc) return rc;
    unsigned set = 0;
    for (int j = 0; j < n; j++) set |= 1u << picked[j];
    ((ga_params *)base)->genes = set;
    return 0;
}

static void show_genes(const opt_row *r, const void *base, char *buf, size_t len)
{
    (void)r;
    char names[8];
    snprintf(buf, len, "%s", ga_genes_name(((const ga_params *)base)->genes, names));
}

int ga_opt_scheme_parse(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    int k = v ? vcsel_parse(v) : -1;
    char q[QUOTE_BUF];
    if (k < 0)
        return snprintf(err, errlen, "'%s' is not a scheme (allowed: %s-%s)", quote_str(q, sizeof q, v),
                        vcsel_name(0), vcsel_name(VCSEL_NSCHEMES - 1)), -FAULT_INPUT;
    *(int *)((char *)base + r->offset) = k;
    return 0;
}

void ga_opt_scheme_show(const opt_row *r, const void *base, char *buf, size_t len)
{
    snprintf(buf, len, "%s", vcsel_name(*(const int *)((const char *)base + r->offset)));
}

/* --sort duration|te: the fitness by its first key (te is --fitness te). */
static int parse_sort(const opt_row *r, void *base, const char *v, char *err, size_t errlen)
{
    (void)r;
    char q[QUOTE_BUF];
    ga_fitness f = GA_FIT_COUNT;
    if (v && !strcmp(v, ga_fitness_names[GA_FIT_DURATION])) f = GA_FIT_DURATION;
    if (v && !strcmp(v, ga_fitness_names[GA_FIT_TE])) f = GA_FIT_TE;
    if (f == GA_FIT_COUNT)
        return snprintf(err, errlen, "'%s' is not one of: %s %s", quote_str(q, sizeof q, v),
                        ga_fitness_names[GA_FIT_DURATION], ga_fitness_names[GA_FIT_TE]), -FAULT_INPUT;
    ((ga_params *)base)->fitness = f;
    return 0;
}

const opt_row ga_search_options[] = {
    { NULL, 0, NULL, "search:", OPT_HEADING, NULL, 0, 0, 0, 0, 0, NULL, 0, NULL, NULL, 0 },
    PICK("algo", "local: one lineage seeded with simple stacking,\n"
                 "few small mutations, keeps the best child if no worse;\n"
                 "paper: the paper's GA as written (random start,\n"
                 "mutation ratio, strict replacement)", algo, ga_algo_names),
    NUM("pop", "N", "chromosomes, i.e. lineages", OPT_INT, pop, GA_POP_MIN, GA_POP_MAX),
    NUM("children", "C", "children each lineage makes a generation, the best of them\n"
                         "replacing it; they run on all threads: with\n"
                         "--pop 1, C = cores is faster (but weaker: data/ga_study.md),\n"
                         "C = 1 speculates ahead on the other threads (same result)",
        OPT_INT, children, 1, GA_CHILDREN_MAX),
    NUM("generations", "G", "generations (local's default: no limit but --evals;\n"
                            "paper's: 50,000 children)", OPT_INT, generations, 0, GA_COUNT_MAX),
    NUM("evals", "N", "stop after N simulations in all (paper's default 0: no\n"
                      "limit); a local child proven to repeat its parent's run\n"
                      "is not simulated and not counted (\"repeats\" in the output)",
        OPT_I64, max_evals, 1, GA_EVALS_MAX),
    NUM("train", "G", "mutation-only generations at the start", OPT_INT, train, 0, GA_COUNT_MAX),
    { "mutation", 0, "R", "paper: ratio of genes redrawn, e.g. 0.1|0.05|0.02", OPT_REAL, FIELD(mutation),
      GA_MUTATION_MIN, 1, 0, 0, NULL, 0, NULL, NULL, 0 },
    NUM("max-genes", "K", "local: genes changed per child, 1..K", OPT_INT, max_genes, 1, GA_MAX_GENES_MAX),
    PICK("weights", "local: pick genes uniformly, or a group (V, I, C, Q)\n"
                    "first, uniformly or by the fixed mix 5/30/20/45 %", weights, ga_weight_names),
    NUM("shift", "P", "local: probability that a child also shifts the injection\n"
                      "timings of a whole row or column by +-1..3", OPT_REAL, shift, 0, 1),
    NUM("target", "P", "local: probability that a child's first move starts a\n"
                       "packet that finished in the parent's last cycles earlier:\n"
                       "its source's injection timing -1..3", OPT_REAL, target, 0, 1),
    NUM("target-window", "W", "local: those last cycles", OPT_INT, target_window, 1, GA_TARGET_WINDOW_MAX),
    PICK("start", "local: start from the best simple-stacking optimum, or\n"
                  "from the better of it and a link-level timetable of the\n"
                  "injection timings", start, ga_start_names),
    NUM("crossover-interval", "G", "generations between crossovers, 0 = none", OPT_INT, crossover_interval, 0,
        GA_COUNT_MAX),
    NUM("crossover-rate", "R", "probability a gene is copied", OPT_REAL, crossover_rate, 0, 1),
    NUM("crossover-pairs", "P", "pairs per crossover, 0 = pop/2", OPT_INT, crossover_pairs, 0, GA_COUNT_MAX),
    PICK("ties", "order of equal scores when sorting", ties, ga_ties_names),
    NUM("watchdog", "G", "restart after G generations without a new best (0 = off)", OPT_INT, watchdog, 0,
        GA_COUNT_MAX),
    NUM("lifetime", "G", "maximum age of a chromosome (0 = off; excludes --watchdog)", OPT_INT, lifetime, 0,
        GA_COUNT_MAX),
    CUSTOM("genes", "V,I,C,Q", "genes that evolve; e.g. V,C,Q = without\n"
                               "timing adjustment; V,I with --arb C00 = original Cup-Stacking",
           genes, parse_genes, show_genes),
    CUSTOM("arb", "Cxx", "scheme of every port when C does not evolve", arb, ga_opt_scheme_parse, ga_opt_scheme_show),
    { "interval", 0, "V", "V when V does not evolve (default: best simple stacking)", OPT_INT, FIELD(interval), 1,
      SIM_INTERVAL_MAX, 0, 0, NULL, 0, NULL, NULL, 1 },
    NUM("stack-vmax", "V", "simple-stacking sweep range l_c..V", OPT_INT, stack_vmax, 1, SIM_SWEEP_MAX),
    { "sort-key", 0, "K", "secondary key for equal durations, one of: none, or, ob,\n"
                          "te, te-rev, tb, lb, late (packets finishing in the last l_c\n"
                          "cycles), late-lb, tail (packets finishing in the last, then\n"
                          "the second and third last cycle), late3 (their sum),\n"
                          "late-sum (the sum of the tail cycles in the last 2 l_c\n"
                          "cycles)", OPT_CHOICE, FIELD(sort_key), 0, 0, 0, 0, NAMES(ga_key_names), NULL, NULL, 0 },
    { "sort", 0, "duration|te", "first key (te: effective thickness alone, paper T09)", OPT_CUSTOM, FIELD(fitness),
      0, 0, 0, 0, NULL, 0, parse_sort, NULL, 1 },
    PICK("fitness", "estimate: rough estimation (paper 6.2): single-slice runs\n"
                    "scored T_e (S'-1) + t_d, then the best is replayed at S'\n"
                    "slices (te = --sort te)", fitness, ga_fitness_names),
    NUM("estimate-slices", "S'", "slices S' of --fitness estimate", OPT_INT, estimate_slices, 1, SIM_MAX_SLICES),
    NUM("perturb", "K", "try V-K..V+K at every evaluation and keep the best (paper 7.1;\n"
                        "not with --children 2 or more)", OPT_INT, perturb, 0, GA_PERTURB_MAX),
    { "threads", 'j', "K", "evaluation threads (default: all cores); results do not\n"
                           "depend on it", OPT_INT, FIELD(threads), 1, SIM_POOL_MAX_THREADS, 0, 0, NULL, 0, NULL,
      NULL, 1 },
    PICK("delta", "simulate a child as its difference from its parent's run\n"
                  "(the same results in fewer instructions; off: every child in full)", delta, ga_delta_names),
    OPT_END
};

const opt_row ga_record_options[] = {
    PICK("record", "synonyms recorded: every one, or the 1st, 2nd, 4th, 8th, ...\n"
                   "of each best score", record, ga_record_names),
    OPT_END
};
