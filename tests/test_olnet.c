/* The open-loop network (sim/olnet.c).  Two kinds of evidence:
 *  - closed-loop collectives replayed through it as open-loop packets (each
 *    slice a packet generated at its release time) give every packet's tail
 *    ejection cycle exactly as the reference engine of sim.c, over random
 *    configurations and every model choice both support;
 *  - meshes and the any-VC rule, which sim.c does not have, worked out by
 *    hand. */
#include <check.h>

#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router/route.h"
#include "sim/olnet.h"
#include "sim/sim.h"
#include "traffic/traffic.h"
#include "util/invariant.h"
#include "util/rng.h"

#include <signal.h>

static int draw(uint64_t *s, int n) { return (int)(rng_splitmix64(s) % (uint64_t)n); }

/* Run the collective of (p, dest, c) through olnet: every sending node's
 * slices as packets generated at s * V + I[i].  Writes each packet's tail
 * cycle into out[i * S + s] (-1 for nodes that send nothing). */
static void olnet_collective(const sim_params *p, const int32_t *dest, const sim_config *c, int64_t *out)
{
    olnet_params op = { .rp = { .n = p->n, .tie = p->tie, .dateline = p->dateline, .topo = p->topo, .w = p->n,
                                .h = sim_height(p) },
                        .vc_rule = p->vc_rule, .vcs = p->vcs, .buffer = p->buffer, .scheme = 0,
                        .q_update = p->q_update };
    char err[256];
    olnet *n = olnet_new(&op, c, NULL, err, sizeof err);
    ck_assert_msg(n != NULL, "%s", err);
    int nodes = sim_nodes(p), S = p->slices;
    int64_t left = 0;
    for (int i = 0; i < nodes; i++)
        for (int s = 0; s < S; s++) {
            out[i * S + s] = -1;
            if (dest[i] == i) continue;
            ck_assert_int_ge(olnet_add(n, i, dest[i], p->flits, (int64_t)s * c->interval + c->inject[i], i * S + s), 0);
            left++;
        }
    for (int64_t t = 0; left > 0; t++) {
        ck_assert_msg(t < 1000000, "olnet did not finish");
        const int32_t *done;
        int nd;
        olnet_step(n, t, &done, &nd);
        for (int k = 0; k < nd; k++) {
            const olnet_packet *pk = olnet_packet_get(n, done[k]);
            out[pk->tag] = pk->t_done;
            olnet_release(n, done[k]);
            left--;
        }
    }
    ck_assert_int_eq(olnet_packets_alive(n), 0);
    ck_assert_int_eq(olnet_flits_in_network(n), 0);
    olnet_free(n);
}

