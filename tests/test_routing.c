/* Unit tests of router/routing.c: the table, the plans, the VC classes and
 * each function's route, hop by hop, on small meshes.  Expected routes are
 * worked out by hand on a 4x4 mesh (node = 4y + x, N is y + 1, E is x + 1);
 * the properties at the end are checked against a second computation (hop
 * counts from coordinates). */
#include <check.h>

#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#include "router/route.h"
#include "router/routing.h"

static const route_params mesh4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_MESH };

/* Walk a header of kind k, plan pl, from src to dest: the ports as letters
 * into ports[] and the class of each hop's output VC into cls[] (digits),
 * both ending with the P port's entry.  Returns the hops. */
static int walk(routing_kind k, const route_params *rp, const routing_plan *pl, int src, int dest, char *ports,
                char *cls)
{
    int node = src, c = routing_first_class(k, pl), hops = 0;
    for (;;) {
        int oc, d = routing_next(k, rp, pl, node, dest, c, &oc);
        ck_assert_int_ge(oc, c); /* a packet moves up through its classes only */
        ports[hops] = route_port_name(d);
        cls[hops] = (char)('0' + oc);
        if (d == PORT_P) break;
        node = route_grid_neighbour(rp, node, d);
        ck_assert_int_ge(node, 0); /* never off the mesh */
        c = oc;
        hops++;
        ck_assert_int_lt(hops, 64);
    }
    ports[hops + 1] = cls[hops + 1] = '\0';
    return hops;
}

START_TEST(names_and_booksim_names)
{
    ck_assert_int_eq(routing_parse("dor"), ROUTING_DOR);
    ck_assert_int_eq(routing_parse("yx"), ROUTING_YX);
    ck_assert_int_eq(routing_parse("o1turn"), ROUTING_O1TURN);
    ck_assert_int_eq(routing_parse("xy_yx"), ROUTING_O1TURN);
    ck_assert_int_eq(routing_parse("valiant"), ROUTING_VALIANT);
    ck_assert_int_eq(routing_parse("romm"), ROUTING_ROMM);
    ck_assert_int_eq(routing_parse("Dor"), -1);
    ck_assert_int_eq(routing_parse(""), -1);
    for (int k = 0; k < ROUTING_COUNT; k++) ck_assert_int_eq(routing_parse(routing_info_of(k)->name), k);
}
END_TEST

START_TEST(refused_where_it_could_deadlock)
{
    char err[256];
    route_params torus = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    ck_assert_int_eq(routing_check(ROUTING_DOR, &torus, VCRULE_DATELINE, 3, err, sizeof err), 0);
    ck_assert_int_eq(routing_check(ROUTING_YX, &torus, VCRULE_DATELINE, 3, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "only on a mesh"));
    /* Two classes need two VCs: the boundary. */
    ck_assert_int_eq(routing_check(ROUTING_O1TURN, &mesh4, VCRULE_ANY, 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "at least 2 VCs"));
    ck_assert_int_eq(routing_check(ROUTING_O1TURN, &mesh4, VCRULE_ANY, 2, err, sizeof err), 0);
    ck_assert_int_eq(routing_check(ROUTING_VALIANT, &mesh4, VCRULE_DATELINE, 1, err, sizeof err), -1);
    ck_assert_int_eq(routing_check(ROUTING_YX, &mesh4, VCRULE_DATELINE, 1, err, sizeof err), 0);
}
END_TEST

START_TEST(classes_split_the_vcs)
{
    /* Two classes of 4 VCs: {0, 1} and {2, 3}; of 3: {0} and {1, 2}; one
     * class: all. */
    ck_assert_int_eq(routing_class_first(1, 2, 4), 2);
    ck_assert_int_eq(routing_class_first(2, 2, 4), 4);
    ck_assert_int_eq(routing_class_first(1, 2, 3), 1);
    ck_assert_int_eq(routing_class_first(2, 2, 3), 3);
    static const int of3[] = { 0, 1, 1 }, of4[] = { 0, 0, 1, 1 };
    for (int v = 0; v < 3; v++) ck_assert_int_eq(routing_class_of(v, 2, 3), of3[v]);
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(v, 2, 4), of4[v]);
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(v, 1, 4), 0);
}
END_TEST

START_TEST(plans_from_bits)
{
    /* O1TURN: the top bit. */
    ck_assert_int_eq(routing_plan_make(ROUTING_O1TURN, &mesh4, 0, 15, 1ull << 63).yx, 1);
    ck_assert_int_eq(routing_plan_make(ROUTING_O1TURN, &mesh4, 0, 15, ~0ull >> 1).yx, 0);
    /* Valiant: the upper 32 bits scaled to 16 nodes: 2^31 -> 8, 0 -> 0,
     * 2^32 - 1 -> 15. */
    ck_assert_int_eq(routing_plan_make(ROUTING_VALIANT, &mesh4, 0, 15, 0x80000000ull << 32).mid, 8);
    ck_assert_int_eq(routing_plan_make(ROUTING_VALIANT, &mesh4, 0, 15, 0).mid, 0);
    ck_assert_int_eq(routing_plan_make(ROUTING_VALIANT, &mesh4, 0, 15, ~0ull).mid, 15);
    /* ROMM from (0,0) to (3,3): x offset from the low word scaled to 4
     * (2^32 - 1 -> 3), y offset from the high word (2^31 -> 2): (3,2) = 11.
     * From (3,3) to (0,0) the offsets go the other way: (0,1) = 4. */
    ck_assert_int_eq(routing_plan_make(ROUTING_ROMM, &mesh4, 0, 15, 0x80000000FFFFFFFFull).mid, 11);
    ck_assert_int_eq(routing_plan_make(ROUTING_ROMM, &mesh4, 15, 0, 0x80000000FFFFFFFFull).mid, 4);
    /* A destination in the same row: y offset 0 whatever the bits. */
    ck_assert_int_eq(routing_plan_make(ROUTING_ROMM, &mesh4, 4, 6, ~0ull).mid, 6);
    /* dor draws nothing. */
    ck_assert_int_eq(routing_plan_make(ROUTING_DOR, &mesh4, 0, 15, ~0ull).mid, -1);
}
END_TEST

