/* Unit tests of router/routing.c: the table, the plans, the VC classes and
 * each function's route, hop by hop, on small meshes.  Expected routes are
 * worked out by hand on a 4x4 mesh (node = 4y + x, N is y + 1, E is x + 1);
 * the properties at the end are checked against a second computation (hop
 * counts from coordinates). */
#include <check.h>

#include "tests/testutil.h"
#include <math.h>
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
    int node = src, c = routing_first_class(k, rp, pl), hops = 0, in = PORT_P;
    for (;;) {
        const routing_options o = routing_admissible(k, rp, pl, node, src, dest, in, c);
        ck_assert_msg((o.ports & (o.ports - 1)) == 0, "an oblivious function admits one port");
        const int d = __builtin_ctz(o.ports), oc = o.cls;
        /* A packet moves up through its classes only (dor2's start again
         * in each ring). */
        if (k == ROUTING_VALIANT && rp->topo == TOPO_TORUS) ck_assert_int_ge(oc / 2, c / 2); /* its phase */
        else if (k != ROUTING_DOR2) ck_assert_int_ge(oc, c);
        ports[hops] = route_port_name(d);
        cls[hops] = (char)('0' + oc);
        if (d == PORT_P) break;
        node = route_grid_neighbour(rp, node, d);
        ck_assert_int_ge(node, 0); /* never off the mesh */
        c = oc;
        in = route_opposite(d);
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
    /* On a torus Valiant needs 4 VCs (2 phases x 2 dateline classes) and
     * min-adaptive 3 (2 escape classes and an adaptive one), under either
     * rule [R-RF-11], [R-RF-12]: the boundaries. */
    for (int rule = 0; rule < 2; rule++) {
        ck_assert_int_eq(routing_check(ROUTING_VALIANT, &torus, (route_vc_rule)rule, 3, err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "needs at least 4 VCs on a torus (its two phases, each in two dateline"));
        ck_assert_int_eq(routing_check(ROUTING_VALIANT, &torus, (route_vc_rule)rule, 4, err, sizeof err), 0);
        ck_assert_int_eq(routing_check(ROUTING_MIN_ADAPTIVE, &torus, (route_vc_rule)rule, 2, err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "needs at least 3 VCs on a torus (the escape's two dateline classes"));
        ck_assert_int_eq(routing_check(ROUTING_MIN_ADAPTIVE, &torus, (route_vc_rule)rule, 3, err, sizeof err), 0);
    }
    /* ROMM and the turn models stay mesh-only. */
    ck_assert_int_eq(routing_check(ROUTING_ROMM, &torus, VCRULE_DATELINE, 8, err, sizeof err), -1);
    ck_assert_int_eq(routing_check(ROUTING_ODD_EVEN, &torus, VCRULE_DATELINE, 8, err, sizeof err), -1);
}
END_TEST