/* One comparison: the reference's tails against olnet's. */
static void compare(const sim_params *p, const int32_t *dest, const sim_config *c, const char *what)
{
    char err[256];
    sim *s = sim_new(p, dest, NULL, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    sim_metrics m;
    ck_assert_int_eq(sim_run_reference(s, c, &m), SIM_OK);
    size_t np = (size_t)sim_nodes(p) * (size_t)p->slices;
    int64_t *want = malloc(np * sizeof *want), *got = malloc(np * sizeof *got);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    sim_tail_cycles(s, want);
    olnet_collective(p, dest, c, got);
    for (size_t k = 0; k < np; k++)
        ck_assert_msg(want[k] == got[k], "%s: packet %zu (node %zu slice %zu): reference tail %lld, olnet %lld", what,
                      k, k / (size_t)p->slices, k % (size_t)p->slices, (long long)want[k], (long long)got[k]);
    free(want);
    free(got);
    sim_free(s);
}

/* Rectangular tori and meshes: sim.c's reference against olnet. */
START_TEST(closed_loop_rectangles)
{
    static const int sizes[][2] = { { 8, 4 }, { 4, 6 }, { 6, 2 }, { 10, 4 } };
    uint64_t r = 44;
    for (int z = 0; z < 4; z++)
        for (int it = 0; it < 8; it++) {
            sim_params p;
            sim_params_default(&p);
            p.n = sizes[z][0];
            p.h = sizes[z][1];
            p.topo = it % 2 ? TOPO_MESH : TOPO_TORUS;
            p.vc_rule = p.topo == TOPO_MESH && it % 4 == 1 ? VCRULE_ANY : VCRULE_DATELINE;
            p.slices = 1 + draw(&r, 3);
            p.flits = 2 + draw(&r, 9);
            p.buffer = 1 + draw(&r, 6);
            p.tie = (route_tie)draw(&r, 3);
            char err[256];
            traffic *t = traffic_new_grid(it % 3 ? "randperm" : "torn", p.n, p.h, (uint64_t)it + 1, NULL, err, sizeof err);
            ck_assert_msg(t != NULL, "%s", err);
            sim_config *c = sim_config_new(p.n * p.h, p.vcs, 0, (uint32_t)p.flits);
            testutil_random_genes(c, &r, p.flits, 12, 12);
            char what[128];
            snprintf(what, sizeof what, "%dx%d topo=%d rule=%d S=%d L=%d B=%d run %d", p.n, p.h, p.topo, p.vc_rule,
                     p.slices, p.flits, p.buffer, it);
            compare(&p, t->dest, c, what);
            sim_config_free(c);
            traffic_free(t);
        }
}
END_TEST

/* Random collectives on 4x4..8x8 tori (every shared model choice) and
 * meshes (both VC rules; sim.c's any-VC grant loop written apart from
 * olnet's). */
static int closed_loop_cases(route_topology topo, uint64_t r)
{
    static const char *specs[] = { "brev", "torn", "bcmp", "randperm", "trns" };
    int cases = 0;
    for (int n = 4; n <= 8; n += 2)
        for (int k = 0; k < 5; k++)
            for (int it = 0; it < 6; it++) {
                sim_params p;
                sim_params_default(&p);
                p.n = n;
                p.topo = topo;
                p.vc_rule = topo == TOPO_MESH && it % 3 ? VCRULE_ANY : VCRULE_DATELINE;
                p.slices = 1 + draw(&r, 3);
                p.flits = 2 + draw(&r, 9);
                p.buffer = 1 + draw(&r, 6);
                p.vcs = topo == TOPO_MESH ? 1 + draw(&r, 4) : 3 + draw(&r, 2);
                p.tie = (route_tie)draw(&r, 3);
                p.dateline = (route_dateline)draw(&r, 2);
                p.q_update = (qsel_update)draw(&r, 2);
                char err[256];
                traffic *t = traffic_new(specs[k], n, (uint64_t)it + 1, err, sizeof err);
                if (!t) continue; /* a bit pattern on n = 6 */
                sim_config *c = sim_config_new(n * n, p.vcs, 0, (uint32_t)p.flits);
                ck_assert_ptr_nonnull(c);
                testutil_random_genes(c, &r, p.flits, 3 * n, 2 * n);
                char what[128];
                snprintf(what, sizeof what, "%s %s n=%d S=%d L=%d B=%d V=%d tie=%d dl=%d qu=%d rule=%d run %d",
                         topo == TOPO_MESH ? "mesh" : "torus", specs[k], n, p.slices, p.flits, p.buffer, p.vcs, p.tie,
                         p.dateline, p.q_update, p.vc_rule, it);
                compare(&p, t->dest, c, what);
                cases++;
                sim_config_free(c);
                traffic_free(t);
            }
    return cases;
}

START_TEST(closed_loop_equals_reference)
{
    ck_assert_int_ge(closed_loop_cases(TOPO_TORUS, 42), 60);
    ck_assert_int_ge(closed_loop_cases(TOPO_MESH, 43), 60);
}
END_TEST

/* Two packets on the bottom row of a 4x2 mesh, both for node 3 (x = 3),
 * generated at cycle 0, 4 flits each, 4-flit FIFOs: A from node 0 (3 hops),
 * B from node 2 (1 hop).  Under the dateline rule on a mesh every packet
 * stays in VC 0, so B, whose header asks for node 2's E output in cycle 1,
 * holds it until its tail leaves in cycle 4 and ejects in cycle 5 = 1 + 4.
 * A's header reaches node 2 at the start of cycle 3, waits, crosses in
 * cycle 5, ejects in cycle 6, and its tail (flits every cycle behind it)
 * ejects in cycle 9, two cycles after its zero-load 3 + 4 = 7. */
static void two_packets(route_vc_rule rule, int vcs, int scheme, int64_t want_a, int64_t want_b)
{
    olnet_params op = { .rp = { .w = 4, .h = 2, .topo = TOPO_MESH }, .vc_rule = rule, .vcs = vcs, .buffer = 4,
                        .scheme = scheme };
    char err[256];
    olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
    ck_assert_msg(n != NULL, "%s", err);
    int32_t a = olnet_add(n, 0, 3, 4, 0, 0), b = olnet_add(n, 2, 3, 4, 0, 1);
    int64_t done_a = -1, done_b = -1;
    for (int64_t t = 0; t < 50; t++) {
        const int32_t *done;
        int nd;
        olnet_step(n, t, &done, &nd);
        for (int k = 0; k < nd; k++) {
            if (done[k] == a) done_a = t;
            if (done[k] == b) done_b = t;
        }
    }
    ck_assert_int_eq(olnet_packet_get(n, a)->t_inj, 0);
    ck_assert_int_eq(olnet_packet_get(n, b)->t_inj, 0);
    ck_assert_int_eq(done_a, want_a);
    ck_assert_int_eq(done_b, want_b);
    olnet_free(n);
}

START_TEST(mesh_one_vc_by_hand)
{
    two_packets(VCRULE_DATELINE, 1, 0, 9, 5);
    /* With three VCs the dateline rule still uses VC 0 only on a mesh. */
    two_packets(VCRULE_DATELINE, 3, 1, 9, 5);
}
END_TEST

/* The same two packets under the any-VC rule with three VCs.  B takes
 * node 2's E output VC 0 in cycle 1; A's header, there at the start of
 * cycle 3, gets VC 1.  With C00 (search from the VC granted last) port E
 * keeps sending B until its tail leaves (cycle 4), so the times are those of
 * one VC: A 9, B 5.  With C01 (search from last + 1) the port alternates
 * from cycle 3: A h (3), B f2 (4), A f1 (5), B tail (6), A f2 (7), A tail
 * (8).  Node 3's P output, one flit a cycle, ejects B h (2), B f1 (3), A h
 * (4), B f2 (5), A f1 (6), B tail (7), A f2 (8), A tail (9). */
START_TEST(mesh_any_vc_by_hand)
{
    two_packets(VCRULE_ANY, 3, 0, 9, 5);
    two_packets(VCRULE_ANY, 3, 1, 9, 7);
}
END_TEST

/* A lone packet takes H + L cycles from generation to tail ejection on any
 * grid (model.md): checked for every source and destination of a 5x3 mesh
 * and a 6x4 torus, with lengths 1 and 5, generated at cycle 7. */
START_TEST(zero_load_every_pair)
{
    for (int topo = 0; topo < 2; topo++) {
        olnet_params op = { .rp = { .w = topo ? 5 : 6, .h = topo ? 3 : 4, .topo = topo ? TOPO_MESH : TOPO_TORUS },
                            .vc_rule = topo ? VCRULE_ANY : VCRULE_DATELINE, .vcs = 3, .buffer = 4 };
        char err[256];
        olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
        ck_assert_msg(n != NULL, "%s", err);
        int w = op.rp.w, h = op.rp.h;
        for (int s = 0; s < w * h; s++)
            for (int d = 0; d < w * h; d++)
                for (int len = 1; len <= 5; len += 4) {
                    int32_t id = olnet_add(n, s, d, len, 7, 0);
                    int64_t t = 0, got = -1;
                    for (; t < 7 + 40 && got < 0; t++) {
                        const int32_t *done;
                        int nd;
                        olnet_step(n, t, &done, &nd);
                        if (nd) got = t;
                    }
                    int dx = abs(s % w - d % w), dy = abs(s / w - d / w);
                    if (!topo) {
                        if (dx > w / 2) dx = w - dx;
                        if (dy > h / 2) dy = h - dy;
                    }
                    ck_assert_int_eq(olnet_hops(n, s, d), dx + dy);
                    ck_assert_msg(got == 7 + dx + dy + len, "%s %d -> %d len %d: tail at %lld, want %d",
                                  topo ? "mesh" : "torus", s, d, len, (long long)got, 7 + dx + dy + len);
                    olnet_release(n, id);
                }
        olnet_free(n);
    }
}
END_TEST

/* One random run of op's network through the three paths (see below). */
static void three_paths_agree(olnet_params op, uint64_t *rs)
{
    uint64_t r = *rs;
    {
        char err[256];
        olnet *a = olnet_new(&op, NULL, NULL, err, sizeof err);
        op.scalar = 1;
        olnet *c = olnet_new(&op, NULL, NULL, err, sizeof err);
        op.scalar = 0;
        op.reference = 1;
        olnet *b = olnet_new(&op, NULL, NULL, err, sizeof err);
        ck_assert_msg(a && b && c, "%s", err);
        int nodes = op.rp.w * op.rp.h, maxlen = 1 + draw(&r, 12);
        double p = (1 + draw(&r, 40)) / 100.0; /* packets per node per cycle */
        int64_t moved = 0;
        for (int64_t t = 0; t < 600; t++) {
            for (int i = 0; i < nodes && t < 400; i++)
                if ((double)(rng_splitmix64(&r) >> 11) * 0x1.0p-53 < p) {
                    int d = draw(&r, nodes), len = 1 + draw(&r, maxlen);
                    int id = olnet_add(a, i, d, len, t, 0);
                    ck_assert_int_eq(id, olnet_add(b, i, d, len, t, 0));
                    ck_assert_int_eq(id, olnet_add(c, i, d, len, t, 0));
                }
            const int32_t *da, *db, *dc;
            int na, nb, nc;
            int64_t ma = olnet_step(a, t, &da, &na), mb = olnet_step(b, t, &db, &nb), mc = olnet_step(c, t, &dc, &nc);
            ck_assert_int_eq(ma, mb);
            ck_assert_int_eq(mc, mb);
            ck_assert_int_eq(na, nb);
            ck_assert_int_eq(nc, nb);
            moved += ma;
            for (int k = 0; k < na; k++) {
                ck_assert_int_eq(da[k], db[k]);
                ck_assert_int_eq(dc[k], db[k]);
                olnet_release(a, da[k]);
                olnet_release(b, db[k]);
                olnet_release(c, dc[k]);
            }
        }
        ck_assert_int_gt(moved, 0);
        ck_assert_int_eq(olnet_flits_in_network(a), olnet_flits_in_network(b));
        ck_assert_int_eq(olnet_flits_in_network(c), olnet_flits_in_network(b));
        olnet_free(a);
        olnet_free(b);
        olnet_free(c);
    }
    *rs = r;
}

/* Random open-loop traffic through the fast path, the fast path keeping its
 * live masks move by move (scalar: on a machine with SSSE3 the default path
 * finds them each cycle up to three VCs) and the reference path: the same
 * packets eject in the same cycles, on meshes and tori of several shapes,
 * both VC rules, 1 to 4 VCs, FIFOs of 1 to 6 flits, packets of 1 to 12
 * flits, every scheme, at loads from light to far past saturation. */
START_TEST(fast_path_equals_reference)
{
    uint64_t r = 7;
    for (int it = 0; it < 60; it++) {
        int mesh = it % 2;
        olnet_params op = { .rp = { .w = 2 + 2 * draw(&r, 4), .h = 2 + 2 * draw(&r, 3),
                                    .topo = mesh ? TOPO_MESH : TOPO_TORUS, .tie = (route_tie)draw(&r, 3),
                                    .dateline = (route_dateline)draw(&r, 2) },
                            .vc_rule = mesh && draw(&r, 3) ? VCRULE_ANY : VCRULE_DATELINE,
                            .vcs = mesh ? 1 + draw(&r, 4) : 3 + draw(&r, 2), .buffer = 1 + draw(&r, 6),
                            .scheme = draw(&r, VCSEL_NSCHEMES), .q_update = (qsel_update)draw(&r, 2) };
        if (op.rp.w == 2 && !mesh) op.rp.w = 4;
        three_paths_agree(op, &r);
    }
}
END_TEST

/* The same for every routing function but dor on meshes (odd sides too),
 * 2 to 4 VCs, both VC rules (and dor2 on tori too): the paths share
 * routing_admissible, so this checks
 * what each path does with its answer (the class's VCs a header may take,
 * the class a source injects into). */
START_TEST(fast_path_equals_reference_routing)
{
    uint64_t r = 11;
    for (int k = ROUTING_YX; k < ROUTING_COUNT; k++)
        for (int it = 0; it < 12; it++) {
            olnet_params op = { .rp = { .w = 2 + draw(&r, 6), .h = 2 + draw(&r, 5), .topo = TOPO_MESH },
                                .vc_rule = draw(&r, 3) ? VCRULE_ANY : VCRULE_DATELINE, .vcs = 2 + draw(&r, 3),
                                .buffer = 1 + draw(&r, 6), .scheme = draw(&r, VCSEL_NSCHEMES),
                                .q_update = (qsel_update)draw(&r, 2), .routing = (routing_kind)k,
                                .selection = (routing_selection)(it % SELECT_COUNT), .route_seed = (uint64_t)it };
            /* The functions a torus takes: half their cases there, either
             * VC rule, at least their torus classes' VCs [R-RF-11, 12]. */
            const int on_torus = routing_info_of((routing_kind)k)->topologies & (1u << TOPO_TORUS);
            if (on_torus && it % 2) {
                op.rp = (route_params){ .w = 4 + 2 * draw(&r, 3), .h = 4 + 2 * draw(&r, 2), .topo = TOPO_TORUS,
                                        .tie = (route_tie)draw(&r, 3), .dateline = (route_dateline)draw(&r, 2) };
                op.vc_rule = draw(&r, 2) ? VCRULE_ANY : VCRULE_DATELINE;
                const int K = routing_classes((routing_kind)k, &op.rp);
                if (op.vcs < K) op.vcs = K;
            }
            three_paths_agree(op, &r);
        }
}
END_TEST

/* Valiant and min-adaptive on tori are deadlock-free by their classes
 * [R-RF-11], [R-RF-12]: tornado-like traffic (every packet about half a
 * ring along both dimensions, so that most legs take a wrap link) far past
 * saturation for 600 cycles on the reference path and the fast path, with
 * the fewest VCs each may have, then no more packets: every packet ejects
 * (a deadlock would hold its flits for ever). */
START_TEST(torus_routing_drains)
{
    static const routing_kind kinds[] = { ROUTING_VALIANT, ROUTING_MIN_ADAPTIVE };
    uint64_t r = 17;
    for (size_t k = 0; k < 2; k++)
        for (int it = 0; it < 8; it++) {
            olnet_params op = { .rp = { .w = it % 2 ? 6 : 4, .h = 4, .topo = TOPO_TORUS, .tie = (route_tie)(it % 3) },
                                .vc_rule = it & 2 ? VCRULE_ANY : VCRULE_DATELINE, .buffer = 1 + it % 4,
                                .routing = kinds[k], .selection = (routing_selection)(it % SELECT_COUNT),
                                .route_seed = (uint64_t)it, .reference = it & 4 ? 1 : 0 };
            op.vcs = routing_classes(kinds[k], &op.rp);
            char err[256];
            olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
            ck_assert_msg(n != NULL, "%s", err);
            const int w = op.rp.w, nodes = w * 4;
            int64_t t = 0, sent = 0, done = 0;
            for (; t < 20000 && (t < 600 || olnet_flits_in_network(n) > 0 || olnet_packets_alive(n) > 0); t++) {
                for (int i = 0; i < nodes && t < 600; i++)
                    if (draw(&r, 4) == 0) {
                        const int d = ((i / w + 2) % 4) * w + (i % w + w / 2 - (int)draw(&r, 2)) % w;
                        ck_assert_int_ge(olnet_add(n, i, d, 1 + draw(&r, 6), t, 0), 0);
                        sent++;
                    }
                const int32_t *dn;
                int nd;
                olnet_step(n, t, &dn, &nd);
                for (int j = 0; j < nd; j++) olnet_release(n, dn[j]);
                done += nd;
            }
            ck_assert_msg(done == sent, "%s it %d: %lld of %lld packets out by cycle %lld",
                          routing_info_of(kinds[k])->name, it, (long long)done, (long long)sent, (long long)t);
            olnet_free(n);
        }
}
END_TEST

/* Min-adaptive past saturation on an 8x8 grid: uniform 8-flit packets
 * (each node a new one with odds 8 % a cycle: 0.64 flits a cycle, about
 * twice what the network accepts) into 4-flit FIFOs for 3000 cycles, then
 * none: every packet ejects.  Before the adaptive VCs were granted only
 * with their downstream FIFO empty [R-RF-12], a header granted an adaptive
 * VC behind another packet's tail could close a cycle of adaptive VCs
 * alone, each header holding one into a FIFO full of the next packet's
 * tail: the 3-VC torus under router timing (D S L C = 1 1 1 1, VC
 * rotation) then kept 4 or 5 packets for ever with seeds 2 and 19, on both
 * paths, and the 2-VC mesh without timing 4 with seeds 1 and 17 (of seeds
 * 1 to 20: 3 on the torus, 2 on the mesh). */
START_TEST(min_adaptive_drains_past_saturation)
{
    static const int seeds[] = { 1, 2, 17, 19 };
    for (int c = 0; c < 3; c++)
        for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
            const int torus = c < 2, seed = seeds[k];
            olnet_params op = { .rp = { .w = 8, .h = 8, .topo = torus ? TOPO_TORUS : TOPO_MESH },
                                .vc_rule = VCRULE_ANY, .vcs = torus ? 3 : 2, .buffer = 4,
                                .routing = ROUTING_MIN_ADAPTIVE, .selection = SELECT_RANDOM,
                                .route_seed = (uint64_t)seed, .reference = c == 1 };
            if (torus) {
                op.router_delay = op.switch_delay = op.link_delay = op.credit_delay = 1;
                op.vc_rotate = 1;
            }
            char err[256];
            olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
            ck_assert_msg(n != NULL, "%s", err);
            uint64_t r = (uint64_t)seed * 7919;
            int64_t t = 0, sent = 0, done = 0;
            for (; t < 23000 && (t < 3000 || olnet_packets_alive(n) > 0); t++) {
                for (int i = 0; i < 64 && t < 3000; i++)
                    if (draw(&r, 1000) < 80) {
                        const int d = draw(&r, 64);
                        if (d == i) continue;
                        ck_assert_int_ge(olnet_add(n, i, d, 8, t, 0), 0);
                        sent++;
                    }
                const int32_t *dn;
                int nd;
                olnet_step(n, t, &dn, &nd);
                for (int j = 0; j < nd; j++) olnet_release(n, dn[j]);
                done += nd;
            }
            ck_assert_msg(done == sent, "%s%s seed %d: %lld of %lld packets out by cycle %lld, %lld flits left",
                          torus ? "torus" : "mesh", c == 1 ? " (reference)" : "", seed, (long long)done,
                          (long long)sent, (long long)t, (long long)olnet_flits_in_network(n));
            olnet_free(n);
        }
}
END_TEST

