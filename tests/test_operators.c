/* Direct tests of the GA's search-space operators (ga/operators.h) against
 * their contracts: ranges respected, fixed genes left alone, how many genes
 * change, crossover copying only from the parents and whole Q lists, local
 * mutation confined to the effective genes, the group weighting's odds, and
 * the same generator state giving the same result.  Expectations come from
 * the contract and simple counting, never from the operators' code. */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ga/operators.h"
#include "router/route.h"
#include "traffic/traffic.h"
#include "util/rng.h"

/* A 4x4 torus with 3 VCs: 16 nodes, 80 ports, 240 Q lists. */
enum { N = 4, NODES = 16, VCS = 3, PORTS = NODES * NPORTS, QLISTS = PORTS * VCS };

static ga_space space(unsigned genes)
{
    ga_space sp = { .genes = genes, .vmin = 8, .vmax = 40, .imax = 20, .v_fixed = 17, .c_fixed = 6 };
    return sp;
}

static sim_config *config(void)
{
    sim_config *c = sim_config_new(NODES, VCS, 0, 8);
    ck_assert_ptr_nonnull(c);
    return c;
}

static int is_permutation(const uint8_t *q)
{
    unsigned seen = 0;
    for (int j = 0; j < NPORTS; j++) {
        if (q[j] >= NPORTS) return 0;
        seen |= 1u << q[j];
    }
    return seen == 0x1f;
}

static int is_identity(const uint8_t *q)
{
    for (int j = 0; j < NPORTS; j++)
        if (q[j] != j) return 0;
    return 1;
}

/* Every gene inside the ranges of sp (the fixed values used here lie
 * inside them too). */
static void check_ranges(const sim_config *c, const ga_space *sp)
{
    ck_assert_uint_ge(c->interval, sp->vmin);
    ck_assert_uint_le(c->interval, sp->vmax);
    for (int i = 0; i < c->nodes; i++) ck_assert_uint_le(c->inject[i], sp->imax);
    for (int k = 0; k < c->nodes * NPORTS; k++) ck_assert_uint_lt(c->scheme[k], VCSEL_NSCHEMES);
    for (int k = 0; k < QLISTS; k++) ck_assert(is_permutation(c->qorder + k * NPORTS));
}

/* Genes that differ between x and y, counted the way the operators count
 * genes (V one, each I one, each scheme one, each Q list one); the last
 * differing gene's group (GENE_*) and index go to *group and *index. */
static int diff_genes(const sim_config *x, const sim_config *y, unsigned *group, int *index)
{
    int d = 0;
    if (x->interval != y->interval) d++, *group = GENE_V, *index = 0;
    for (int i = 0; i < x->nodes; i++)
        if (x->inject[i] != y->inject[i]) d++, *group = GENE_I, *index = i;
    for (int k = 0; k < x->nodes * NPORTS; k++)
        if (x->scheme[k] != y->scheme[k]) d++, *group = GENE_C, *index = k;
    for (int k = 0; k < QLISTS; k++)
        if (memcmp(x->qorder + k * NPORTS, y->qorder + k * NPORTS, NPORTS)) d++, *group = GENE_Q, *index = k;
    return d;
}

/* How many genes differ between x and y. */
static int ndiff(const sim_config *x, const sim_config *y)
{
    unsigned g;
    int i;
    return diff_genes(x, y, &g, &i);
}

static int configs_equal(const sim_config *x, const sim_config *y) { return ndiff(x, y) == 0; }

/* ---- ga_gene_count ---- */

START_TEST(gene_count_by_group)
{
    sim_config *c = config();
    const int size[4] = { 1, NODES, PORTS, QLISTS }; /* V, I, C, Q */
    for (unsigned genes = 0; genes <= GENE_ALL; genes++) {
        ga_space sp = space(genes);
        int64_t want = 0;
        for (int b = 0; b < 4; b++)
            if (genes & (1u << b)) want += size[b];
        ck_assert_int_eq(ga_gene_count(c, &sp), want);
    }
    ga_space all = space(GENE_ALL);
    ck_assert_int_eq(ga_gene_count(c, &all), 1 + 16 + 80 + 240);
    sim_config_free(c);
}
END_TEST

/* ---- ga_init_random ---- */

