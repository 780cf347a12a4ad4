/* A run's decisions (sim/decisions.h): every "repeats" verdict is checked
 * against a simulation of the changed configuration on the reference
 * engine, which must give the parent's metrics, link statistics and tail
 * cycles exactly; a few verdicts are worked out by hand, and the record is
 * unknown wherever the fast engine did not finish the run. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/operators.h"
#include "router/route.h"
#include "sim/decisions_rec.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "util/rng.h"

static int rng_int(uint64_t *s, int n) { return (int)(rng_splitmix64(s) % (uint64_t)n); }

static sim *new_sim(const sim_params *p, const int32_t *dest)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    return s;
}

static sim_config *new_config(const sim_params *p, uint32_t interval)
{
    sim_config *c = sim_config_new(p->n * p->n, p->vcs, 0, interval);
    ck_assert_ptr_nonnull(c);
    return c;
}

/* Everything a run leaves: metrics, link statistics, tail cycles. */
typedef struct {
    sim_metrics m;
    int64_t *links; /* first, last, flits per link */
    int64_t *tails;
} outcome;

static void outcome_of(sim *s, const sim_config *c, int slices, outcome *o)
{
    int links = c->nodes * 4;
    o->links = malloc(sizeof *o->links * 3 * (size_t)links);
    o->tails = malloc(sizeof *o->tails * (size_t)c->nodes * (size_t)slices);
    ck_assert(o->links && o->tails);
    for (int k = 0; k < links; k++) sim_link_stats(s, k, &o->links[3 * k], &o->links[3 * k + 1], &o->links[3 * k + 2]);
    sim_tail_cycles(s, o->tails);
}

static void outcome_free(outcome *o)
{
    free(o->links);
    free(o->tails);
}

static void same_outcome(const outcome *a, const outcome *b, int nodes, int slices, const char *what)
{
    testutil_same_metrics(&a->m, &b->m, what, "parent", "child");
    ck_assert_msg(!memcmp(a->links, b->links, sizeof *a->links * 3 * (size_t)nodes * 4), "%s: link statistics differ", what);
    ck_assert_msg(!memcmp(a->tails, b->tails, sizeof *a->tails * (size_t)nodes * (size_t)slices), "%s: tail cycles differ",
                  what);
}

/* Record c's run; it must be known. */
static void record(sim *s, const sim_config *c, sim_decisions *d, sim_metrics *m)
{
    ck_assert_int_eq(sim_run_recording(s, c, INT64_MAX, d, m), SIM_OK);
    ck_assert(sim_ran_fast(s));
    ck_assert(sim_decisions_known(d));
}

/* A second way to the verdict: run the child, recording, and compare the
 * sequences of its grants and header entries with the parent's.  A run
 * repeats iff every decision is the same (decisions.h), so a "yes" needs
 * them equal.  When only queue orders, injection timings or the interval
 * changed, equal sequences also mean a repeat (every other decision then
 * follows), so there the verdict must be exactly this comparison.  (VC picks
 * are kept as sets of situations, which two different runs may share, so a
 * scheme change is checked one way only.) */
static int same_sequences(const sim_decisions *a, const sim_decisions *b)
{
    size_t npk = (size_t)a->nodes * (size_t)a->S;
    return a->ngrant == b->ngrant && !memcmp(a->grant, b->grant, a->ngrant * sizeof *a->grant) &&
           !memcmp(a->entered, b->entered, npk * sizeof *a->entered);
}

/* ---- by hand ---- */

/* Every node sends to its east neighbour: one packet per link and slice,
 * so only E and P ports ever send, and each of them always has one ready VC.
 * Verdicts that follow from that and from model.md step 3 (a source injects
 * a flit a cycle from its release, once its previous packet is in): */