START_TEST(classes_split_the_vcs)
{
    /* Two classes of 4 VCs: {0, 1} and {2, 3}; of 3: {0} and {1, 2}; one
     * class: all; min-adaptive's escape class: VC 0 alone, whatever V. */
    ck_assert_int_eq(routing_class_first(ROUTING_VALIANT, &mesh4, 1, 4), 2);
    ck_assert_int_eq(routing_class_first(ROUTING_VALIANT, &mesh4, 2, 4), 4);
    ck_assert_int_eq(routing_class_first(ROUTING_O1TURN, &mesh4, 1, 3), 1);
    ck_assert_int_eq(routing_class_first(ROUTING_O1TURN, &mesh4, 2, 3), 3);
    ck_assert_int_eq(routing_class_first(ROUTING_MIN_ADAPTIVE, &mesh4, 1, 4), 1);
    ck_assert_int_eq(routing_class_first(ROUTING_MIN_ADAPTIVE, &mesh4, 2, 4), 4);
    /* dor2 gives an odd count's extra VC to class 0, the legs that do not
     * wrap: {0, 1} and {2} of 3. */
    ck_assert_int_eq(routing_class_first(ROUTING_DOR2, &mesh4, 1, 3), 2);
    ck_assert_int_eq(routing_class_first(ROUTING_DOR2, &mesh4, 1, 2), 1);
    ck_assert_int_eq(routing_class_of(ROUTING_DOR2, &mesh4, 1, 3), 0);
    static const int of3[] = { 0, 1, 1 }, of4[] = { 0, 0, 1, 1 }, esc4[] = { 0, 1, 1, 1 };
    for (int v = 0; v < 3; v++) ck_assert_int_eq(routing_class_of(ROUTING_ROMM, &mesh4, v, 3), of3[v]);
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(ROUTING_ROMM, &mesh4, v, 4), of4[v]);
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(ROUTING_MIN_ADAPTIVE, &mesh4, v, 4), esc4[v]);
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(ROUTING_DOR, &mesh4, v, 4), 0);
    /* P input VCs: O1TURN's YX packets enter class 1, min-adaptive's any VC. */
    const routing_plan yx = { .mid = -1, .yx = 1 };
    ck_assert_uint_eq(routing_inject_vcs(ROUTING_O1TURN, &mesh4, &yx, 4), 0xcu);
    ck_assert_uint_eq(routing_inject_vcs(ROUTING_VALIANT, &mesh4, &yx, 3), 0x1u);
    ck_assert_uint_eq(routing_inject_vcs(ROUTING_MIN_ADAPTIVE, &mesh4, &yx, 3), 0x7u);
    /* A torus: Valiant's 4 classes (phase x dateline class) of 4 VCs one
     * each, of 8 two each; min-adaptive's escape classes VC 0 and VC 1, the
     * adaptive class 2 the rest, where a packet starts. */
    const route_params t4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    ck_assert_int_eq(routing_classes(ROUTING_VALIANT, &t4), 4);
    ck_assert_int_eq(routing_classes(ROUTING_VALIANT, &mesh4), 2);
    ck_assert_int_eq(routing_classes(ROUTING_MIN_ADAPTIVE, &t4), 3);
    ck_assert_int_eq(routing_classes(ROUTING_DOR, &t4), 1);
    static const int v4[] = { 0, 1, 2, 3 }, v8[] = { 0, 0, 1, 1, 2, 2, 3, 3 }, m5[] = { 0, 1, 2, 2, 2 };
    for (int v = 0; v < 4; v++) ck_assert_int_eq(routing_class_of(ROUTING_VALIANT, &t4, v, 4), v4[v]);
    for (int v = 0; v < 8; v++) ck_assert_int_eq(routing_class_of(ROUTING_VALIANT, &t4, v, 8), v8[v]);
    for (int v = 0; v < 5; v++) ck_assert_int_eq(routing_class_of(ROUTING_MIN_ADAPTIVE, &t4, v, 5), m5[v]);
    ck_assert_int_eq(routing_class_first(ROUTING_MIN_ADAPTIVE, &t4, 3, 5), 5);
    ck_assert_int_eq(routing_first_class(ROUTING_MIN_ADAPTIVE, &t4, &yx), 2);
    ck_assert_uint_eq(routing_inject_vcs(ROUTING_VALIANT, &t4, &yx, 8), 0x3u);
    ck_assert_uint_eq(routing_inject_vcs(ROUTING_MIN_ADAPTIVE, &t4, &yx, 4), 0xfu);
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
static void route_on(const route_params *rp, routing_kind k, const routing_plan *pl, int src, int dest, int hops,
                     const char *ports, const char *classes)
{
    char p[64], c[64];
    ck_assert_int_eq(walk(k, rp, pl, src, dest, p, c), hops);
    ck_assert_str_eq(p, ports);
    ck_assert_str_eq(c, classes);
}

static void route_is(routing_kind k, const routing_plan *pl, int src, int dest, int hops, const char *ports,
                     const char *classes)
{
    route_on(&mesh4, k, pl, src, dest, hops, ports, classes);
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
    /* dor2 on the 4x4 torus: (3,0) -> (0,1) takes the wrap link E in class
     * 1, then enters the Y ring towards y = 1 without a wrap: class 0.
     * (0,0) -> (3,3) wraps in both rings: W and S, class 1 each.  (3,0) ->
     * (1,0), half a ring: the tie rule goes W without the wrap, class 0. */
    const route_params torus4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    route_on(&torus4, ROUTING_DOR2, &none, 3, 4, 2, "ENP", "100");
    route_on(&torus4, ROUTING_DOR2, &none, 0, 15, 2, "WSP", "111");
    route_on(&torus4, ROUTING_DOR2, &none, 3, 1, 2, "WWP", "000");
    /* A leg that wraps after two hops keeps class 1 from its first: (2,0)
     * -> (0,0) under --tie plus goes E, E across the wrap. */
    const route_params plus4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS, .tie = TIE_PLUS };
    route_on(&plus4, ROUTING_DOR2, &none, 2, 0, 2, "EEP", "111");
}
END_TEST

/* The ports letters of a port mask, in the order N E S W P. */
static const char *letters(unsigned m)
{
    static char buf[8];
    int j = 0;
    for (int d = 0; d < NPORTS; d++)
        if (m >> d & 1) buf[j++] = route_port_name(d);
    buf[j] = '\0';
    return buf;
}