START_TEST(init_random_ranges_and_fixed_genes)
{
    sim_config *c = config();
    for (unsigned genes = 1; genes <= GENE_ALL; genes++) {
        ga_space sp = space(genes);
        for (uint64_t seed = 1; seed <= 20; seed++) {
            rng r;
            rng_seed(&r, seed);
            ga_init_random(c, &sp, &r);
            check_ranges(c, &sp);
            if (!(genes & GENE_V)) ck_assert_uint_eq(c->interval, sp.v_fixed);
            for (int i = 0; i < NODES && !(genes & GENE_I); i++) ck_assert_uint_eq(c->inject[i], 0);
            for (int k = 0; k < PORTS && !(genes & GENE_C); k++) ck_assert_uint_eq(c->scheme[k], sp.c_fixed);
            for (int k = 0; k < QLISTS && !(genes & GENE_Q); k++) ck_assert(is_identity(c->qorder + k * NPORTS));
        }
    }
    sim_config_free(c);
}
END_TEST

/* Over the full range: in 300 draws of V (33 values) both ends appear
 * (each missed with probability (32/33)^300 < 1e-4); 300 x 80 schemes hit
 * all ten; I reaches 0 and imax; most Q lists leave the identity (a random
 * permutation is the identity with probability 1/120). */
START_TEST(init_random_covers_the_ranges)
{
    sim_config *c = config();
    ga_space sp = space(GENE_ALL);
    rng r;
    rng_seed(&r, 42);
    int vlo = 0, vhi = 0, ilo = 0, ihi = 0, identity = 0;
    unsigned schemes = 0;
    for (int t = 0; t < 300; t++) {
        ga_init_random(c, &sp, &r);
        check_ranges(c, &sp); /* V = vmax + 1 would show up here */
        vlo |= c->interval == sp.vmin;
        vhi |= c->interval == sp.vmax;
        for (int i = 0; i < NODES; i++) ilo |= c->inject[i] == 0, ihi |= c->inject[i] == sp.imax;
        for (int k = 0; k < PORTS; k++) schemes |= 1u << c->scheme[k];
        for (int k = 0; k < QLISTS; k++) identity += is_identity(c->qorder + k * NPORTS);
    }
    ck_assert(vlo && vhi && ilo && ihi);
    ck_assert_uint_eq(schemes, (1u << VCSEL_NSCHEMES) - 1);
    /* Expected 300 x 240 / 120 = 600 identities; far from all 72000. */
    ck_assert_int_lt(identity, 1200);
    sim_config_free(c);
}
END_TEST

START_TEST(init_random_same_seed_same_chromosome)
{
    sim_config *a = config(), *b = config();
    ga_space sp = space(GENE_ALL);
    rng ra, rb;
    rng_seed(&ra, 7);
    rng_seed(&rb, 7);
    ga_init_random(a, &sp, &ra);
    ga_init_random(b, &sp, &rb);
    ck_assert(configs_equal(a, b));
    ck_assert_mem_eq(&ra, &rb, sizeof ra); /* both consumed the same draws */
    rng_seed(&rb, 8);
    ga_init_random(b, &sp, &rb);
    ck_assert(!configs_equal(a, b));
    sim_config_free(a);
    sim_config_free(b);
}
END_TEST

/* ---- ga_mutate_paper ---- */

/* k = max(1, round(ratio x genes)) genes are redrawn, with repetition and
 * possibly to the same value: never more than k differ.  With ratio 0.05 of
 * 337 genes, k = 17. */
START_TEST(mutate_paper_changes_at_most_k_genes)
{
    sim_config *c = config(), *before = config();
    ga_space sp = space(GENE_ALL);
    rng r;
    rng_seed(&r, 3);
    ga_init_random(c, &sp, &r);
    int most = 0, total = 0;
    for (int t = 0; t < 200; t++) {
        sim_config_copy(before, c);
        ga_mutate_paper(c, &sp, 0.05, &r);
        int d = ndiff(before, c);
        ck_assert_int_le(d, 17);
        if (d > most) most = d;
        total += d;
        check_ranges(c, &sp);
    }
    /* A redrawn gene keeps its value with probability 1/10 (scheme), 1/21
     * (I), 1/33 (V) or 1/120 (Q), and two of 17 picks among 337 collide
     * rarely: on average well above 12 of the 17 change. */
    ck_assert_int_ge(most, 15);
    ck_assert_int_gt(total, 200 * 12);
    /* A tiny ratio still redraws one gene. */
    int changed = 0;
    for (int t = 0; t < 50; t++) {
        sim_config_copy(before, c);
        ga_mutate_paper(c, &sp, 1e-6, &r);
        int d = ndiff(before, c);
        ck_assert_int_le(d, 1);
        changed += d;
    }
    ck_assert_int_gt(changed, 30);
    sim_config_free(c);
    sim_config_free(before);
}
END_TEST