/* Router timing on every path: random delays (0 to 4 each, often 0), with
 * dor and every other routing function, on meshes and tori: the credits,
 * the flits on links and the headers' waits are the paths' shared
 * bookkeeping, so this checks what each path does around them. */
START_TEST(fast_path_equals_reference_timing)
{
    uint64_t r = 13;
    for (int it = 0; it < 48; it++) {
        const int mesh = it % 3 != 0;
        olnet_params op = { .rp = { .w = mesh ? 2 + draw(&r, 6) : 4 + 2 * draw(&r, 2), .h = mesh ? 2 + draw(&r, 5) : 4,
                                    .topo = mesh ? TOPO_MESH : TOPO_TORUS, .tie = (route_tie)draw(&r, 3) },
                            .vc_rule = mesh && draw(&r, 3) ? VCRULE_ANY : VCRULE_DATELINE, .vcs = 3 + draw(&r, 2),
                            .buffer = 1 + draw(&r, 6), .scheme = draw(&r, VCSEL_NSCHEMES),
                            .q_update = (qsel_update)draw(&r, 2),
                            .routing = mesh && it % 2 ? (routing_kind)(ROUTING_YX + draw(&r, ROUTING_DOR2 - ROUTING_YX))
                                                      : ROUTING_DOR,
                            .selection = (routing_selection)(it % SELECT_COUNT), .route_seed = (uint64_t)it,
                            .router_delay = draw(&r, 2) ? draw(&r, 5) : 0, .switch_delay = draw(&r, 3) ? 0 : 1 + draw(&r, 2),
                            .link_delay = draw(&r, 2) ? draw(&r, 5) : 0, .credit_delay = draw(&r, 2) ? draw(&r, 5) : 0,
                            .vc_rotate = draw(&r, 2) };
        if (it % 4 == 3) { /* the default router's own step */
            op.vcs = 3;
            op.buffer = 4;
        }
        three_paths_agree(op, &r);
    }
}
END_TEST

