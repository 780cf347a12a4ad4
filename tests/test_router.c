/* Unit tests of router/: routing with datelines, VC-selection schemes, and
 * the queue-selection order.  Expected values are worked out by hand from
 * model.md. */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>

#include "router/arbiter.h"
#include "router/route.h"

/* Walk a header from src to dst and record the VC used on each link. */
static int walk(const route_params *rp, int src, int dst, int vcs_out[], int ports_out[])
{
    int node = src, in = PORT_P, vc = 0, hops = 0;
    for (;;) {
        int ovc, d = route_next(rp, node, in, vc, dst, &ovc);
        ports_out[hops] = d;
        vcs_out[hops] = ovc;
        if (d == PORT_P) return hops;
        node = route_neighbour(rp->n, node, d);
        in = route_opposite(d);
        vc = ovc;
        hops++;
        ck_assert_int_lt(hops, 64);
    }
}

START_TEST(neighbours_and_opposites)
{
    /* 4x4: node 5 = (1,1). */
    ck_assert_int_eq(route_neighbour(4, 5, PORT_N), 9);
    ck_assert_int_eq(route_neighbour(4, 5, PORT_E), 6);
    ck_assert_int_eq(route_neighbour(4, 5, PORT_S), 1);
    ck_assert_int_eq(route_neighbour(4, 5, PORT_W), 4);
    ck_assert_int_eq(route_neighbour(4, 3, PORT_E), 0);   /* wrap in x */
    ck_assert_int_eq(route_neighbour(4, 0, PORT_S), 12);  /* wrap in y */
    ck_assert_int_eq(route_opposite(PORT_N), PORT_S);
    ck_assert_int_eq(route_opposite(PORT_E), PORT_W);
    ck_assert_int_eq(route_opposite(PORT_P), PORT_P);
}
END_TEST

START_TEST(offsets_and_ties)
{
    route_params rp = { .n = 16, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK };
    ck_assert_int_eq(route_offset(&rp, 0, 3), 3);
    ck_assert_int_eq(route_offset(&rp, 0, 13), -3);
    ck_assert_int_eq(route_offset(&rp, 0, 8), 8);    /* tie, dest larger: + */
    ck_assert_int_eq(route_offset(&rp, 8, 0), -8);   /* tie, dest smaller: - */
    ck_assert_int_eq(route_offset(&rp, 12, 4), -8);
    rp.tie = TIE_PLUS;
    ck_assert_int_eq(route_offset(&rp, 8, 0), 8);
    rp.tie = TIE_MINUS;
    ck_assert_int_eq(route_offset(&rp, 0, 8), -8);
}
END_TEST

START_TEST(datelines)
{
    /* 8x8: datelines between x=7..0 and x=3..4 (and the same in y). */
    ck_assert(route_is_dateline(8, 7, PORT_E));
    ck_assert(route_is_dateline(8, 0, PORT_W));
    ck_assert(route_is_dateline(8, 3, PORT_E));
    ck_assert(route_is_dateline(8, 4, PORT_W));
    ck_assert(!route_is_dateline(8, 4, PORT_E));
    ck_assert(!route_is_dateline(8, 3, PORT_W));
    ck_assert(route_is_dateline(8, 7 * 8, PORT_N));
    ck_assert(route_is_dateline(8, 3 * 8, PORT_N));
    ck_assert(!route_is_dateline(8, 2 * 8, PORT_N));
}
END_TEST