/* Valiant on the 4x4 torus [R-RF-11], class = 2 x phase + dor2's class of
 * the ring (1: the leg in that ring takes its wrap link, between x = 3 and
 * 0 or y = 3 and 0); the default tie rule goes half a ring the way without
 * the wrap link. */
START_TEST(valiant_torus_by_hand)
{
    const route_params t4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    /* (1,1) = 5 -> (0,2) = 8 through (3,3) = 15.  Phase 0: x 1 -> 3 is half
     * a ring, E E without the wrap (class 0); y 1 -> 3 N N likewise.  Phase
     * 1 from 15: x 3 -> 0 is one hop E across the wrap (class 2 + 1 = 3);
     * then y 3 -> 2 one hop S, a new ring without the wrap (2); P in 2. */
    const routing_plan v15 = { .mid = 15 }, v3 = { .mid = 3 }, v2 = { .mid = 2 }, v5 = { .mid = 5 }, v0 = { .mid = 0 };
    route_on(&t4, ROUTING_VALIANT, &v15, 5, 8, 6, "EENNESP", "0000322");
    /* (0,0) -> (1,0) through (3,0): phase 0 W across the wrap (1); at 3 the
     * second leg starts as if injected: x 3 -> 1, half a ring, W W without
     * the wrap, class 2, along the same ring in a class below the one it
     * arrived in (a new phase, its own classes). */
    route_on(&t4, ROUTING_VALIANT, &v3, 0, 1, 3, "WWWP", "1222");
    /* (0,0) -> (1,0) through (2,0): E E, then a U-turn W at the node. */
    route_on(&t4, ROUTING_VALIANT, &v2, 0, 1, 3, "EEWP", "0022");
    /* The node is the source: phase 1 from the first hop, (1,1) -> (2,2)
     * E, N without a wrap; (0,0) -> (0,3) S across the wrap: class 3. */
    route_on(&t4, ROUTING_VALIANT, &v5, 5, 10, 2, "ENP", "222");
    route_on(&t4, ROUTING_VALIANT, &v0, 0, 12, 1, "SP", "33");
}
END_TEST

/* Every Valiant route of a 6x4 torus, every pair and intermediate node,
 * under each tie rule: it reaches its destination after the ring distances
 * to and from the node (min(|a - b|, k - |a - b|) a dimension, from
 * coordinates), its phase never goes down, and no class 0 or 2 hop takes a
 * wrap link (what keeps a ring's class 0 acyclic, [R-RF-7]); a class 1 or
 * 3 leg is at most half a ring. */
static int ring(int a, int b, int k)
{
    const int d = a > b ? a - b : b - a;
    return d < k - d ? d : k - d;
}

static int wraps(const route_params *rp, int node, int d)
{
    const int w = route_width(rp), h = route_height(rp), x = node % w, y = node / w;
    return (d == PORT_E && x == w - 1) || (d == PORT_W && x == 0) || (d == PORT_N && y == h - 1) ||
           (d == PORT_S && y == 0);
}

START_TEST(valiant_torus_routes_reach)
{
    for (int tie = 0; tie < 3; tie++) {
        const route_params rp = { .n = 6, .w = 6, .h = 4, .topo = TOPO_TORUS, .tie = (route_tie)tie };
        for (int s = 0; s < 24; s++)
            for (int d = 0; d < 24; d++)
                for (int m = 0; m < 24; m++) {
                    const routing_plan pl = { .mid = m };
                    const int want = ring(s % 6, m % 6, 6) + ring(s / 6, m / 6, 4) + ring(m % 6, d % 6, 6) +
                                     ring(m / 6, d / 6, 4);
                    int node = s, c = routing_first_class(ROUTING_VALIANT, &rp, &pl), in = PORT_P, hops = 0, run = 0;
                    for (;;) {
                        const routing_options o = routing_admissible(ROUTING_VALIANT, &rp, &pl, node, s, d, in, c);
                        const int port = __builtin_ctz(o.ports);
                        ck_assert_int_ge(o.cls / 2, c / 2);
                        if (port == PORT_P) break;
                        ck_assert_msg(o.cls % 2 || !wraps(&rp, node, port), "%d -> %d via %d: class %d wraps at %d",
                                      s, d, m, o.cls, node);
                        run = o.cls == c && in != PORT_P && (in % 2) == (port % 2) ? run + 1 : 1;
                        ck_assert_int_le(run, (port % 2 ? 6 : 4) / 2);
                        node = route_grid_neighbour(&rp, node, port);
                        in = route_opposite(port);
                        c = o.cls;
                        ck_assert_int_le(++hops, 24);
                    }
                    ck_assert_int_eq(node, d);
                    ck_assert_int_eq(hops, want);
                }
    }
}
END_TEST

