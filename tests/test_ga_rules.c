/* Tests of the GA's rules that need no search run: signatures against an
 * independently computed golden value, scores, parameters and name tables
 * against their contracts, effective genes, the floor and the line shifts
 * worked out by hand.  The searches themselves are in test_ga.c. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#include "ga/chrom.h"
#include "ga/floor.h"
#include "ga/ga.h"
#include "ga/ga_internal.h"
#include "traffic/traffic.h"

/* [R-GA-GENE-1]: the golden value was computed with Python's zlib.crc32 over the encoding
 * as chrom.h documents it (4x4 torus, 3 VCs, V = 37, I[i] = 7i mod 29,
 * C[k] = 3k mod 10, Q list k = ((j + k mod 5) mod 5 for j = 0..4)). */
/* The genes of the golden values on `nodes` nodes, 3 VCs, V = 37. */
static sim_config *golden_genes(int nodes)
{
    sim_config *c = sim_config_new(nodes, 3, 0, 37);
    for (int i = 0; i < nodes; i++) c->inject[i] = (uint16_t)(i * 7 % 29);
    for (int k = 0; k < nodes * 5; k++) c->scheme[k] = (uint8_t)(k * 3 % 10);
    for (int k = 0; k < nodes * 15; k++)
        for (int j = 0; j < 5; j++) c->qorder[k * 5 + j] = (uint8_t)((j + k % 5) % 5);
    return c;
}

START_TEST(signature_golden)
{
    sim_config *c = golden_genes(16);
    ck_assert_uint_eq(chrom_encoded_size(4, 3), 1324);
    uint8_t buf[1324];
    ck_assert_uint_eq(chrom_signature(c, 4, buf), 0xf0389980u);
    /* Decoding gives the same genes back; a changed gene changes the signature. */
    sim_config *d = sim_config_new(16, 3, 0, 8);
    char err[128];
    ck_assert_int_eq(chrom_decode(d, buf, sizeof buf, err, sizeof err), 0);
    ck_assert_uint_eq(chrom_signature(d, 4, buf), 0xf0389980u);
    d->inject[3]++;
    ck_assert_uint_ne(chrom_signature(d, 4, buf), 0xf0389980u);
    /* Bad encodings are refused with a reason. */
    chrom_encode(c, 4, buf);
    ck_assert_int_ne(chrom_decode(d, buf, sizeof buf - 1, err, sizeof err), 0);
    buf[1324 - 1] = 9; /* the last Q list is no longer a permutation */
    ck_assert_int_ne(chrom_decode(d, buf, sizeof buf, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "permutation"));
    sim_config *e = sim_config_new(64, 3, 0, 8);
    chrom_encode(c, 4, buf);
    ck_assert_int_ne(chrom_decode(e, buf, sizeof buf, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "4x4"));
    sim_config_free(c); sim_config_free(d); sim_config_free(e);
}
END_TEST

/* A rectangle's encoding (chrom.h): byte 7 is 1 and u16 H, u16 0 follow V.
 * The golden value was computed with Python's zlib.crc32 over those bytes
 * (4 wide, 2 high, 3 VCs, the genes of signature_golden on 8 nodes). */
START_TEST(signature_rectangle)
{
    sim_config *c = golden_genes(8);
    ck_assert_uint_eq(chrom_grid_size(4, 2, 3), 672);
    ck_assert_uint_eq(chrom_grid_size(4, 4, 3), chrom_encoded_size(4, 3));   /* a square has no extra bytes */
    uint8_t buf[672];
    ck_assert_uint_eq(chrom_signature(c, 4, buf), 0xe299205cu);
    ck_assert_uint_eq(buf[7], 1);
    ck_assert_uint_eq(buf[12] | buf[13] << 8, 2);
    int w, h, vcs;
    ck_assert_int_eq(chrom_peek(buf, sizeof buf, &w, &h, &vcs), 0);
    ck_assert_int_eq(w, 4);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(vcs, 3);
    sim_config *d = sim_config_new(8, 3, 0, 8);
    char err[160];
    ck_assert_int_eq(chrom_decode_grid(d, 4, buf, sizeof buf, err, sizeof err), 0);
    ck_assert_uint_eq(chrom_signature(d, 4, buf), 0xe299205cu);
    /* The same node count in another shape is refused by its width. */
    ck_assert_int_ne(chrom_decode_grid(d, 8, buf, sizeof buf, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "4x2"));
    /* A shape byte other than 0 or 1, or a rectangle that names a square, is no chromosome. */
    buf[7] = 2;
    ck_assert_int_ne(chrom_peek(buf, sizeof buf, &w, &h, &vcs), 0);
    buf[7] = 1;
    buf[12] = 4;
    ck_assert_int_ne(chrom_peek(buf, sizeof buf, &w, &h, &vcs), 0);
    sim_config_free(c);
    sim_config_free(d);
}
END_TEST