START_TEST(wrap_link_raises_vc)
{
    route_params rp = { .n = 8, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK };
    int vcs[64], ports[64];
    /* (6,1) -> (1,1): dx = -5 -> +3, through x=7->0 (the wrap link). */
    int h = walk(&rp, 1 * 8 + 6, 1 * 8 + 1, vcs, ports);
    ck_assert_int_eq(h, 3);
    ck_assert_int_eq(ports[0], PORT_E); ck_assert_int_eq(vcs[0], 0); /* 6->7 */
    ck_assert_int_eq(vcs[1], 1);                                     /* 7->0, the dateline link */
    ck_assert_int_eq(vcs[2], 1);                                     /* 0->1 */
    ck_assert_int_eq(ports[3], PORT_P); ck_assert_int_eq(vcs[3], 1);
    /* Same in y only: (2,6) -> (2,1). */
    h = walk(&rp, 6 * 8 + 2, 1 * 8 + 2, vcs, ports);
    ck_assert_int_eq(h, 3);
    ck_assert_int_eq(vcs[0], 0); ck_assert_int_eq(vcs[1], 1); ck_assert_int_eq(vcs[2], 1);
    /* A route that crosses no dateline stays on VC 0: (0,0) -> (2,2). */
    h = walk(&rp, 0, 2 * 8 + 2, vcs, ports);
    ck_assert_int_eq(h, 4);
    for (int k = 0; k <= h; k++) ck_assert_int_eq(vcs[k], 0);
}
END_TEST

/* DATELINE_AFTER: the VC goes up on the hop after the dateline link, so
 * the dateline link itself is still on the old VC.  (6,1) -> (1,1) as above:
 * 6->7 VC 0, 7->0 (dateline) VC 0, 0->1 VC 1, ejection VC 1.  A route whose
 * last link is the dateline, (6,1) -> (0,1), goes up only at the ejection. */
START_TEST(dateline_after_link_raises_one_hop_later)
{
    route_params rp = { .n = 8, .tie = TIE_NOWRAP, .dateline = DATELINE_AFTER };
    int vcs[64], ports[64];
    int h = walk(&rp, 1 * 8 + 6, 1 * 8 + 1, vcs, ports);
    ck_assert_int_eq(h, 3);
    ck_assert_int_eq(vcs[0], 0);
    ck_assert_int_eq(vcs[1], 0);
    ck_assert_int_eq(vcs[2], 1);
    ck_assert_int_eq(ports[3], PORT_P); ck_assert_int_eq(vcs[3], 1);
    h = walk(&rp, 1 * 8 + 6, 1 * 8 + 0, vcs, ports);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(vcs[0], 0);
    ck_assert_int_eq(vcs[1], 0);
    ck_assert_int_eq(ports[2], PORT_P); ck_assert_int_eq(vcs[2], 1);
}
END_TEST

START_TEST(x_and_y_datelines_end_on_vc2)
{
    route_params rp = { .n = 8, .tie = TIE_NOWRAP, .dateline = DATELINE_ON_LINK };
    int vcs[64], ports[64];
    /* (6,6) -> (1,1): east across the wrap, then north across the wrap. */
    int h = walk(&rp, 6 * 8 + 6, 1 * 8 + 1, vcs, ports);
    ck_assert_int_eq(h, 6);
    ck_assert_int_eq(vcs[h], 2);
    ck_assert_int_eq(ports[0], PORT_E);
    ck_assert_int_eq(ports[3], PORT_N);
    /* (2,2) -> (5,5) crosses x=3->4 and y=3->4: also VC 2. */
    h = walk(&rp, 2 * 8 + 2, 5 * 8 + 5, vcs, ports);
    ck_assert_int_eq(h, 6);
    ck_assert_int_eq(vcs[0], 0);
    ck_assert_int_eq(vcs[1], 1); /* the x=3->4 link */
    ck_assert_int_eq(vcs[h], 2);
    /* After-link reading: the dateline link itself is still VC 0. */
    rp.dateline = DATELINE_AFTER;
    h = walk(&rp, 1 * 8 + 6, 1 * 8 + 1, vcs, ports);
    ck_assert_int_eq(vcs[0], 0); ck_assert_int_eq(vcs[1], 0); ck_assert_int_eq(vcs[2], 1);
}
END_TEST

/* The dateline bits of node 1 (x 1, y 0) of a 4x4 torus, by hand: its E
 * link (1 -> 2) and its S link (y 0 -> 3, the wrap) cross a dateline, and so
 * do the links into its E input (from x 2, going W across x 1.5) and its S
 * input (from y 3, going N across the wrap): bits 1, 2, 4 + 1, 4 + 2. */