/* Min-adaptive on the 4x4 torus [R-RF-12]: every admissible port and the
 * escape, with their classes, hop by hop (adaptive class 2; escape classes
 * 0 and 1, 1 when the escape's leg in that ring takes the wrap link). */
static void admits(const route_params *rp, int node, int src, int dest, int in, int cls, const char *ports, int ocls,
                   int esc, int esc_cls)
{
    const routing_plan none = { .mid = -1 };
    const routing_options o = routing_admissible(ROUTING_MIN_ADAPTIVE, rp, &none, node, src, dest, in, cls);
    ck_assert_str_eq(letters(o.ports), ports);
    ck_assert_int_eq(o.cls, ocls);
    ck_assert_int_eq(o.esc, esc);
    if (esc >= 0) ck_assert_int_eq(o.esc_cls, esc_cls);
}

START_TEST(min_adaptive_torus_by_hand)
{
    const route_params t4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    const route_params plus4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS, .tie = TIE_PLUS };
    const route_params minus4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS, .tie = TIE_MINUS };
    /* (0,0) -> (3,3): one hop W and one S, both across a wrap link.
     * Injected: W or S adaptively, or the escape W (dimension order) in
     * class 1.  Adaptively to (3,0) = 3 (arrived through its E port): S
     * alone, its escape S in class 1 (y 0 -> 3 wraps).  By the escape to 3
     * (class 1): it stays in the escape, turning into the Y ring: S, class
     * 1 again.  Then P at 15 from either. */
    admits(&t4, 0, 0, 15, PORT_P, 2, "SW", 2, PORT_W, 1);
    admits(&t4, 3, 0, 15, PORT_E, 2, "S", 2, PORT_S, 1);
    admits(&t4, 3, 0, 15, PORT_E, 1, "S", 1, -1, 0);
    admits(&t4, 15, 0, 15, PORT_N, 1, "P", 1, -1, 0);
    /* The other way round, S first to (0,3) = 12: W, escape W in class 1. */
    admits(&t4, 12, 0, 15, PORT_N, 2, "W", 2, PORT_W, 1);
    /* (1,1) = 5 -> (3,3) = 15: half a ring in each dimension.  The tie rule
     * decides the direction for the adaptive ports and the escape alike
     * (default: without the wrap, N and E, escape E in class 0; --tie
     * minus: S and W across the wraps, escape W in class 1). */
    admits(&t4, 5, 5, 15, PORT_P, 2, "NE", 2, PORT_E, 0);
    admits(&minus4, 5, 5, 15, PORT_P, 2, "SW", 2, PORT_W, 1);
    /* Entering the escape part way along a ring is entering the ring: (3,0)
     * -> (1,0) under --tie plus goes E, E across the wrap; at the source the
     * escape is class 1, at (0,0) = 0, past the wrap, class 0.  An escape
     * header in class 1 keeps it along the ring (at 0, arrived from 3). */
    admits(&plus4, 3, 3, 1, PORT_P, 2, "E", 2, PORT_E, 1);
    admits(&plus4, 0, 3, 1, PORT_W, 2, "E", 2, PORT_E, 0);
    admits(&plus4, 0, 3, 1, PORT_W, 1, "E", 1, -1, 0);
    /* An escape header in class 0 entering the Y ring across its wrap: (2,0)
     * -> (3,3) at 3 arrived from the W in class 0: S, class 1. */
    admits(&t4, 3, 2, 15, PORT_W, 0, "S", 1, -1, 0);
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
        for (int s = 0; s < nodes && !routing_info_of((routing_kind)k)->adaptive; s++)
            for (int d = 0; d < nodes; d++)
                for (uint64_t b = 0; b < 16; b++) {
                    const uint64_t bits = b * 0x9E3779B97F4A7C15ull;
                    routing_plan pl = routing_plan_make((routing_kind)k, &rp, s, d, bits);
                    int via = pl.mid >= 0 ? pl.mid : s;
                    int want = abs(via % w - s % w) + abs(via / w - s / w) + abs(d % w - via % w) +
                               abs(d / w - via / w);
                    if (k == ROUTING_ROMM || k == ROUTING_O1TURN)
                        ck_assert_int_eq(want, abs(d % w - s % w) + abs(d / w - s / w));
                    int node = s, c = routing_first_class((routing_kind)k, &rp, &pl), hops = 0, ydone = 0, xdone = 0;
                    int prevc = c, in = PORT_P;
                    for (;;) {
                        const routing_options o = routing_admissible((routing_kind)k, &rp, &pl, node, s, d, in, c);
                        const int oc = o.cls, port = __builtin_ctz(o.ports);
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
                        in = route_opposite(port);
                        ck_assert_int_ge(node, 0);
                        c = oc;
                        ck_assert_int_le(++hops, 40);
                    }
                    ck_assert_int_eq(node, d);
                    ck_assert_int_eq(hops, want);
                }
}
END_TEST