/* chrom_signature_follow against chrom_signature (checked on the golden
 * values above) on each field's first and last gene, both bytes of an
 * injection timing and all four of V, on a 3x3 whose scheme and queue-order
 * runs (45 and 675 bytes) end in a partial block of eight, a rectangle's
 * offsets, then a random walk of 0-5 changes a step; the base is made the
 * chromosome each time. */
static void follow_ok(sim_config *base, uint32_t *crc, const sim_config *c, int w, uint8_t *buf)
{
    const uint32_t want = chrom_signature(c, w, buf);
    *crc = chrom_signature_follow(base, *crc, c, w);
    ck_assert_uint_eq(*crc, want);
    ck_assert_uint_eq(base->interval, c->interval);
    ck_assert_int_eq(memcmp(base->inject, c->inject, sizeof *c->inject * (size_t)c->nodes), 0);
    ck_assert_int_eq(memcmp(base->scheme, c->scheme, (size_t)c->nodes * 5), 0);
    ck_assert_int_eq(memcmp(base->qorder, c->qorder, (size_t)c->nodes * 75), 0);
}

static void follow_edges(int nodes, int w)
{
    uint8_t buf[4096];
    sim_config *c = golden_genes(nodes), *base = golden_genes(nodes);
    uint32_t crc = chrom_signature(base, w, buf);
    const uint32_t first = crc;
    follow_ok(base, &crc, c, w, buf);          /* nothing differs: the same signature */
    ck_assert_uint_eq(crc, first);
    const size_t ns = (size_t)nodes * 5, nq = (size_t)nodes * 75;
    c->interval = 37u + (5u << 8) + (7u << 16) + (9u << 24);   /* every byte of V */
    follow_ok(base, &crc, c, w, buf);
    c->inject[0] = 300;                        /* both bytes */
    c->inject[nodes - 1] = 1;
    follow_ok(base, &crc, c, w, buf);
    c->scheme[0] = 9;
    c->scheme[ns - 1] = (uint8_t)((c->scheme[ns - 1] + 1) % 10);
    follow_ok(base, &crc, c, w, buf);
    c->qorder[0] ^= 7;
    c->qorder[nq - 1] ^= 1;                    /* the encoding's last byte */
    follow_ok(base, &crc, c, w, buf);
    c->qorder[nq - 9] ^= 2;                    /* beside it, in the block before */
    c->scheme[ns - 9] ^= 3;
    follow_ok(base, &crc, c, w, buf);
    rng r;
    rng_seed(&r, 11);
    for (int step = 0; step < 300; step++) {
        const int k = (int)rng_below(&r, 6);
        for (int j = 0; j < k; j++) {
            switch (rng_below(&r, 4)) {
            case 0: c->interval = rng_below(&r, 1000); break;
            case 1: c->inject[rng_below(&r, (uint32_t)nodes)] = (uint16_t)rng_below(&r, 600); break;
            case 2: c->scheme[rng_below(&r, (uint32_t)ns)] = (uint8_t)rng_below(&r, 10); break;
            default: c->qorder[rng_below(&r, (uint32_t)nq)] = (uint8_t)rng_below(&r, 5); break;
            }
        }
        follow_ok(base, &crc, c, w, buf);
    }
    sim_config_free(c);
    sim_config_free(base);
}

START_TEST(signature_follow)
{
    follow_edges(16, 4);
    follow_edges(9, 3);
    follow_edges(8, 4);   /* 4x2: the rectangle's four extra bytes move every offset */
}
END_TEST

START_TEST(parameter_checks)
{
    ga_params gp;
    char err[256];
    ga_params_default(&gp);
    ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), 0);
    gp.watchdog = 100; gp.lifetime = 100;
    ck_assert_int_ne(ga_params_check(&gp, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "exclude"));
    ga_params_default(&gp);
    gp.crossover_rate = 1.5;
    ck_assert_int_ne(ga_params_check(&gp, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "crossover_rate"));
    ga_params_default(&gp);
    gp.pop = 0;
    ck_assert_int_ne(ga_params_check(&gp, err, sizeof err), 0);
    gp.pop = 1; /* one lineage: the default local search */
    ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), 0);
    char buf[8];
    ck_assert_str_eq(ga_genes_name(GENE_V | GENE_C | GENE_Q, buf), "V,C,Q");
}
END_TEST