START_TEST(dateline_bits)
{
    route_params rp = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    ck_assert_uint_eq(route_grid_dateline_bits(&rp, 1), 0x66);
    rp.topo = TOPO_MESH;
    ck_assert_uint_eq(route_grid_dateline_bits(&rp, 1), 0);
}
END_TEST

/* Local indices of a 3-VC router: k = port * 3 + vc; output VC k feeds the
 * opposite port's same VC (E vc 2 = 5 feeds W vc 2 = 11; P feeds P). */
START_TEST(local_tables)
{
    uint8_t port[NPORTS * 3], vc[NPORTS * 3], down[NPORTS * 3];
    route_local_tables(3, port, vc, down);
    ck_assert_uint_eq(port[5], PORT_E);
    ck_assert_uint_eq(vc[5], 2);
    ck_assert_uint_eq(down[5], 11);
    ck_assert_uint_eq(down[0], 6);  /* N vc 0 -> S vc 0 */
    ck_assert_uint_eq(down[13], 13); /* P vc 1 -> P vc 1 */
}
END_TEST

/* The any-VC rule's injection VC, by hand: round robin after the last one,
 * the first with room. */
START_TEST(injection_round_robin)
{
    ck_assert_int_eq(inject_vc_next(0x5, 0, 3), 2);  /* VC 1 full: 2 */
    ck_assert_int_eq(inject_vc_next(0x5, 2, 3), 0);  /* wraps to 0 */
    ck_assert_int_eq(inject_vc_next(0x2, 1, 3), 1);  /* only the last one: itself, last */
    ck_assert_int_eq(inject_vc_next(0x0, 1, 3), -1); /* none */
    ck_assert_int_eq(inject_vc_next(0xf, 3, 4), 0);
}
END_TEST

/* The VC-selection state machine: every entry is vcsel_pick's grant, and
 * an empty ready set keeps the state (C00 with VC 2 last, 3 VCs, ready
 * {0, 1}: by hand from the exhaustive test's rule, the table says the same
 * as vcsel_pick). */
START_TEST(vc_selection_table)
{
    for (int V = 1; V <= 4; V++) {
        uint16_t tab[VCSEL_NSCHEMES * 4 << 4];
        vcsel_table(V, tab);
        for (int s = 0; s < VCSEL_NSCHEMES; s++)
            for (int last = 0; last < V; last++) {
                const int st = s * V + last;
                ck_assert_uint_eq(tab[(size_t)st << V], (unsigned)(st | last << 8));
                for (unsigned r = 1; r < 1u << V; r++) {
                    const int c = vcsel_pick(s, r, last, V);
                    ck_assert_uint_eq(tab[((size_t)st << V) | r], (unsigned)((s * V + c) | c << 8));
                }
            }
    }
}
END_TEST

/* An order's rank in one look-up (qsel_index, qsel_rank_table): every
 * permutation's entry is its rank; by hand, the identity is rank 0 and the
 * reversed order rank 119. */
START_TEST(rank_lookup_table)
{
    uint8_t tab[QSEL_NINDEX];
    qsel_rank_table(tab);
    static const uint8_t id[5] = { 0, 1, 2, 3, 4 }, rev[5] = { 4, 3, 2, 1, 0 };
    ck_assert_uint_eq(tab[qsel_index(id)], 0);
    ck_assert_uint_eq(tab[qsel_index(rev)], 119);
    for (int r = 0; r < QSEL_NRANKS; r++) {
        uint8_t o[5];
        qsel_unrank(r, o);
        ck_assert_int_eq(tab[qsel_index(o)], r);
    }
}
END_TEST

START_TEST(scheme_names)
{
    for (int k = 0; k < VCSEL_NSCHEMES; k++) ck_assert_int_eq(vcsel_parse(vcsel_name(k)), k);
    ck_assert_int_eq(vcsel_parse("C10"), -1);
    ck_assert_int_eq(vcsel_parse("c00"), -1);
}
END_TEST