/* The run of a lone packet of len flits from s to d generated at cycle 7:
 * the cycle its tail ejects. */
static int64_t lone_packet(olnet *n, int s, int d, int len)
{
    int32_t id = olnet_add(n, s, d, len, 7, 0);
    int64_t got = -1;
    for (int64_t t = 0; t < 7 + 400 && got < 0; t++) {
        const int32_t *done;
        int nd;
        olnet_step(n, t, &done, &nd);
        if (nd) got = t;
    }
    olnet_release(n, id);
    return got;
}

/* Router timing at zero load [R-TM-4]: a lone packet over H links crosses
 * H + 1 routers, each a cycle and its header's D, and leaves each through
 * its switch and a channel (H links and the ejection), S + L more each,
 * after the injection channel's L; its tail follows len - 1 cycles behind
 * when its FIFOs hold it all (buffer >= len: no credit is waited for):
 * tail at 7 + (H + 1)(1 + D + S + L) + L + len - 1.  Every pair of a 5x3
 * mesh and a 4x4 torus, lengths 1 and 5, on both paths and several
 * delays (D, S, L, C). */
START_TEST(zero_load_timing_every_pair)
{
    static const int delays[][4] = { { 1, 1, 1, 1 }, { 0, 0, 3, 0 }, { 4, 2, 0, 1 }, { 1, 0, 2, 5 } };
    for (int topo = 0; topo < 2; topo++)
        for (int k = 0; k < 4; k++)
            for (int ref = 0; ref < 2; ref++) {
                const int D = delays[k][0], S = delays[k][1], L = delays[k][2];
                olnet_params op = { .rp = { .w = topo ? 5 : 4, .h = topo ? 3 : 4, .topo = topo ? TOPO_MESH : TOPO_TORUS },
                                    .vc_rule = topo ? VCRULE_ANY : VCRULE_DATELINE, .vcs = 3, .buffer = 5,
                                    .reference = ref, .router_delay = D, .switch_delay = S, .link_delay = L,
                                    .credit_delay = delays[k][3] };
                char err[256];
                olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
                ck_assert_msg(n != NULL, "%s", err);
                for (int s = 0; s < op.rp.w * op.rp.h; s++)
                    for (int d = 0; d < op.rp.w * op.rp.h; d++)
                        for (int len = 1; len <= 5; len += 4) {
                            const int H = olnet_hops(n, s, d);
                            const int64_t want = 7 + (H + 1) * (1 + D + S + L) + L + len - 1;
                            const int64_t got = lone_packet(n, s, d, len);
                            ck_assert_msg(got == want, "topo %d D %d S %d L %d C %d ref %d: %d -> %d len %d: tail at %lld, want %lld",
                                          topo, D, S, L, delays[k][3], ref, s, d, len, (long long)got, (long long)want);
                        }
                olnet_free(n);
            }
}
END_TEST