/* Only evolved groups change; the others keep whatever they held. */
START_TEST(mutate_paper_only_evolved_groups)
{
    sim_config *c = config(), *before = config();
    ga_space all = space(GENE_ALL);
    rng r;
    rng_seed(&r, 5);
    ga_init_random(c, &all, &r);
    for (unsigned genes = 1; genes <= GENE_ALL; genes++) {
        ga_space sp = space(genes);
        for (int t = 0; t < 20; t++) {
            sim_config_copy(before, c);
            ga_mutate_paper(c, &sp, 0.2, &r);
            if (!(genes & GENE_V)) ck_assert_uint_eq(c->interval, before->interval);
            if (!(genes & GENE_I)) ck_assert_mem_eq(c->inject, before->inject, sizeof *c->inject * NODES);
            if (!(genes & GENE_C)) ck_assert_mem_eq(c->scheme, before->scheme, PORTS);
            if (!(genes & GENE_Q)) ck_assert_mem_eq(c->qorder, before->qorder, (size_t)QLISTS * NPORTS);
            check_ranges(c, &sp);
        }
    }
    /* Ratio 1 redraws 337 genes: most of them end up different. */
    sim_config_copy(before, c);
    ga_mutate_paper(c, &all, 1.0, &r);
    ck_assert_int_gt(ndiff(before, c), 337 / 2);
    sim_config_free(c);
    sim_config_free(before);
}
END_TEST

START_TEST(mutate_paper_same_seed_same_result)
{
    sim_config *a = config(), *b = config();
    ga_space sp = space(GENE_ALL);
    rng ra, rb;
    rng_seed(&ra, 11);
    ga_init_random(a, &sp, &ra);
    sim_config_copy(b, a);
    rb = ra;
    ga_mutate_paper(a, &sp, 0.1, &ra);
    ga_mutate_paper(b, &sp, 0.1, &rb);
    ck_assert(configs_equal(a, b));
    sim_config_free(a);
    sim_config_free(b);
}
END_TEST

/* ---- ga_crossover ---- */

/* Two parents that differ in every V, I and scheme gene and most Q lists. */
static void two_parents(sim_config *a, sim_config *b, const ga_space *sp, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    ga_init_random(a, sp, &r);
    ga_init_random(b, sp, &r);
    b->interval = a->interval == sp->vmax ? sp->vmin : a->interval + 1;
    for (int i = 0; i < NODES; i++) b->inject[i] = (uint16_t)((a->inject[i] + 1) % (sp->imax + 1));
    for (int k = 0; k < PORTS; k++) b->scheme[k] = (uint8_t)((a->scheme[k] + 1) % VCSEL_NSCHEMES);
}

/* Every gene of the child is a's or b's; a Q list comes whole from one of
 * them; b is untouched. */
START_TEST(crossover_copies_only_from_the_parents)
{
    sim_config *a = config(), *b = config(), *a0 = config(), *b0 = config();
    ga_space sp = space(GENE_ALL);
    rng r;
    rng_seed(&r, 9);
    for (uint64_t seed = 1; seed <= 10; seed++) {
        two_parents(a, b, &sp, seed);
        sim_config_copy(a0, a);
        sim_config_copy(b0, b);
        ga_crossover(a, b, &sp, 0.5, &r);
        ck_assert(configs_equal(b, b0));
        ck_assert(a->interval == a0->interval || a->interval == b0->interval);
        for (int i = 0; i < NODES; i++) ck_assert(a->inject[i] == a0->inject[i] || a->inject[i] == b0->inject[i]);
        for (int k = 0; k < PORTS; k++) ck_assert(a->scheme[k] == a0->scheme[k] || a->scheme[k] == b0->scheme[k]);
        for (int k = 0; k < QLISTS; k++) {
            const uint8_t *q = a->qorder + k * NPORTS;
            ck_assert(!memcmp(q, a0->qorder + k * NPORTS, NPORTS) || !memcmp(q, b0->qorder + k * NPORTS, NPORTS));
        }
    }
    sim_config_free(a); sim_config_free(b); sim_config_free(a0); sim_config_free(b0);
}
END_TEST