/* model.md's table, as the VC order each scheme searches with 3 VCs, given
 * the last granted VC.  The fixed ones ignore `last`. */
START_TEST(schemes_pick_expected_vc)
{
    const unsigned all = 7;
    /* Round robin from last = 1. */
    ck_assert_int_eq(vcsel_pick(0, all, 1, 3), 1);       /* C00 starts at last */
    ck_assert_int_eq(vcsel_pick(1, all, 1, 3), 2);       /* C01 at last+1 */
    ck_assert_int_eq(vcsel_pick(2, all, 1, 3), 1);       /* C02 at last, descending */
    ck_assert_int_eq(vcsel_pick(3, all, 1, 3), 0);       /* C03 at last-1 */
    ck_assert_int_eq(vcsel_pick(0, 0x5, 1, 3), 2);       /* C00: 1 absent -> 2 */
    ck_assert_int_eq(vcsel_pick(2, 0x6, 0, 3), 2);       /* C02 from 0 descending: 0,2,1 */
    ck_assert_int_eq(vcsel_pick(3, 0x3, 0, 3), 1);       /* C03 from 2: 2,1,0 */
    ck_assert_int_eq(vcsel_pick(1, 0x1, 2, 3), 0);       /* C01 from 0 */
    /* Fixed priorities. */
    ck_assert_int_eq(vcsel_pick(4, all, 2, 3), 0);       /* C04 (0,1,2) */
    ck_assert_int_eq(vcsel_pick(5, all, 0, 3), 1);       /* C05 (1,2,0) */
    ck_assert_int_eq(vcsel_pick(5, 0x5, 0, 3), 2);
    ck_assert_int_eq(vcsel_pick(6, 0x3, 0, 3), 0);       /* C06 (2,0,1) */
    ck_assert_int_eq(vcsel_pick(7, 0x6, 0, 3), 2);       /* C07 (0,2,1) */
    ck_assert_int_eq(vcsel_pick(8, 0x5, 0, 3), 0);       /* C08 (1,0,2) */
    ck_assert_int_eq(vcsel_pick(9, 0x3, 0, 3), 1);       /* C09 (2,1,0) */
    ck_assert_int_eq(vcsel_pick(9, 0x0, 0, 3), -1);
}
END_TEST

/* A second, simple implementation of every scheme as an explicit list. */
START_TEST(schemes_match_orders_exhaustively)
{
    static const int fixed[6][3] = { {0,1,2}, {1,2,0}, {2,0,1}, {0,2,1}, {1,0,2}, {2,1,0} };
    for (int k = 0; k < 10; k++)
        for (int last = 0; last < 3; last++)
            for (unsigned ready = 1; ready < 8; ready++) {
                int order[3];
                for (int j = 0; j < 3; j++) {
                    if (k == 0) order[j] = (last + j) % 3;
                    else if (k == 1) order[j] = (last + 1 + j) % 3;
                    else if (k == 2) order[j] = (last - j + 3) % 3;
                    else if (k == 3) order[j] = (last - 1 - j + 6) % 3;
                    else order[j] = fixed[k - 4][j];
                }
                int want = -1;
                for (int j = 0; j < 3 && want < 0; j++)
                    if (ready & (1u << order[j])) want = order[j];
                ck_assert_int_eq(vcsel_pick(k, ready, last, 3), want);
            }
}
END_TEST