/* Effective genes of two packets on a 4x4 torus, (0,0) -> (2,0) and
 * (1,0) -> (3,0): no port carries two VCs; one output VC, router 1's E on
 * VC 1 (link 1->2 is the middle dateline), is wanted by two inputs. */
START_TEST(effective_genes_single_packet)
{
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 4;
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[0] = 2;
    dest[1] = 3;   /* (1,0) -> (3,0) shares router 1's E VC0 with the first */
    ga_effective *e = ga_effective_new(&sp, dest);
    ck_assert_int_eq(e->nsenders, 2);
    ck_assert_int_eq(e->nports, 0);
    ck_assert_int_eq(e->nqlists, 1);
    ck_assert_int_eq(e->qlists[0], (1 * 5 + 1) * 3 + 1);
    ck_assert_uint_eq(e->qinputs[0], (1u << 3) | (1u << 4)); /* W and P */
    ga_effective_free(e);
}
END_TEST

/* Every name table has exactly its enum's COUNT entries, all set and
 * distinct, so parsers can take the length from the table. */
static void check_names(const char *const *names, size_t len, size_t count)
{
    ck_assert_uint_eq(len, count);
    for (size_t k = 0; k < count; k++) {
        ck_assert_ptr_nonnull(names[k]);
        ck_assert_uint_gt(strlen(names[k]), 0);
        for (size_t j = 0; j < k; j++) ck_assert_str_ne(names[j], names[k]);
    }
}
#define CHECK_NAMES(t, count) check_names(t, sizeof t / sizeof t[0], count)

START_TEST(name_tables_match_their_enums)
{
    CHECK_NAMES(ga_algo_names, GA_ALGO_COUNT);
    CHECK_NAMES(ga_fitness_names, GA_FIT_COUNT);
    CHECK_NAMES(ga_weight_names, GA_WEIGHT_COUNT);
    CHECK_NAMES(ga_ties_names, GA_TIES_COUNT);
    CHECK_NAMES(ga_key_names, GA_KEY_COUNT);
    CHECK_NAMES(ga_start_names, GA_START_COUNT);
    ck_assert_str_eq(ga_algo_names[GA_ALGO_PAPER], "paper");
    ck_assert_str_eq(ga_fitness_names[GA_FIT_TE], "te");
    ck_assert_str_eq(ga_key_names[GA_KEY_LATE_LB], "late-lb");
}
END_TEST

/* ga_score: the fitness first (duration; T_e (S' - 1) + t_d; T_e), then the
 * secondary key, lower is better; the key never spills into the fitness; a
 * run that did not finish scores above every finished one. */
START_TEST(score_orders_fitness_then_key)
{
    ga_params gp;
    ga_params_default(&gp);
    sim_metrics m = { .status = SIM_OK, .duration = 100, .te = 30, .or_ = 5, .ob = 6, .ib = 2, .lb = 7, .late = 3 };
    gp.sort_key = GA_KEY_NONE;
    gp.fitness = GA_FIT_DURATION;
    ck_assert_int_eq(ga_score(&gp, &m), (int64_t)100 << GA_KEY_BITS);
    gp.fitness = GA_FIT_ESTIMATE;
    gp.estimate_slices = 4;
    ck_assert_int_eq(ga_score_primary(ga_score(&gp, &m)), 30 * 3 + 100);
    gp.fitness = GA_FIT_TE;
    ck_assert_int_eq(ga_score_primary(ga_score(&gp, &m)), 30);

    gp.fitness = GA_FIT_DURATION;
    const struct { ga_sort_key key; int64_t sec; } keys[] = {
        { GA_KEY_OR, 5 }, { GA_KEY_OB, 6 }, { GA_KEY_TE, 30 }, { GA_KEY_TB, 2 + 6 }, { GA_KEY_LB, 7 }, { GA_KEY_LATE, 3 },
        { GA_KEY_TE_REV, ((int64_t)1 << GA_KEY_BITS) - 1 - 30 },
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        gp.sort_key = keys[k].key;
        ck_assert_int_eq(ga_score(&gp, &m), ((int64_t)100 << GA_KEY_BITS) + keys[k].sec);
    }
    /* late-lb: late first, then lb. */
    gp.sort_key = GA_KEY_LATE_LB;
    sim_metrics a = m, b = m;
    a.late = 1; a.lb = 60000;
    b.late = 2; b.lb = 0;
    ck_assert_int_lt(ga_score(&gp, &a), ga_score(&gp, &b));
    /* A huge key stays below one cycle of fitness. */
    gp.sort_key = GA_KEY_LB;
    b = m;
    b.lb = (int64_t)1 << 40;
    sim_metrics c = m;
    c.duration = 101;
    c.lb = 0;
    ck_assert_int_lt(ga_score(&gp, &b), ga_score(&gp, &c));
    ck_assert_int_eq(ga_score_primary(ga_score(&gp, &b)), 100);
    /* Unfinished runs lose to any finished one. */
    sim_metrics dead = m, slow = m;
    dead.status = SIM_DEADLOCK;
    slow.duration = 1000000000;
    ck_assert_int_gt(ga_score(&gp, &dead), ga_score(&gp, &slow));
    dead.status = SIM_TIMEOUT;
    ck_assert_int_gt(ga_score(&gp, &dead), ga_score(&gp, &slow));
}
END_TEST