/* Admissible ports at a router, worked out by hand from each turn model's
 * rule on the 4x4 mesh (node = 4y + x). */
START_TEST(adaptive_ports_by_hand)
{
    const routing_plan none = { .mid = -1 };
#define PORTS(k, node, src, dest, in, cls) \
    letters(routing_admissible(k, &mesh4, &none, node, src, dest, in, cls).ports)
    /* West-first: a destination to the west, W alone; else any minimal. */
    ck_assert_str_eq(PORTS(ROUTING_WEST_FIRST, 6, 6, 12, PORT_P, 0), "W");
    ck_assert_str_eq(PORTS(ROUTING_WEST_FIRST, 0, 0, 10, PORT_P, 0), "NE");
    ck_assert_str_eq(PORTS(ROUTING_WEST_FIRST, 10, 10, 0, PORT_P, 0), "W");
    /* North-last: N only when nothing else is left. */
    ck_assert_str_eq(PORTS(ROUTING_NORTH_LAST, 0, 0, 10, PORT_P, 0), "E");
    ck_assert_str_eq(PORTS(ROUTING_NORTH_LAST, 10, 10, 0, PORT_P, 0), "SW");
    ck_assert_str_eq(PORTS(ROUTING_NORTH_LAST, 2, 0, 10, PORT_W, 0), "N");
    /* Negative-first: W and S before E and N. */
    ck_assert_str_eq(PORTS(ROUTING_NEGATIVE_FIRST, 8, 8, 2, PORT_P, 0), "S");
    ck_assert_str_eq(PORTS(ROUTING_NEGATIVE_FIRST, 2, 2, 8, PORT_P, 0), "W");
    ck_assert_str_eq(PORTS(ROUTING_NEGATIVE_FIRST, 0, 0, 10, PORT_P, 0), "NE");
    /* Odd-even, (0,0) -> (2,2): the source's column may turn and E leads to
     * an even column 2 away: N, E.  At (1,0), one column short of the even
     * column 2: it must turn now, N alone.  At (2,0) coming from the west
     * the even column forbids E-N; going on, (3,0) -> (0,2) westbound from
     * an odd column: W alone; from (2,1) -> (0,3): W, N. */
    ck_assert_str_eq(PORTS(ROUTING_ODD_EVEN, 0, 0, 10, PORT_P, 0), "NE");
    ck_assert_str_eq(PORTS(ROUTING_ODD_EVEN, 1, 0, 10, PORT_W, 0), "N");
    ck_assert_str_eq(PORTS(ROUTING_ODD_EVEN, 3, 3, 8, PORT_P, 0), "W");
    ck_assert_str_eq(PORTS(ROUTING_ODD_EVEN, 6, 6, 12, PORT_P, 0), "NW");
    /* Min-adaptive: injected, both minimal ports in class 1 and the DOR
     * escape E; arrived in the escape VC, E alone in class 0. */
    routing_options o = routing_admissible(ROUTING_MIN_ADAPTIVE, &mesh4, &none, 0, 0, 10, PORT_P, 1);
    ck_assert_str_eq(letters(o.ports), "NE");
    ck_assert_int_eq(o.cls, 1);
    ck_assert_int_eq(o.esc, PORT_E);
    o = routing_admissible(ROUTING_MIN_ADAPTIVE, &mesh4, &none, 1, 0, 10, PORT_W, 0);
    ck_assert_str_eq(letters(o.ports), "E");
    ck_assert_int_eq(o.cls, 0);
    ck_assert_int_eq(o.esc, -1);
    ck_assert_str_eq(PORTS(ROUTING_MIN_ADAPTIVE, 10, 0, 10, PORT_S, 1), "P");
#undef PORTS
}
END_TEST