START_TEST(queue_order_round_robin)
{
    uint8_t q[5] = { PORT_N, PORT_E, PORT_S, PORT_W, PORT_P };
    unsigned req = (1u << PORT_S) | (1u << PORT_P);
    int pos = qsel_pick(q, req);
    ck_assert_int_eq(pos, 2);
    qsel_update_order(q, pos, QUPDATE_TAIL);
    const uint8_t want[5] = { PORT_N, PORT_E, PORT_W, PORT_P, PORT_S };
    for (int j = 0; j < 5; j++) ck_assert_int_eq(q[j], want[j]);
    /* Now P is ahead of S. */
    pos = qsel_pick(q, req);
    ck_assert_int_eq(q[pos], PORT_P);
    ck_assert_int_eq(qsel_pick(q, 0), -1);

    uint8_t r[5] = { PORT_N, PORT_E, PORT_S, PORT_W, PORT_P };
    qsel_update_order(r, 2, QUPDATE_ROTATE);
    const uint8_t want_r[5] = { PORT_W, PORT_P, PORT_N, PORT_E, PORT_S };
    for (int j = 0; j < 5; j++) ck_assert_int_eq(r[j], want_r[j]);
}
END_TEST

/* Ranks worked out by hand: the digit of each position is the number of
 * later entries smaller than it, weighted 4!, 3!, 2!, 1!, 0!. */
START_TEST(queue_order_ranks)
{
    const uint8_t id[5] = { 0, 1, 2, 3, 4 }, rev[5] = { 4, 3, 2, 1, 0 };
    const uint8_t last_two[5] = { 0, 1, 2, 4, 3 }, first_two[5] = { 1, 0, 2, 3, 4 };
    ck_assert_int_eq(qsel_rank(id), 0);
    ck_assert_int_eq(qsel_rank(rev), 119);
    ck_assert_int_eq(qsel_rank(last_two), 1);
    ck_assert_int_eq(qsel_rank(first_two), 24);
    const uint8_t twice[5] = { 0, 0, 1, 2, 3 }, big[5] = { 0, 1, 2, 3, 5 };
    ck_assert_int_eq(qsel_rank(twice), -1);
    ck_assert_int_eq(qsel_rank(big), -1);
    /* unrank inverts rank on all 120, so the ranks are a bijection. */
    for (int r = 0; r < QSEL_NRANKS; r++) {
        uint8_t q[5];
        qsel_unrank(r, q);
        ck_assert_int_eq(qsel_rank(q), r);
    }
}
END_TEST

/* One grant of the table worked out by hand: order N E S W P (rank 0), S and
 * P request.  S wins; moving it to the tail gives N E W P S (digits 0 0 1 1:
 * rank 2 + 1 = 3); rotating gives W P N E S (digits 3 3 0 0: 72 + 18 = 90). */
START_TEST(queue_order_table)
{
    static uint16_t tail[QSEL_NRANKS * 32], rot[QSEL_NRANKS * 32];
    qsel_table(QUPDATE_TAIL, tail);
    qsel_table(QUPDATE_ROTATE, rot);
    const unsigned req = 1u << PORT_S | 1u << PORT_P;
    ck_assert_int_eq(tail[req], 3 | PORT_S << 8);
    ck_assert_int_eq(rot[req], 90 | PORT_S << 8);
    /* Only P requests, order reversed (rank 119, P first): P wins; moved to
     * the tail, the order is W S E N P, digits 3 2 1 0: 72 + 12 + 2 = 86. */
    ck_assert_int_eq(tail[119 << 5 | 1u << PORT_P], 86 | PORT_P << 8);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("router");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, neighbours_and_opposites);
    tcase_add_test(tc, offsets_and_ties);
    tcase_add_test(tc, datelines);
    tcase_add_test(tc, wrap_link_raises_vc);
    tcase_add_test(tc, dateline_after_link_raises_one_hop_later);
    tcase_add_test(tc, x_and_y_datelines_end_on_vc2);
    tcase_add_test(tc, scheme_names);
    tcase_add_test(tc, schemes_pick_expected_vc);
    tcase_add_test(tc, schemes_match_orders_exhaustively);
    tcase_add_test(tc, queue_order_round_robin);
    tcase_add_test(tc, queue_order_ranks);
    tcase_add_test(tc, queue_order_table);
    tcase_add_test(tc, dateline_bits);
    tcase_add_test(tc, local_tables);
    tcase_add_test(tc, injection_round_robin);
    tcase_add_test(tc, vc_selection_table);
    tcase_add_test(tc, rank_lookup_table);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