/* The credit loop [R-TM-3]: one VC of B = 2 flits, L = 1, C = 2, 1-flit
 * packets all queued at cycle 0 from node 0 to its east neighbour of a 2x2
 * mesh.  D = 0: a slot taken in cycle t (a flit sent) holds it from the end
 * of t + 1 (it lands), is freed in t + 2 (it moves on at once) and is seen
 * by its sender from t + 2 + 1 + C = t + 5, so a sender gets B = 2 sends in
 * every 5 cycles, at every hop alike: packet k injects at 5 (k / 2) + k % 2
 * and ejects 5 cycles later ((H + 1)(1 + D + S + L) + L + len - 1 =
 * 4 + 1 + 0): B / (2 + L + C) = 0.4 flits a cycle.  D = 1: a header leaves 1 + D = 2 cycles after
 * it comes to the head (it lands, or the one ahead leaves), so a slot is
 * held a cycle longer (2 sends in 6 cycles): worked out flit by flit,
 * injections at 0, 1, 6, 8, 12, 14 and ejections at 7, 9, 13, 15, 19, 21
 * (packet 1 lands behind packet 0 and waits for it). */
START_TEST(credit_loop_by_hand)
{
    static const int64_t inj1[6] = { 0, 1, 6, 8, 12, 14 }, done1[6] = { 7, 9, 13, 15, 19, 21 };
    for (int D = 0; D <= 1; D++)
        for (int ref = 0; ref < 2; ref++) {
            olnet_params op = { .rp = { .w = 2, .h = 2, .topo = TOPO_MESH }, .vc_rule = VCRULE_DATELINE, .vcs = 1,
                                .buffer = 2, .reference = ref, .router_delay = D, .link_delay = 1, .credit_delay = 2 };
            char err[256];
            olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
            ck_assert_msg(n != NULL, "%s", err);
            enum { K = 20 };
            for (int k = 0; k < K; k++) ck_assert_int_eq(olnet_add(n, 0, 1, 1, 0, k), k);
            int seen = 0;
            for (int64_t t = 0; seen < K; t++) {
                ck_assert_int_lt(t, 200);
                const int32_t *done;
                int nd;
                olnet_step(n, t, &done, &nd);
                for (int j = 0; j < nd; j++, seen++) {
                    const olnet_packet *pk = olnet_packet_get(n, done[j]);
                    const int k = pk->tag;
                    ck_assert_int_eq(k, seen);
                    if (D == 0) {
                        ck_assert_int_eq(pk->t_inj, 5 * (k / 2) + k % 2);
                        ck_assert_int_eq(pk->t_done, pk->t_inj + 5);
                    } else if (k < 6) {
                        ck_assert_int_eq(pk->t_inj, inj1[k]);
                        ck_assert_int_eq(pk->t_done, done1[k]);
                    }
                    olnet_release(n, done[j]);
                }
            }
            olnet_free(n);
        }
}
END_TEST