START_TEST(selection_rules)
{
    const unsigned ne = 1u << PORT_N | 1u << PORT_E, ws = 1u << PORT_W | 1u << PORT_S;
    int free[4] = { [PORT_N] = 5, [PORT_E] = 3, [PORT_S] = 2, [PORT_W] = 2 };
    ck_assert_int_eq(routing_select(SELECT_CREDITS, ne, free, 0), PORT_N);
    free[PORT_E] = 5; /* a tie: E first */
    ck_assert_int_eq(routing_select(SELECT_CREDITS, ne, free, 0), PORT_E);
    ck_assert_int_eq(routing_select(SELECT_CREDITS, ws, free, 0), PORT_W);
    ck_assert_int_eq(routing_select(SELECT_FIRST, ws, free, 0), PORT_W);
    ck_assert_int_eq(routing_select(SELECT_FIRST, 1u << PORT_S, free, 0), PORT_S);
    /* Random: the top 32 bits scaled to the count, in the order E W N S. */
    ck_assert_int_eq(routing_select(SELECT_RANDOM, ne, free, 0), PORT_E);
    ck_assert_int_eq(routing_select(SELECT_RANDOM, ne, free, 0x7fffffffull << 32), PORT_E);
    ck_assert_int_eq(routing_select(SELECT_RANDOM, ne, free, 0x80000000ull << 32), PORT_N);
    /* The hash: the same for the same arguments, another for another id. */
    ck_assert_uint_eq(routing_hash(1, 7, 3), routing_hash(1, 7, 3));
    ck_assert_uint_ne(routing_hash(1, 7, 3), routing_hash(1, 8, 3));
    ck_assert_int_eq(routing_selection_parse("credits"), SELECT_CREDITS);
    ck_assert_int_eq(routing_selection_parse("Random"), -1);
}
END_TEST

/* Each turn model's forbidden 90-degree turns, listed by hand as "moving
 * direction, new direction" (odd-even's for an even column, then an odd
 * one): every other turn allowed, no U-turn, any turn for the others. */