/* Rate 0 copies nothing, rate 1 every evolved gene; a gene group that does
 * not evolve is never copied.  At rate 0.4 about 0.4 of the 97 V, I and C
 * genes (all different between the parents) come from b: over 50 crossings
 * 4850 x 0.4 = 1940, standard deviation 34. */
START_TEST(crossover_rate_and_groups)
{
    sim_config *a = config(), *b = config(), *a0 = config();
    ga_space all = space(GENE_ALL);
    rng r;
    rng_seed(&r, 13);
    two_parents(a, b, &all, 1);
    sim_config_copy(a0, a);
    ga_crossover(a, b, &all, 0.0, &r);
    ck_assert(configs_equal(a, a0));
    ga_crossover(a, b, &all, 1.0, &r);
    ck_assert(configs_equal(a, b));

    ga_space vq = space(GENE_V | GENE_Q);
    sim_config_copy(a, a0);
    ga_crossover(a, b, &vq, 1.0, &r);
    ck_assert_uint_eq(a->interval, b->interval);
    ck_assert_mem_eq(a->qorder, b->qorder, (size_t)QLISTS * NPORTS);
    ck_assert_mem_eq(a->inject, a0->inject, sizeof *a->inject * NODES);
    ck_assert_mem_eq(a->scheme, a0->scheme, PORTS);

    int from_b = 0;
    for (int t = 0; t < 50; t++) {
        sim_config_copy(a, a0);
        ga_crossover(a, b, &all, 0.4, &r);
        from_b += a->interval == b->interval;
        for (int i = 0; i < NODES; i++) from_b += a->inject[i] == b->inject[i];
        for (int k = 0; k < PORTS; k++) from_b += a->scheme[k] == b->scheme[k];
    }
    int n = 50 * (1 + NODES + PORTS);
    ck_assert_int_gt(from_b, (int)(0.4 * n - 5 * 34));
    ck_assert_int_lt(from_b, (int)(0.4 * n + 5 * 34));
    sim_config_free(a); sim_config_free(b); sim_config_free(a0);
}
END_TEST

START_TEST(crossover_same_seed_same_result)
{
    sim_config *a = config(), *b = config(), *c = config();
    ga_space sp = space(GENE_ALL);
    two_parents(a, b, &sp, 4);
    sim_config_copy(c, a);
    rng ra, rc;
    rng_seed(&ra, 21);
    rc = ra;
    ga_crossover(a, b, &sp, 0.4, &ra);
    ga_crossover(c, b, &sp, 0.4, &rc);
    ck_assert(configs_equal(a, c));
    sim_config_free(a); sim_config_free(b); sim_config_free(c);
}
END_TEST

/* ---- ga_mutate_local ---- */