/* A lone flow under BookSim2's timing (D = S = L = C = 1): 8-flit packets
 * queued back to back at node 0 of an 8x2 mesh for node 7 (7 hops), 3 VCs
 * of 4 flits.  Past the first router a packet's body streams at
 * B / (2 + S + L + C) a VC [R-TM-3]; a header waits D more with its slot
 * held.  With the lowest free VC taken at every port [R-VC-4] each packet
 * follows the one before in the same VC, so each of its two rounds of 4
 * flits pays the header's D: 4 / (2 + D + S + L + C) = 2/3 flit a cycle.
 * Going round the VCs (vc_rotate, [R-VC-6]) consecutive packets take
 * different VCs, the header's wait overlaps the packet before, and the
 * flow runs at the body's loop between routers, 4 / (2 + S + L + C) =
 * 4/5: BookSim2's 0.799 for the same flow.  Measured over
 * packets 100 to 300, in steady state. */
START_TEST(lone_flow_vc_alloc)
{
    for (int rot = 0; rot < 2; rot++)
        for (int ref = 0; ref < 2; ref++) {
            olnet_params op = { .rp = { .w = 8, .h = 2, .topo = TOPO_MESH }, .vc_rule = VCRULE_ANY, .vcs = 3,
                                .buffer = 4, .router_delay = 1, .switch_delay = 1, .link_delay = 1,
                                .credit_delay = 1, .reference = ref, .vc_rotate = rot };
            char err[256];
            olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
            ck_assert_msg(n != NULL, "%s", err);
            for (int k = 0; k < 320; k++) ck_assert_int_eq(olnet_add(n, 0, 7, 8, 0, k), k);
            int64_t t100 = -1, t300 = -1;
            for (int64_t t = 0; t300 < 0; t++) {
                ck_assert_int_lt(t, 10000);
                const int32_t *done;
                int nd;
                olnet_step(n, t, &done, &nd);
                for (int j = 0; j < nd; j++) {
                    const int tag = olnet_packet_get(n, done[j])->tag;
                    if (tag == 100) t100 = t;
                    if (tag == 300) t300 = t;
                    olnet_release(n, done[j]);
                }
            }
            /* 200 packets of 8 flits: 1600 / (2/3) = 2400 cycles, 1600 / (4/5) = 2000. */
            ck_assert_int_eq(t300 - t100, rot ? 2000 : 2400);
            olnet_free(n);
        }
}
END_TEST