/* The defaults pass their own check; the algorithm's defaults are the ones
 * ga.h documents; each bad field is refused with a message naming its flag. */
START_TEST(parameter_defaults_and_ranges)
{
    ga_params gp;
    char err[256];
    ga_params_default(&gp);
    ck_assert_int_eq(gp.algo, GA_ALGO_LOCAL);
    ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), 0);
    ga_params_for_algo(&gp, GA_ALGO_PAPER);
    ck_assert_int_eq(gp.algo, GA_ALGO_PAPER);
    ck_assert_int_eq(gp.pop, 50);
    ck_assert_int_eq(gp.children, 1);
    ck_assert_int_eq(gp.generations, 1000);
    ck_assert_int_eq(gp.max_evals, 0);
    ck_assert_int_eq(gp.sort_key, GA_KEY_NONE);
    ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), 0);
    ck_assert(gp.target == 0);
    ck_assert_int_eq(gp.record, GA_RECORD_ALL);
    ga_params_for_algo(&gp, GA_ALGO_LOCAL);
    ck_assert_int_eq(gp.pop, 1);
    ck_assert_int_eq(gp.children, 1);
    ck_assert_int_eq(gp.generations, GA_COUNT_MAX);
    ck_assert_int_eq(gp.max_evals, 50000);
    ck_assert_int_eq(gp.sort_key, GA_KEY_TAIL);
    ck_assert_int_eq(gp.weights, GA_WEIGHT_MIX);
    ck_assert(gp.target == 0.3);
    ck_assert(gp.shift == 0);
    ck_assert_int_eq(gp.target_window, 3);
    ck_assert_int_eq(gp.record, GA_RECORD_SPARSE);
    ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), 0);

    /* each message starts with the field (util/options.h: messages name fields, not flags) */
    const char *flags[] = { "pop ", "generations ", "train ", "mutation ", "max_genes ", "crossover_rate ",
                            "genes:", "arb:", "estimate_slices ", "perturb ", "target ", "target_window ",
                            "target_window ", "children ", "children ", "children " };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        ga_params_default(&gp);
        switch (k) {
        case 0: gp.pop = 0; break;
        case 1: gp.generations = -1; break;
        case 2: gp.train = -1; break;
        case 3: gp.mutation = 0; break;
        case 4: gp.max_genes = 0; break;
        case 5: gp.crossover_rate = -0.1; break;
        case 6: gp.genes = 0; break;
        case 7: gp.arb = VCSEL_NSCHEMES; break;
        case 8: gp.estimate_slices = 0; break;
        case 9: gp.perturb = -1; break;
        case 10: gp.target = 1.5; break;
        case 11: gp.target_window = 0; break;
        case 12: gp.target_window = GA_TARGET_WINDOW_MAX + 1; break;
        case 13: gp.children = 0; break;
        case 14: gp.children = GA_CHILDREN_MAX + 1; break;
        default: gp.children = 2; gp.perturb = 1; break; /* they exclude each other */
        }
        err[0] = '\0';
        ck_assert_int_eq(ga_params_check(&gp, err, sizeof err), -1);
        ck_assert_msg(!strncmp(err, flags[k], strlen(flags[k])), "case %zu: '%s' does not start with %s", k, err,
                      flags[k]);
    }
}
END_TEST