/* The route of kind k, plan pl, from src to dest is `hops` hops through the
 * ports and classes given (see walk). */
static void route_is(routing_kind k, const routing_plan *pl, int src, int dest, int hops, const char *ports,
                     const char *classes)
{
    char p[64], c[64];
    ck_assert_int_eq(walk(k, &mesh4, pl, src, dest, p, c), hops);
    ck_assert_str_eq(p, ports);
    ck_assert_str_eq(c, classes);
}

START_TEST(routes_by_hand)
{
    routing_plan none = { .mid = -1 }, yx = { .mid = -1, .yx = 1 };
    /* (0,0) -> (3,3) and back. */
    route_is(ROUTING_DOR, &none, 0, 15, 6, "EEENNNP", "0000000");
    route_is(ROUTING_YX, &none, 0, 15, 6, "NNNEEEP", "0000000");
    route_is(ROUTING_O1TURN, &yx, 0, 15, 6, "NNNEEEP", "1111111");
    route_is(ROUTING_O1TURN, &none, 15, 0, 6, "WWWSSSP", "0000000");
    /* Valiant from (1,1) = 5 to (3,0) = 3 through (0,3) = 12: W to 4, N to
     * 8 and 12 in class 0; at 12 class 1: E to 13, 14, 15, S to 11, 7, 3. */
    routing_plan v12 = { .mid = 12 }, v5 = { .mid = 5 }, v3 = { .mid = 3 }, v15 = { .mid = 15 };
    route_is(ROUTING_VALIANT, &v12, 5, 3, 9, "WNNEEESSSP", "0001111111");
    /* The intermediate node is the source: class 1 from the first hop ... */
    route_is(ROUTING_VALIANT, &v5, 5, 3, 3, "EESP", "1111");
    /* ... or the destination: the P port in class 1. */
    route_is(ROUTING_ROMM, &v3, 5, 3, 3, "EESP", "0001");
    /* A Valiant route through the destination goes on to its intermediate
     * node: (1,0) = 1 -> (3,0) = 3 through (3,3) = 15 passes 3 in class 0
     * and comes back. */
    route_is(ROUTING_VALIANT, &v15, 1, 3, 8, "EENNNSSSP", "000001111");
}
END_TEST

/* Every pair of a 5x3 mesh, every plan a function can make from a spread of
 * bits: the route ends at the destination after the hops its plan says
 * (|dx| + |dy| counted from coordinates: to the destination, or through the
 * intermediate node), ROMM's and O1TURN's are minimal, and each class keeps
 * one dimension order (no turn from Y back to X in an XY class, none from X
 * back to Y in a YX class). */
START_TEST(routes_reach_with_the_planned_hops)
{
    const route_params rp = { .n = 5, .w = 5, .h = 3, .topo = TOPO_MESH };
    const int w = 5, nodes = 15;
    for (int k = 0; k < ROUTING_COUNT; k++)
        for (int s = 0; s < nodes; s++)
            for (int d = 0; d < nodes; d++)
                for (uint64_t b = 0; b < 40; b++) {
                    const uint64_t bits = b * 0x9E3779B97F4A7C15ull;
                    routing_plan pl = routing_plan_make((routing_kind)k, &rp, s, d, bits);
                    int via = pl.mid >= 0 ? pl.mid : s;
                    int want = abs(via % w - s % w) + abs(via / w - s / w) + abs(d % w - via % w) +
                               abs(d / w - via / w);
                    if (k == ROUTING_ROMM || k == ROUTING_O1TURN)
                        ck_assert_int_eq(want, abs(d % w - s % w) + abs(d / w - s / w));
                    int node = s, c = routing_first_class((routing_kind)k, &pl), hops = 0, ydone = 0, xdone = 0;
                    int prevc = c;
                    for (;;) {
                        int oc, port = routing_next((routing_kind)k, &rp, &pl, node, d, c, &oc);
                        if (oc != prevc) ydone = xdone = 0; /* a new class, a new dimension order */
                        prevc = oc;
                        if (port == PORT_P) break;
                        int ymove = port == PORT_N || port == PORT_S;
                        int yfirst = k == ROUTING_YX || (k == ROUTING_O1TURN && pl.yx);
                        ck_assert_msg(!(yfirst ? xdone && ymove : ydone && !ymove),
                                      "kind %d, %d -> %d: a turn its class forbids", k, s, d);
                        ydone |= ymove;
                        xdone |= !ymove;
                        node = route_grid_neighbour(&rp, node, port);
                        ck_assert_int_ge(node, 0);
                        c = oc;
                        ck_assert_int_le(++hops, 40);
                    }
                    ck_assert_int_eq(node, d);
                    ck_assert_int_eq(hops, want);
                }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("routing");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, names_and_booksim_names);
    tcase_add_test(tc, refused_where_it_could_deadlock);
    tcase_add_test(tc, classes_split_the_vcs);
    tcase_add_test(tc, plans_from_bits);
    tcase_add_test(tc, routes_by_hand);
    tcase_add_test(tc, routes_reach_with_the_planned_hops);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