START_TEST(bad_params)
{
    char err[256];
    fault_kind kind = FAULT_NONE;
    olnet_params op = { .rp = { .w = 8, .h = 8, .topo = TOPO_TORUS }, .vc_rule = VCRULE_ANY, .vcs = 3, .buffer = 4 };
    ck_assert_ptr_null(olnet_new(&op, NULL, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_nonnull(strstr(err, "only on a mesh"));
    op.vc_rule = VCRULE_DATELINE;
    op.rp.w = 7;
    ck_assert_ptr_null(olnet_new(&op, NULL, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_nonnull(strstr(err, "even sides"));
    op.rp.topo = TOPO_MESH;
    olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err); /* a 7x8 mesh is fine */
    ck_assert_ptr_nonnull(n);
    olnet_free(n);
    op.rp.w = 1;
    ck_assert_ptr_null(olnet_new(&op, NULL, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    kind = FAULT_NONE;
    ck_assert_ptr_nonnull(strstr(err, "at least 2"));
    /* A queue order that is not a permutation: refused and named, on both
     * paths (the fast one keeps orders as permutation ranks). */
    op.rp.w = 4;
    op.rp.h = 4;
    sim_config *c = sim_config_new(16, 3, 0, 8);
    ck_assert_ptr_nonnull(c);
    sim_config_q(c, 5, PORT_E, 2)[3] = PORT_N;
    ck_assert_ptr_null(olnet_new(&op, c, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "node 5 port E vc 2 is not a permutation"));
    op.reference = 1;
    kind = FAULT_NONE;
    ck_assert_ptr_null(olnet_new(&op, c, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    sim_config_q(c, 5, PORT_E, 2)[3] = PORT_W; /* N E S W P again */
    /* A VC-selection scheme out of range: refused and named, not read past
     * the selection table. */
    c->scheme[9 * NPORTS + PORT_S] = VCSEL_NSCHEMES;
    op.reference = 0;
    kind = FAULT_NONE;
    ck_assert_ptr_null(olnet_new(&op, c, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "scheme of node 9 port S out of range"));
    c->scheme[9 * NPORTS + PORT_S] = 0;
    n = olnet_new(&op, c, NULL, err, sizeof err);
    ck_assert_ptr_nonnull(n);
    olnet_free(n);
    /* A configuration for another network: 16 nodes against a 4x5 mesh's 20. */
    op.rp.h = 5;
    kind = FAULT_NONE;
    ck_assert_ptr_null(olnet_new(&op, c, &kind, err, sizeof err));
    ck_assert_int_eq(kind, FAULT_INPUT);
    ck_assert_ptr_nonnull(strstr(err, "configuration for 16 nodes and 3 VCs, network has 20 and 3"));
    sim_config_free(c);
}
END_TEST

/* A packet released twice breaks the invariant olnet_release asserts where
 * the library was built with its assertions on (the checking and sanitizer
 * builds: "nocsim: invariant broken: olnet_release: a packet released
 * once", SIGABRT, which the test then expects); in release it is not
 * checked, and the second release only lists the id again. */
START_TEST(release_twice_fires)
{
    olnet_params op = { .rp = { .w = 4, .h = 4, .topo = TOPO_MESH }, .vc_rule = VCRULE_DATELINE, .vcs = 1, .buffer = 4 };
    char err[256];
    olnet *n = olnet_new(&op, NULL, NULL, err, sizeof err);
    ck_assert_msg(n != NULL, "%s", err);
    int32_t id = olnet_add(n, 0, 5, 2, 0, 0);
    ck_assert_int_ge(id, 0);
    olnet_release(n, id);
    olnet_release(n, id);
    ck_assert_msg(!nocsim_asserts_on(), "the invariant did not fire");
    olnet_free(n);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("olnet");
    TCase *tc = tcase_create("olnet");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, closed_loop_equals_reference);
    tcase_add_test(tc, closed_loop_rectangles);
    tcase_add_test(tc, mesh_one_vc_by_hand);
    tcase_add_test(tc, mesh_any_vc_by_hand);
    tcase_add_test(tc, zero_load_every_pair);
    tcase_add_test(tc, fast_path_equals_reference);
    tcase_add_test(tc, fast_path_equals_reference_routing);
    tcase_add_test(tc, torus_routing_drains);
    tcase_add_test(tc, min_adaptive_drains_past_saturation);
    tcase_add_test(tc, fast_path_equals_reference_timing);
    tcase_add_test(tc, zero_load_timing_every_pair);
    tcase_add_test(tc, credit_loop_by_hand);
    tcase_add_test(tc, lone_flow_vc_alloc);
    tcase_add_test(tc, bad_params);
    if (nocsim_asserts_on()) tcase_add_test_raise_signal(tc, release_twice_fires, SIGABRT);
    else tcase_add_test(tc, release_twice_fires);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