START_TEST(verdicts_by_hand)
{
    sim_params p = testutil_params(4, SIM_DEFAULT_FLITS, 2);
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = (i / 4) * 4 + (i % 4 + 1) % 4;
    sim *s = new_sim(&p, dest);
    sim_decisions *d = sim_decisions_new(&p);
    ck_assert_ptr_nonnull(d);
    sim_config *c = new_config(&p, 8), *x = new_config(&p, 8);
    for (int i = 0; i < 16; i++) c->inject[i] = 5;
    sim_metrics m;
    record(s, c, d, &m);
    /* Slice 0's flits enter at 5..12; slice 1 is released at 13 and enters
     * then, its tail at 20; a flit ejects two cycles after it entered (one
     * link, then the P output), so the last at 22. */
    ck_assert_int_eq(m.duration, 23);
    struct { const char *what; int repeats; } cases[] = {
        { "scheme of a W port (never sends)", 1 },
        { "scheme of an E port (one ready VC)", 1 },
        { "queue order of the N output (never granted)", 1 },
        { "queue order of the P output (only W ever requests it)", 1 },
        { "inject of node 3 one later (enters at release)", 0 },
        { "inject of node 3 one earlier (enters at release)", 0 },
        { "interval 7 (slice 1 waits for slice 0's tail at 12)", 1 },
        { "interval 9", 0 },
        { "interval 2 and inject of node 3 at 4", 0 },
    };
    for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        sim_config_copy(x, c);
        switch (k) {
        case 0: x->scheme[3 * NPORTS + PORT_W] = 7; break;
        case 1: x->scheme[3 * NPORTS + PORT_E] = 4; break;
        case 2: { uint8_t *q = sim_config_q(x, 3, PORT_N, 0); q[0] = 4; q[4] = 0; } break;
        case 3: { uint8_t *q = sim_config_q(x, 3, PORT_P, 0); q[1] = 4; q[4] = 1; } break;
        case 4: x->inject[3] = 6; break;
        case 5: x->inject[3] = 4; break;
        case 6: x->interval = 7; break;
        case 7: x->interval = 9; break;
        case 8: x->interval = 2; x->inject[3] = 4; break;
        }
        ck_assert_msg(sim_decisions_repeat(d, c, x) == cases[k].repeats, "%s: expected %d", cases[k].what,
                      cases[k].repeats);
    }
    sim_config_free(c);
    sim_config_free(x);
    sim_decisions_free(d);
    sim_free(s);
}
END_TEST

/* ---- against the simulation ---- */

/* The GA's gene groups, in ga_mutate_local_mix's order. */
enum { G_V, G_I, G_C, G_Q, NGROUPS };

/* k moves of group grp (NGROUPS: any) as the GA makes them: on the genes
 * that can matter (ga_effective), I and V by steps of 1..3, a scheme
 * changed, two entries of a queue order swapped. */
static void move(sim_config *c, const ga_effective *e, int grp, int k, int flits, rng *r)
{
    ga_space sp = { .genes = GENE_ALL, .vmin = (uint32_t)flits, .vmax = 1000, .imax = 1000 };
    double mix[4] = { 0, 0, 0, 0 };
    for (int g = 0; g < NGROUPS; g++) mix[g] = grp == NGROUPS || grp == g;
    ga_mutate_local_mix(c, &sp, e, k, mix, r);
}

static void randomize(sim_config *c, uint64_t *r, int flits, int imax)
{
    for (int k = 0; k < c->nodes * NPORTS; k++) c->scheme[k] = (uint8_t)rng_int(r, VCSEL_NSCHEMES);
    for (int i = 0; i < c->nodes; i++) {
        c->inject[i] = (uint16_t)rng_int(r, imax + 1);
        for (int d = 0; d < NPORTS; d++)
            for (int v = 0; v < c->vcs; v++) {
                uint8_t *q = sim_config_q(c, i, d, v);
                for (int j = NPORTS - 1; j > 0; j--) {
                    int x = rng_int(r, j + 1);
                    uint8_t t = q[j]; q[j] = q[x]; q[x] = t;
                }
            }
    }
    c->interval = (uint32_t)(flits + rng_int(r, 3 * flits));
}

/* Random parents on several patterns and model choices the fast engine
 * runs; children of one to three moves, each group alone and all mixed.
 * Every verdict is checked against same_sequences (the child's run
 * recorded), and every child proven to repeat is simulated on the reference
 * engine and must give the parent's outcome.  Each group must see proofs,
 * so that the checks have something to check. */