/* Every gene set's name, built independently: the letters of V, I, C, Q
 * present, in that order, joined by commas. */
START_TEST(gene_set_names)
{
    const char *letters[4] = { "V", "I", "C", "Q" };
    for (unsigned genes = 1; genes <= GENE_ALL; genes++) {
        char want[16] = "", buf[8];
        for (int b = 0; b < 4; b++)
            if (genes & (1u << b)) {
                if (want[0]) strcat(want, ",");
                strcat(want, letters[b]);
            }
        ck_assert_ptr_eq(ga_genes_name(genes, buf), buf);
        ck_assert_str_eq(buf, want);
    }
}
END_TEST

/* The floor, worked out by hand on a 4x4 torus with two 8-flit slices.
 * One packet (0,0) -> (2,0): 16 flits over two links, the first reached at
 * hop 1 with one link to go, so 16 + 1 + 1 + 1 = 19 (the source: 16 + 2 + 1
 * = 19); with V = 8 and I = 0 the run takes exactly that.  Add (1,0) -> (3,0):
 * link 1->2 carries 32 flits, reached at hop 1 (from 1) and left with 0 links
 * to go (by the packet from 0): 32 + 1 + 0 + 1 = 34, and no random chromosome
 * beats it. */
START_TEST(floor_by_hand)
{
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 4;
    sp.slices = 2;
    sp.flits = 8;
    int32_t dest[16];
    char err[256];
    for (int i = 0; i < 16; i++) dest[i] = i;
    dest[0] = 2;
    ck_assert_int_eq(ga_floor(&sp, dest), 19);
    sim *s = sim_new(&sp, dest, NULL, err, sizeof err);
    sim_config *c = sim_config_new(16, sp.vcs, 0, 8);
    sim_metrics m;
    ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
    ck_assert_int_eq(m.duration, 19);
    sim_free(s);

    dest[1] = 3;
    ck_assert_int_eq(ga_floor(&sp, dest), 34);
    s = sim_new(&sp, dest, NULL, err, sizeof err);
    rng r;
    rng_seed(&r, 7);
    ga_space space = { .genes = GENE_ALL, .vmin = 8, .vmax = 40, .imax = 20 };
    for (int k = 0; k < 300; k++) {
        ga_init_random(c, &space, &r);
        ck_assert_int_eq(sim_run(s, c, &m), SIM_OK);
        ck_assert_int_ge(m.duration, 34);
    }
    sim_free(s);
    sim_config_free(c);
}
END_TEST

/* The floor on an 8x4 rectangle, by hand: torn sends node i to i + 4 mod 32,
 * so (x, y) with x < 4 goes 4 hops east in its row and x >= 4 goes to
 * (x - 4, y + 1): 4 hops west, then on to the next row.  Two 8-flit slices:
 * 16 flits a packet.  The west link 4 -> 3 of a row carries the packets of
 * x = 4..7 (64 flits); the first reaches it at hop 1 (from x = 4) and the
 * one from x = 7 leaves it with the fewest links to go: on the torus 1 (one
 * hop to y + 1, the wrap link from row 3), so 64 + 1 + 1 + 1 = 67; on the
 * mesh row 3's packets go down 3 rows to row 0, so 64 + 1 + 3 + 1 = 69.  A
 * line shift on 8x4 moves a row of 8 or a column of 4. */