static ga_effective *effective(const char *pattern, traffic **tp)
{
    char err[128];
    traffic *t = traffic_new(pattern, N, 1, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    sim_params p;
    sim_params_default(&p);
    p.n = N;
    ga_effective *e = ga_effective_new(&p, t->dest);
    ck_assert_ptr_nonnull(e);
    *tp = t;
    return e;
}

static int member(const int32_t *set, int n, int x)
{
    for (int k = 0; k < n; k++)
        if (set[k] == x) return k;
    return -1;
}

/* One step changes at most one gene, and only an effective one: V or a
 * sender's I by 1..3 (less only at a range end), an effective port's scheme
 * to another scheme, or an effective Q list by swapping two of its
 * competing inputs. */
START_TEST(mutate_local_one_step_on_effective_genes)
{
    traffic *t;
    ga_effective *e = effective("brev", &t);
    ck_assert_int_gt(e->nsenders, 0);
    ck_assert_int_gt(e->nports, 0);
    ck_assert_int_gt(e->nqlists, 0);
    sim_config *c = config(), *before = config();
    ga_space sp = space(GENE_ALL);
    rng r;
    rng_seed(&r, 17);
    ga_init_random(c, &sp, &r);
    int seen[16] = { 0 };
    for (int step = 0; step < 4000; step++) {
        sim_config_copy(before, c);
        ga_mutate_local(c, &sp, e, 1, (ga_weighting)(step & 1), &r);
        unsigned g = 0;
        int i = -1;
        int d = diff_genes(before, c, &g, &i);
        ck_assert_int_le(d, 1);
        check_ranges(c, &sp);
        if (d == 0) {
            /* Only a clamped V or I can stay put. */
            continue;
        }
        seen[g] = 1;
        if (g == GENE_V) {
            int dv = abs((int)c->interval - (int)before->interval);
            ck_assert(dv >= 1 && dv <= 3);
        } else if (g == GENE_I) {
            ck_assert_int_ge(member(e->senders, e->nsenders, i), 0);
            int di = abs((int)c->inject[i] - (int)before->inject[i]);
            ck_assert(di >= 1 && di <= 3);
        } else if (g == GENE_C) {
            ck_assert_int_ge(member(e->ports, e->nports, i), 0);
        } else {
            int q = member(e->qlists, e->nqlists, i);
            ck_assert_int_ge(q, 0);
            const uint8_t *x = before->qorder + i * NPORTS, *y = c->qorder + i * NPORTS;
            int pos[NPORTS], np = 0;
            for (int j = 0; j < NPORTS; j++)
                if (x[j] != y[j]) pos[np++] = j;
            ck_assert_int_eq(np, 2);
            ck_assert(x[pos[0]] == y[pos[1]] && x[pos[1]] == y[pos[0]]);
            ck_assert(e->qinputs[q] & (1u << x[pos[0]]));
            ck_assert(e->qinputs[q] & (1u << x[pos[1]]));
        }
    }
    ck_assert(seen[GENE_V] && seen[GENE_I] && seen[GENE_C] && seen[GENE_Q]);
    sim_config_free(c); sim_config_free(before);
    ga_effective_free(e);
    traffic_free(t);
}
END_TEST

/* A scheme or Q-list step has no range end to clamp at: with only C or
 * only Q evolving, every step changes exactly one gene (a scheme to
 * another scheme, a Q list by a swap of two different inputs). */
START_TEST(mutate_local_scheme_and_queue_steps_always_change)
{
    traffic *t;
    ga_effective *e = effective("brev", &t);
    const unsigned groups[2] = { GENE_C, GENE_Q };
    for (int gi = 0; gi < 2; gi++) {
        sim_config *c = config(), *before = config();
        ga_space sp = space(groups[gi]);
        rng r;
        rng_seed(&r, 29 + (uint64_t)gi);
        ga_init_random(c, &sp, &r);
        for (int step = 0; step < 2000; step++) {
            sim_config_copy(before, c);
            ga_mutate_local(c, &sp, e, 1, (ga_weighting)(step & 1), &r);
            unsigned g = 0;
            int i = -1;
            ck_assert_int_eq(diff_genes(before, c, &g, &i), 1);
            ck_assert_uint_eq(g, groups[gi]);
        }
        sim_config_free(c); sim_config_free(before);
    }
    ga_effective_free(e);
    traffic_free(t);
}
END_TEST

/* k steps change at most k genes, never a non-effective one, never a group
 * that does not evolve; k = 0 changes nothing. */
START_TEST(mutate_local_k_steps_stay_effective)
{
    traffic *t;
    ga_effective *e = effective("shfl", &t);
    sim_config *c = config(), *before = config();
    ga_space all = space(GENE_ALL);
    rng r;
    rng_seed(&r, 19);
    ga_init_random(c, &all, &r);
    for (unsigned genes = 1; genes <= GENE_ALL; genes++) {
        ga_space sp = space(genes);
        for (int k = 0; k <= 8; k++) {
            sim_config_copy(before, c);
            ga_mutate_local(c, &sp, e, k, GA_WEIGHT_GENES, &r);
            ck_assert_int_le(ndiff(before, c), k);
            check_ranges(c, &sp);
            if (!(genes & GENE_V)) ck_assert_uint_eq(c->interval, before->interval);
            for (int n = 0; n < NODES; n++)
                if (!(genes & GENE_I) || member(e->senders, e->nsenders, n) < 0)
                    ck_assert_uint_eq(c->inject[n], before->inject[n]);
            for (int p = 0; p < PORTS; p++)
                if (!(genes & GENE_C) || member(e->ports, e->nports, p) < 0)
                    ck_assert_uint_eq(c->scheme[p], before->scheme[p]);
            for (int q = 0; q < QLISTS; q++)
                if (!(genes & GENE_Q) || member(e->qlists, e->nqlists, q) < 0)
                    ck_assert_mem_eq(c->qorder + q * NPORTS, before->qorder + q * NPORTS, NPORTS);
        }
    }
    sim_config_free(c); sim_config_free(before);
    ga_effective_free(e);
    traffic_free(t);
}
END_TEST

/* V and I are clamped: pushed 200 steps from an end, they never leave the
 * range, and a space with vmin == vmax pins V. */
START_TEST(mutate_local_clamps_at_range_ends)
{
    traffic *t;
    ga_effective *e = effective("brev", &t);
    sim_config *c = config();
    ga_space sp = space(GENE_V | GENE_I);
    rng r;
    rng_seed(&r, 23);
    c->interval = sp.vmax;
    for (int i = 0; i < NODES; i++) c->inject[i] = sp.imax;
    for (int step = 0; step < 200; step++) {
        ga_mutate_local(c, &sp, e, 3, GA_WEIGHT_GROUPS, &r);
        check_ranges(c, &sp);
    }
    ga_space pinned = sp;
    pinned.vmin = pinned.vmax = 30;
    c->interval = 30;
    for (int step = 0; step < 50; step++) {
        ga_mutate_local(c, &pinned, e, 2, GA_WEIGHT_GROUPS, &r);
        ck_assert_uint_eq(c->interval, 30);
    }
    sim_config_free(c);
    ga_effective_free(e);
    traffic_free(t);
}
END_TEST

/* Nothing to mutate: every node addressed to itself (skipped) leaves no
 * effective I, C or Q gene, so only V can change. */
START_TEST(mutate_local_without_effective_genes)
{
    sim_params p;
    sim_params_default(&p);
    p.n = N;
    int32_t dest[NODES];
    for (int i = 0; i < NODES; i++) dest[i] = i;
    ga_effective *e = ga_effective_new(&p, dest);
    ck_assert_int_eq(e->nsenders + e->nports + e->nqlists, 0);
    sim_config *c = config(), *before = config();
    ga_space icq = space(GENE_I | GENE_C | GENE_Q);
    rng r;
    rng_seed(&r, 29);
    ga_init_random(c, &icq, &r);
    sim_config_copy(before, c);
    ga_mutate_local(c, &icq, e, 8, GA_WEIGHT_GROUPS, &r);
    ga_mutate_local(c, &icq, e, 8, GA_WEIGHT_GENES, &r);
    ck_assert(configs_equal(c, before));
    ga_space all = space(GENE_ALL);
    c->interval = 20;
    ga_mutate_local(c, &all, e, 1, GA_WEIGHT_GENES, &r);
    unsigned g = 0;
    int i;
    ck_assert_int_eq(diff_genes(before, c, &g, &i), 1);
    ck_assert_uint_eq(g, GENE_V);
    /* With self-addressed packets sent, every node sends, but over P only:
     * one VC per port and one input per output VC, so still no C or Q gene. */
    p.self = SELF_SEND;
    ga_effective *s = ga_effective_new(&p, dest);
    ck_assert_int_eq(s->nsenders, NODES);
    ck_assert_int_eq(s->nports, 0);
    ck_assert_int_eq(s->nqlists, 0);
    ga_effective_free(s);
    sim_config_free(c); sim_config_free(before);
    ga_effective_free(e);
}
END_TEST

/* The weighting's odds.  By genes, V is one share among 1 + senders + ports
 * + qlists; by groups, each of the four non-empty groups is picked with
 * probability 1/4 first.  Count single steps that pick V (V starts mid-range,
 * so a V step always changes V). */
START_TEST(mutate_local_weighting_odds)
{
    traffic *t;
    ga_effective *e = effective("brev", &t);
    sim_config *c = config();
    ga_space sp = space(GENE_ALL);
    rng r;
    rng_seed(&r, 31);
    ga_init_random(c, &sp, &r);
    const int trials = 4000;
    for (int w = 0; w < 2; w++) {
        int v_steps = 0;
        for (int t2 = 0; t2 < trials; t2++) {
            c->interval = 24;
            ga_mutate_local(c, &sp, e, 1, (ga_weighting)w, &r);
            v_steps += c->interval != 24;
        }
        double pv = w == GA_WEIGHT_GROUPS ? 0.25 : 1.0 / (1 + e->nsenders + e->nports + e->nqlists);
        double mean = trials * pv, sd = sqrt(trials * pv * (1 - pv));
        ck_assert_msg(fabs(v_steps - mean) < 5 * sd + 1, "weighting %d: %d V steps, expected %.0f +- %.0f", w,
                      v_steps, mean, sd);
    }
    ga_effective_free(e);
    sim_config_free(c);
    traffic_free(t);
}
END_TEST

START_TEST(mutate_local_same_seed_same_result)
{
    traffic *t;
    ga_effective *e = effective("trns", &t);
    sim_config *a = config(), *b = config();
    ga_space sp = space(GENE_ALL);
    rng ra, rb;
    rng_seed(&ra, 37);
    ga_init_random(a, &sp, &ra);
    sim_config_copy(b, a);
    rb = ra;
    for (int k = 1; k <= 8; k++) {
        ga_mutate_local(a, &sp, e, k, (ga_weighting)(k & 1), &ra);
        ga_mutate_local(b, &sp, e, k, (ga_weighting)(k & 1), &rb);
    }
    ck_assert(configs_equal(a, b));
    sim_config_free(a); sim_config_free(b);
    ga_effective_free(e);
    traffic_free(t);
}
END_TEST

/* ---- ga_advance_late, by hand ---- */

/* Two slices on 4x4: tails (index src * 2 + slice) of a parent that lasted
 * 51 cycles (last tail 50).  With a window of 3 the late packets are those
 * ejected in 48..50: (3, slice 1) at 50 and (5, slice 0) at 48; (7, 1) at
 * 47 joins with a window of 4; (9, 0) at 10 never. */
START_TEST(advance_late_moves_only_late_sources_earlier)
{
    int64_t tails[2 * NODES];
    for (int k = 0; k < 2 * NODES; k++) tails[k] = -1;
    tails[3 * 2 + 1] = 50;
    tails[5 * 2 + 0] = 48;
    tails[7 * 2 + 1] = 47;
    tails[9 * 2 + 0] = 10;
    ga_space sp = space(GENE_ALL);
    sim_config *base = config(), *c = config();
    base->inject[3] = 10;
    base->inject[5] = 2;
    base->inject[7] = 5;
    base->inject[9] = 0;
    const int windows[] = { 3, 4, 1 };
    for (int w = 0; w < 3; w++) {
        rng r;
        rng_seed(&r, 5);
        int picked[NODES] = { 0 }, seen3[11] = { 0 };
        for (int t = 0; t < 3000; t++) {
            sim_config_copy(c, base);
            ck_assert_int_eq(ga_advance_late(c, &sp, tails, 2 * NODES, 2, windows[w], &r), 1);
            unsigned grp = 0;
            int idx = 0;
            /* Every late source starts above 0, so exactly one gene moves. */
            ck_assert_int_eq(diff_genes(c, base, &grp, &idx), 1);
            ck_assert_uint_eq(grp, GENE_I);
            picked[idx]++;
            int before = base->inject[idx], after = c->inject[idx];
            int want_lo = before - 3 < 0 ? 0 : before - 3;
            ck_assert_msg(after < before && after >= want_lo, "node %d: %d -> %d", idx, before, after);
            if (idx == 3) seen3[after]++;
        }
        ck_assert_int_gt(picked[3], 0);
        ck_assert_int_eq(picked[9], 0);
        if (windows[w] == 4) ck_assert_int_gt(picked[7], 0);
        else ck_assert_int_eq(picked[7], 0);
        if (windows[w] == 1) ck_assert_int_eq(picked[5], 0);
        else {
            ck_assert_int_gt(picked[5], 0);
            /* Uniform over the late packets: 1/2 (or 1/3) each, within 5 sigma. */
            double share = windows[w] == 4 ? 1.0 / 3 : 0.5, sd = sqrt(3000 * share * (1 - share));
            ck_assert_msg(fabs(picked[3] - 3000 * share) < 5 * sd, "window %d: node 3 %d of 3000", windows[w], picked[3]);
        }
        for (int v = 7; v <= 9; v++) ck_assert_msg(seen3[v] > 0, "window %d: step to %d never seen", windows[w], v);
    }
    /* Nothing to aim at: I fixed, or no packet sent. */
    rng r;
    rng_seed(&r, 1);
    sp = space(GENE_V | GENE_C | GENE_Q);
    sim_config_copy(c, base);
    ck_assert_int_eq(ga_advance_late(c, &sp, tails, 2 * NODES, 2, 3, &r), 0);
    ck_assert(configs_equal(c, base));
    sp = space(GENE_ALL);
    for (int k = 0; k < 2 * NODES; k++) tails[k] = -1;
    ck_assert_int_eq(ga_advance_late(c, &sp, tails, 2 * NODES, 2, 3, &r), 0);
    ck_assert(configs_equal(c, base));
    sim_config_free(base);
    sim_config_free(c);
}
END_TEST

/* ---- ga_effective_new, by hand ---- */

/* On 4x4, (0,0) -> (0,2) and (0,1) -> (0,3) go N (Y only).  Link
 * (0,1)->(0,2) is the middle dateline: the first packet takes VC 1 there and
 * on to (0,2)'s ejection; the second starts at (0,1) on VC 0 and crosses the
 * same dateline, so node 1's N port carries only VC 1 (no scheme gene).  Node
 * 1's N output VC 1 is requested from S (the first packet) and P (the
 * second): one Q gene, (1 * 5 + N) * 3 + 1, inputs S and P. */
START_TEST(effective_genes_vertical_pair)
{
    sim_params p;
    sim_params_default(&p);
    p.n = N;
    int32_t dest[NODES];
    for (int i = 0; i < NODES; i++) dest[i] = i;
    dest[0] = 2 * N;     /* (0,0) -> (0,2) */
    dest[N] = 3 * N;     /* (0,1) -> (0,3) */
    ga_effective *e = ga_effective_new(&p, dest);
    ck_assert_int_eq(e->nsenders, 2);
    ck_assert_int_eq(e->senders[0], 0);
    ck_assert_int_eq(e->senders[1], N);
    ck_assert_int_eq(e->nports, 0);
    ck_assert_int_eq(e->nqlists, 1);
    ck_assert_int_eq(e->qlists[0], (N * NPORTS + PORT_N) * VCS + 1);
    ck_assert_uint_eq(e->qinputs[0], (1u << PORT_S) | (1u << PORT_P));
    ga_effective_free(e);
    ga_effective_free(NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("operators");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gene_count_by_group);
    tcase_add_test(tc, init_random_ranges_and_fixed_genes);
    tcase_add_test(tc, init_random_covers_the_ranges);
    tcase_add_test(tc, init_random_same_seed_same_chromosome);
    tcase_add_test(tc, mutate_paper_changes_at_most_k_genes);
    tcase_add_test(tc, mutate_paper_only_evolved_groups);
    tcase_add_test(tc, mutate_paper_same_seed_same_result);
    tcase_add_test(tc, crossover_copies_only_from_the_parents);
    tcase_add_test(tc, crossover_rate_and_groups);
    tcase_add_test(tc, crossover_same_seed_same_result);
    tcase_add_test(tc, mutate_local_one_step_on_effective_genes);
    tcase_add_test(tc, mutate_local_scheme_and_queue_steps_always_change);
    tcase_add_test(tc, mutate_local_k_steps_stay_effective);
    tcase_add_test(tc, mutate_local_clamps_at_range_ends);
    tcase_add_test(tc, mutate_local_without_effective_genes);
    tcase_add_test(tc, mutate_local_weighting_odds);
    tcase_add_test(tc, mutate_local_same_seed_same_result);
    tcase_add_test(tc, effective_genes_vertical_pair);
    tcase_add_test(tc, advance_late_moves_only_late_sources_earlier);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