START_TEST(verdicts_match_simulation)
{
    const struct { const char *pat; int n, slices, vcs, buffer, rotate; } cfgs[] = {
        { "brev", 8, 2, 3, 4, 0 }, { "bcmp", 8, 2, 3, 4, 0 }, { "shfl", 8, 3, 3, 4, 1 },
        { "randperm", 6, 2, 4, 4, 0 }, { "trns", 8, 2, 3, 10, 1 }, { "brot", 8, 1, 3, 4, 0 },
        { "brev", 8, 4, 3, 4, 1 }, { "shfl", 8, 4, 3, 4, 0 }, { "randperm", 8, 4, 3, 4, 1 }, { "randperm", 8, 4, 3, 4, 0 },
    };
    uint64_t r = 20261125;
    int64_t proven[NGROUPS + 1] = { 0 }, asked[NGROUPS + 1] = { 0 };
    for (int ci = 0; ci < (int)(sizeof cfgs / sizeof cfgs[0]); ci++) {
        sim_params p = testutil_params(cfgs[ci].n, SIM_DEFAULT_FLITS, cfgs[ci].slices);
        p.vcs = cfgs[ci].vcs;
        p.buffer = cfgs[ci].buffer;
        p.q_update = cfgs[ci].rotate ? QUPDATE_ROTATE : QUPDATE_TAIL;
        sim_params pr = p;
        pr.reference_only = 1;
        char err[256];
        traffic *t = traffic_new(cfgs[ci].pat, p.n, 7, err, sizeof err);
        ck_assert_msg(t != NULL, "%s", err);
        sim *s = new_sim(&p, t->dest), *ref = new_sim(&pr, t->dest);
        sim_decisions *d = sim_decisions_new(&p), *dx = sim_decisions_new(&p);
        ga_effective *e = ga_effective_new(&p, t->dest);
        ck_assert(d && dx && e);
        sim_config *c = new_config(&p, 8), *x = new_config(&p, 8);
        int nodes = p.n * p.n;
        rng gr;
        rng_seed(&gr, (uint64_t)ci + 1);
        for (int parent = 0; parent < 4; parent++) {
            randomize(c, &r, p.flits, parent < 2 ? 0 : 30);
            if (parent % 2) c->interval = (uint32_t)p.flits / 2; /* slices wait for their predecessors */
            sim_metrics m;
            record(s, c, d, &m);
            outcome want = { m, NULL, NULL };
            outcome_of(s, c, p.slices, &want);
            for (int child = 0; child < 250; child++) {
                int grp = child % (NGROUPS + 1); /* NGROUPS: mixed */
                sim_config_copy(x, c);
                move(x, e, grp, 1 + rng_int(&r, 3), p.flits, &gr);
                asked[grp]++;
                int verdict = sim_decisions_repeat(d, c, x);
                sim_metrics mx;
                char what[128];
                snprintf(what, sizeof what, "%s %dx%d S=%d parent %d child %d (group %d)", cfgs[ci].pat, p.n, p.n,
                         p.slices, parent, child, grp);
                sim_run_recording(s, x, INT64_MAX, dx, &mx);
                ck_assert_msg(sim_decisions_known(dx), "%s: child not recorded", what);
                int same = same_sequences(d, dx), exact = grp == G_V || grp == G_I || grp == G_Q;
                ck_assert_msg(verdict ? same : !(exact && same), "%s: verdict %d, decisions %s", what, verdict,
                              same ? "the same" : "differ");
                if (!verdict) continue;
                proven[grp]++;
                ck_assert_int_eq(sim_run_reference(ref, x, &mx), SIM_OK);
                outcome got = { mx, NULL, NULL };
                outcome_of(ref, x, p.slices, &got);
                same_outcome(&want, &got, nodes, p.slices, what);
                outcome_free(&got);
            }
            outcome_free(&want);
        }
        sim_config_free(c);
        sim_config_free(x);
        sim_decisions_free(d);
        sim_decisions_free(dx);
        ga_effective_free(e);
        sim_free(s);
        sim_free(ref);
        traffic_free(t);
    }
    const char *names[] = { "V", "I", "C", "Q", "mixed" };
    for (int g = 0; g <= NGROUPS; g++)
        fprintf(stderr, "decisions: %s moves %lld of %lld children proven to repeat\n", names[g],
                (long long)proven[g], (long long)asked[g]);
    for (int g = 0; g <= NGROUPS; g++)
        if (g != G_V) ck_assert_msg(proven[g] > 0, "no %s child was proven to repeat: nothing was checked", names[g]);
}
END_TEST

/* ---- unknown records ---- */

/* The record is unknown after a cut run, a run on the reference engine and
 * a deadlock, and after sim_decisions_clear; an unknown record proves
 * nothing, not even an unchanged configuration. */
START_TEST(unknown_records)
{
    sim_params p = testutil_params(4, SIM_DEFAULT_FLITS, 2);
    char err[256];
    traffic *t = traffic_new("brev", 4, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim *s = new_sim(&p, t->dest);
    sim_decisions *d = sim_decisions_new(&p);
    ck_assert_ptr_nonnull(d);
    ck_assert(!sim_decisions_known(d));
    sim_config *c = new_config(&p, 8);
    sim_metrics m;
    ck_assert(!sim_decisions_repeat(d, c, c));
    record(s, c, d, &m);
    ck_assert(sim_decisions_repeat(d, c, c));
    ck_assert_int_eq(sim_run_recording(s, c, m.duration - 2, d, &m), SIM_CUTOFF);
    ck_assert(!sim_decisions_known(d));
    ck_assert(!sim_decisions_repeat(d, c, c));
    record(s, c, d, &m);
    sim_decisions_clear(d);
    ck_assert(!sim_decisions_repeat(d, c, c));
    sim_params pr = p;
    pr.reference_only = 1;
    sim *ref = new_sim(&pr, t->dest);
    record(s, c, d, &m);
    ck_assert_int_eq(sim_run_recording(ref, c, INT64_MAX, d, &m), SIM_OK);
    ck_assert(!sim_decisions_known(d));
    sim_config_free(c);
    sim_decisions_free(d);
    sim_free(s);
    sim_free(ref);
    traffic_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("decisions");
    TCase *tc = tcase_create("decisions");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, verdicts_by_hand);
    tcase_add_test(tc, verdicts_match_simulation);
    tcase_add_test(tc, unknown_records);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