START_TEST(floor_and_shift_on_a_rectangle)
{
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 8;
    sp.h = 4;
    sp.slices = 2;
    sp.flits = 8;
    char err[256];
    traffic *t = traffic_new_grid("torn", 8, 4, 1, NULL, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ck_assert_int_eq(ga_floor(&sp, t->dest), 67);
    sp.topo = TOPO_MESH;
    sp.vc_rule = VCRULE_ANY;
    ck_assert_int_eq(ga_floor(&sp, t->dest), 69);
    traffic_free(t);

    int32_t dest[32];
    for (int i = 0; i < 32; i++) dest[i] = (i % 8 + 1) % 8 + (i / 8 + 1) % 4 * 8;   /* (x+1, y+1): all send */
    ga_effective *e = ga_effective_new(&sp, dest);
    ck_assert_int_eq(e->nsenders, 32);
    ck_assert_int_eq(e->width, 8);
    sim_config *c = sim_config_new(32, sp.vcs, 0, 8);
    ga_space space = { .genes = GENE_ALL, .vmin = 8, .vmax = 40, .imax = 20 };
    rng r;
    rng_seed(&r, 3);
    int rows = 0, cols = 0;
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 32; i++) c->inject[i] = 10;
        ga_shift_line(c, &space, e, &r);
        int moved = 0, rowmask = 0, colmask = 0;
        for (int i = 0; i < 32; i++)
            if (c->inject[i] != 10) {
                moved++;
                rowmask |= 1 << (i / 8);
                colmask |= 1 << (i % 8);
            }
        if (moved == 8 && (rowmask & (rowmask - 1)) == 0) rows++;
        else if (moved == 4 && (colmask & (colmask - 1)) == 0) cols++;
        else ck_abort_msg("a shift moved %d senders (rows %x, columns %x)", moved, rowmask, colmask);
    }
    ck_assert(rows > 50 && cols > 50);
    sim_config_free(c);
    ga_effective_free(e);
}
END_TEST

/* A line shift moves every sender of one row or one column by the same
 * +-1..3 and nothing else; a mix that gives all weight to Q moves Q only. */
START_TEST(line_shift_and_mix)
{
    sim_params sp;
    sim_params_default(&sp);
    sp.n = 4;
    int32_t dest[16];
    for (int i = 0; i < 16; i++) dest[i] = (i + 5) % 16;   /* (x+1, y+1): all send, X and Y traffic meet */
    ga_effective *e = ga_effective_new(&sp, dest);
    ck_assert_int_eq(e->nsenders, 16);
    ck_assert_int_gt(e->nqlists, 0);
    sim_config *c = sim_config_new(16, sp.vcs, 0, 8), *d = sim_config_new(16, sp.vcs, 0, 8);
    ga_space space = { .genes = GENE_ALL, .vmin = 8, .vmax = 40, .imax = 20 };
    rng r;
    rng_seed(&r, 3);
    int rows = 0, cols = 0;
    for (int t = 0; t < 200; t++) {
        for (int i = 0; i < 16; i++) c->inject[i] = 10;
        ga_shift_line(c, &space, e, &r);
        int moved = 0, delta = 0, rowmask = 0, colmask = 0;
        for (int i = 0; i < 16; i++)
            if (c->inject[i] != 10) {
                if (moved++ == 0) delta = c->inject[i] - 10;
                ck_assert_int_eq(c->inject[i] - 10, delta);
                rowmask |= 1 << (i / 4);
                colmask |= 1 << (i % 4);
            }
        ck_assert_int_eq(moved, 4);
        ck_assert(delta != 0 && delta >= -3 && delta <= 3);
        ck_assert((rowmask & (rowmask - 1)) == 0 || (colmask & (colmask - 1)) == 0);
        rows += (rowmask & (rowmask - 1)) == 0;
        cols += (colmask & (colmask - 1)) == 0;
    }
    ck_assert(rows > 50 && cols > 50);
    const double qonly[4] = { 0, 0, 0, 1 };
    for (int t = 0; t < 50; t++) {
        sim_config_copy(d, c);
        ck_assert_int_eq(ga_mutate_local_mix(d, &space, e, 3, qonly, &r), GENE_Q);
        ck_assert_int_eq(d->interval, c->interval);
        ck_assert(memcmp(d->inject, c->inject, sizeof *c->inject * 16) == 0);
        ck_assert(memcmp(d->scheme, c->scheme, 16 * NPORTS) == 0);
        sim_config_copy(c, d);
    }
    sim_config_free(c);
    sim_config_free(d);
    ga_effective_free(e);
}
END_TEST
int main(void)
{
    Suite *s = suite_create("ga_rules");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, signature_golden);
    tcase_add_test(tc, signature_rectangle);
    tcase_add_test(tc, signature_follow);
    tcase_add_test(tc, parameter_checks);
    tcase_add_test(tc, effective_genes_single_packet);
    tcase_add_test(tc, name_tables_match_their_enums);
    tcase_add_test(tc, score_orders_fitness_then_key);
    tcase_add_test(tc, parameter_defaults_and_ranges);
    tcase_add_test(tc, gene_set_names);
    tcase_add_test(tc, floor_by_hand);
    tcase_add_test(tc, floor_and_shift_on_a_rectangle);
    tcase_add_test(tc, line_shift_and_mix);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