START_TEST(turn_tables_by_hand)
{
    static const struct {
        routing_kind k;
        int node;
        const char *forbidden;
    } rows[] = {
        { ROUTING_WEST_FIRST, 5, "NW SW" },   { ROUTING_NORTH_LAST, 5, "NE NW" },
        { ROUTING_NEGATIVE_FIRST, 5, "NW ES" }, { ROUTING_ODD_EVEN, 6, "EN ES" },
        { ROUTING_ODD_EVEN, 5, "NW SW" },     { ROUTING_MIN_ADAPTIVE, 5, "" },
        { ROUTING_DOR, 5, "" },
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        for (int m = 0; m < PORT_P; m++)
            for (int d = 0; d < PORT_P; d++) {
                char turn[3] = { route_port_name(m), route_port_name(d), '\0' };
                int want = d == route_opposite(m) ? 0 : !strstr(rows[r].forbidden, turn);
                ck_assert_msg(routing_turn_allowed(rows[r].k, &mesh4, rows[r].node, m, d) == want, "%s at %d: turn %s",
                              routing_info_of(rows[r].k)->name, rows[r].node, turn);
            }
    /* Valiant turns back at its intermediate node. */
    ck_assert_int_eq(routing_turn_allowed(ROUTING_VALIANT, &mesh4, 5, PORT_N, PORT_S), 1);
}
END_TEST

/* Every path an adaptive function admits between every pair of a 5x4 mesh
 * (every admissible port at every hop, depth first): each is minimal, ends
 * at the destination, never meets a router without a port, and takes no turn
 * the function's turn table (routing_turn_allowed, written apart) forbids.
 * Min-adaptive's escape is followed too, and stays in class 0. */
typedef struct {
    routing_kind k;
    route_params rp;
    int src, dest, paths;
} dfs_ctx;

static void dfs(dfs_ctx *x, int node, int in_port, int cls, int hops)
{
    const routing_plan none = { .mid = -1 };
    routing_options o = routing_admissible(x->k, &x->rp, &none, node, x->src, x->dest, in_port, cls);
    ck_assert_uint_ne(o.ports, 0);
    if (o.ports == 1u << PORT_P) {
        ck_assert_int_eq(node, x->dest);
        ck_assert_int_eq(hops, route_hops(&x->rp, x->src, x->dest));
        x->paths++;
        return;
    }
    unsigned all = o.ports | (o.esc >= 0 ? 1u << o.esc : 0);
    for (unsigned m = all; m; m &= m - 1) {
        const int d = __builtin_ctz(m), c = o.ports >> d & 1 ? o.cls : o.esc_cls;
        /* On a torus the escape's class 0 never takes a wrap link [R-RF-12]. */
        if (x->rp.topo == TOPO_TORUS && c == 0) ck_assert(!wraps(&x->rp, node, d));
        if (in_port != PORT_P)
            ck_assert_msg(routing_turn_allowed(x->k, &x->rp, node, route_opposite(in_port), d),
                          "%s: %d -> %d at %d: turn %c-%c", routing_info_of(x->k)->name, x->src, x->dest, node,
                          route_port_name(route_opposite(in_port)), route_port_name(d));
        const int next = route_grid_neighbour(&x->rp, node, d);
        ck_assert_int_ge(next, 0);
        dfs(x, next, route_opposite(d), c, hops + 1);
        if (o.esc == d && o.ports >> d & 1) { /* and by the escape */
            if (x->rp.topo == TOPO_TORUS && o.esc_cls == 0) ck_assert(!wraps(&x->rp, node, d));
            dfs(x, next, route_opposite(d), o.esc_cls, hops + 1);
        }
    }
}

START_TEST(adaptive_paths_obey_their_turns)
{
    for (int k = 0; k < ROUTING_COUNT; k++) {
        if (!routing_info_of((routing_kind)k)->adaptive) continue;
        dfs_ctx x = { .k = (routing_kind)k, .rp = { .n = 5, .w = 5, .h = 4, .topo = TOPO_MESH } };
        int pairs_adaptive = 0;
        for (x.src = 0; x.src < 20; x.src++)
            for (x.dest = 0; x.dest < 20; x.dest++) {
                const int before = x.paths;
                dfs(&x, x.src, PORT_P, routing_first_class((routing_kind)k, &x.rp, &(routing_plan){ .mid = -1 }), 0);
                pairs_adaptive += x.paths - before > 1;
            }
        /* Some pairs have a choice: the function is adaptive at all. */
        ck_assert_msg(pairs_adaptive > 20, "%s: %d pairs with a choice", routing_info_of((routing_kind)k)->name,
                      pairs_adaptive);
    }
    /* Min-adaptive on tori, every tie rule: minimal, and the escape's class
     * 0 never wraps. */
    for (int tie = 0; tie < 3; tie++) {
        dfs_ctx x = { .k = ROUTING_MIN_ADAPTIVE, .rp = { .n = 6, .w = 6, .h = 4, .topo = TOPO_TORUS, .tie = (route_tie)tie } };
        for (x.src = 0; x.src < 24; x.src++)
            for (x.dest = 0; x.dest < 24; x.dest++)
                dfs(&x, x.src, PORT_P, routing_first_class(ROUTING_MIN_ADAPTIVE, &x.rp, &(routing_plan){ .mid = -1 }), 0);
        ck_assert_int_gt(x.paths, 24 * 24 * 2);
    }
}
END_TEST

/* An adaptive function's spread against its paths enumerated one by one,
 * each with the product of 1 / (its ports) at every router it passes, on
 * every pair of a 5x4 mesh: the same load on every link. */
static void path_loads(routing_kind k, const route_params *rp, int node, int src, int dest, double p, double *load)
{
    const routing_plan none = { .mid = -1 };
    routing_options o = routing_admissible(k, rp, &none, node, src, dest, PORT_P, routing_first_class(k, rp, &none));
    if (o.ports == 1u << PORT_P) return;
    const int n = __builtin_popcount(o.ports);
    for (unsigned m = o.ports; m; m &= m - 1) {
        const int d = __builtin_ctz(m);
        load[node * 4 + d] += p / n;
        path_loads(k, rp, route_grid_neighbour(rp, node, d), src, dest, p / n, load);
    }
}

static void add_spread(void *ctx, int node, int port, double p) { ((double *)ctx)[node * 4 + port] += p; }

/* Kind k's spread from src to dest of a 4x4 grid puts 1/2 on each of the
 * four links given (node * 4 + port) and nothing elsewhere. */
static void halves(routing_kind k, const route_params *rp, int src, int dest, const int links[4])
{
    double load[64] = { 0 }, cells[16];
    routing_spread_adaptive(k, rp, src, dest, 1.0, add_spread, load, cells);
    for (int j = 0; j < 4; j++) {
        ck_assert_double_eq(load[links[j]], 0.5);
        load[links[j]] = 0;
    }
    for (int l = 0; l < 64; l++) ck_assert_double_eq(load[l], 0);
}

START_TEST(adaptive_spread_equals_paths)
{
    const route_params rp = { .n = 5, .w = 5, .h = 4, .topo = TOPO_MESH };
    double want[80], got[80], cells[20];
    for (int k = 0; k < ROUTING_COUNT; k++) {
        if (!routing_info_of((routing_kind)k)->adaptive) continue;
        for (int s = 0; s < 20; s++)
            for (int d = 0; d < 20; d++) {
                memset(want, 0, sizeof want);
                memset(got, 0, sizeof got);
                path_loads((routing_kind)k, &rp, s, s, d, 0.5, want);
                routing_spread_adaptive((routing_kind)k, &rp, s, d, 0.5, add_spread, got, cells);
                for (int l = 0; l < 80; l++)
                    ck_assert_msg(fabs(got[l] - want[l]) < 1e-12, "%s %d -> %d link %d: %g, paths %g",
                                  routing_info_of((routing_kind)k)->name, s, d, l, got[l], want[l]);
            }
    }
    /* Min-adaptive on tori (the quadrant may wrap), every tie rule. */
    for (int tie = 0; tie < 3; tie++)
        for (int shape = 0; shape < 2; shape++) {
            const route_params t = { .n = 4, .w = 4, .h = shape ? 6 : 4, .topo = TOPO_TORUS, .tie = (route_tie)tie };
            const int nodes = 4 * t.h;
            double tw[96], tg[96], tc[24];
            for (int s = 0; s < nodes; s++)
                for (int d = 0; d < nodes; d++) {
                    memset(tw, 0, sizeof tw);
                    memset(tg, 0, sizeof tg);
                    path_loads(ROUTING_MIN_ADAPTIVE, &t, s, s, d, 1.0, tw);
                    routing_spread_adaptive(ROUTING_MIN_ADAPTIVE, &t, s, d, 1.0, add_spread, tg, tc);
                    for (int l = 0; l < nodes * 4; l++)
                        ck_assert_msg(fabs(tg[l] - tw[l]) < 1e-12, "torus tie %d %d -> %d link %d: %g, paths %g", tie,
                                      s, d, l, tg[l], tw[l]);
                }
        }
    /* By hand: min-adaptive from (0,0) to (3,3) of the 4x4 torus: W or S
     * across a wrap, each 1/2, then the other. */
    const route_params t4 = { .n = 4, .w = 4, .h = 4, .topo = TOPO_TORUS };
    halves(ROUTING_MIN_ADAPTIVE, &t4, 0, 15, (const int[4]){ 0 * 4 + PORT_W, 0 * 4 + PORT_S, 3 * 4 + PORT_S, 12 * 4 + PORT_W });
    /* By hand: west-first from (0,0) to (1,1) of the 4x4 mesh: E or N at
     * (0,0), each 1/2, then the other. */
    halves(ROUTING_WEST_FIRST, &mesh4, 0, 5, (const int[4]){ 0 * 4 + PORT_E, 0 * 4 + PORT_N, 1 * 4 + PORT_N, 4 * 4 + PORT_E });
}
END_TEST

/* The default VC rule: any on a mesh whatever the function; on a torus the
 * dateline rule for dor alone (its two datelines a ring need it), any for
 * the others, whose classes carry the datelines; and that default passes
 * routing_check with the function's fewest VCs on a torus, one fewer not. */
START_TEST(default_vc_rule_by_hand)
{
    for (int k = 0; k < ROUTING_COUNT; k++) {
        ck_assert_int_eq(routing_default_vc_rule((routing_kind)k, TOPO_MESH), VCRULE_ANY);
        ck_assert_int_eq(routing_default_vc_rule((routing_kind)k, TOPO_TORUS),
                         k == ROUTING_DOR ? VCRULE_DATELINE : VCRULE_ANY);
    }
    const routing_kind torus[] = { ROUTING_DOR, ROUTING_DOR2, ROUTING_VALIANT, ROUTING_MIN_ADAPTIVE };
    const int fewest[] = { 3, 2, 4, 3 };
    route_params rp = { .n = 8, .topo = TOPO_TORUS, .w = 8, .h = 8 };
    char err[256];
    for (int j = 0; j < 4; j++) {
        const route_vc_rule r = routing_default_vc_rule(torus[j], TOPO_TORUS);
        ck_assert_msg(routing_check(torus[j], &rp, r, fewest[j], err, sizeof err) == 0, "%s", err);
        /* dor's three VCs are the dateline rule's (olnet's check), not a class count. */
        if (torus[j] != ROUTING_DOR)
            ck_assert_int_eq(routing_check(torus[j], &rp, r, fewest[j] - 1, err, sizeof err), -1);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("routing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, names_and_booksim_names);
    tcase_add_test(tc, refused_where_it_could_deadlock);
    tcase_add_test(tc, classes_split_the_vcs);
    tcase_add_test(tc, plans_from_bits);
    tcase_add_test(tc, routes_by_hand);
    tcase_add_test(tc, routes_reach_with_the_planned_hops);
    tcase_add_test(tc, valiant_torus_by_hand);
    tcase_add_test(tc, valiant_torus_routes_reach);
    tcase_add_test(tc, min_adaptive_torus_by_hand);
    tcase_add_test(tc, adaptive_ports_by_hand);
    tcase_add_test(tc, selection_rules);
    tcase_add_test(tc, turn_tables_by_hand);
    tcase_add_test(tc, adaptive_spread_equals_paths);
    tcase_add_test(tc, adaptive_paths_obey_their_turns);
    tcase_add_test(tc, default_vc_rule_by_hand);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
