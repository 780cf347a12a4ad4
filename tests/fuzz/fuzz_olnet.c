/* libFuzzer target: random open-loop traffic through the open-loop network's
 * fast path (sim/olnet_fast.c) and its reference path (sim/olnet.c).  The
 * input's bytes choose the grid (2 to 8 wide and high, torus or mesh), the
 * VC rule, the VCs, the FIFO depth, the VC-selection scheme, the tie and
 * dateline rules, the queue-order update, whether the fast path keeps its
 * live masks move by move (scalar) or may find them with SSSE3, the routing
 * function (on a mesh each, on a torus dor, dor2, valiant or min-adaptive,
 * with at least the VCs its classes need, and the selection rule and the
 * routes' seed), the router
 * timing (a third of the inputs: each delay 0 to 3), the longest packet
 * and the load;
 * then, cycle by cycle, which nodes generate a packet, to where and how
 * long.  Bytes past the end of the input come from a generator seeded by its
 * length (tests/fuzz/fuzz_input.h).  Property: every cycle both paths move the same number of flits
 * and finish the same packets in the same order, and at the end they hold
 * the same flits and packets.  A difference prints the cycle and aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/olnet.h"
#include "tests/fuzz/fuzz_input.h"

static void differ(int64_t t, const char *what, long long a, long long b)
{
    fprintf(stderr, "fuzz_olnet: cycle %lld: %s: fast %lld, reference %lld\n", (long long)t, what, a, b);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = { data, size, 0, 0x9e3779b97f4a7c15ull ^ size };
    olnet_params op = { 0 };
    op.rp.topo = (route_topology)take(&in, 2);
    int torus = op.rp.topo == TOPO_TORUS;
    /* A torus needs even sides of at least 4 under these tests' VCs (a
     * 2-wide ring has both neighbours on one node). */
    op.rp.w = torus ? 4 + 2 * (int)take(&in, 3) : 2 + (int)take(&in, 7);
    op.rp.h = torus ? 2 * (1 + (int)take(&in, 4)) : 2 + (int)take(&in, 7);
    op.rp.tie = (route_tie)take(&in, 3);
    op.rp.dateline = (route_dateline)take(&in, 2);
    op.vc_rule = !torus && take(&in, 2) ? VCRULE_ANY : VCRULE_DATELINE;
    op.vcs = torus ? 3 + (int)take(&in, 2) : 1 + (int)take(&in, 4);
    op.buffer = 1 + (int)take(&in, 6);
    op.scheme = (int)take(&in, VCSEL_NSCHEMES);
    op.q_update = (qsel_update)take(&in, 2);
    op.scalar = (int)take(&in, 2);
    if (torus) {
        /* The functions a torus takes; all but dor may take any VC of a
         * class, and have at least their torus classes' VCs. */
        static const routing_kind on_torus[] = { ROUTING_DOR, ROUTING_DOR2, ROUTING_VALIANT, ROUTING_MIN_ADAPTIVE };
        op.routing = on_torus[take(&in, 4)];
        if (op.routing == ROUTING_DOR2 && take(&in, 3) == 0) op.vcs = 2; /* what dor2 is for */
        if (op.routing != ROUTING_DOR && take(&in, 2)) op.vc_rule = VCRULE_ANY; /* its classes' VCs freely */
    } else {
        op.routing = (routing_kind)take(&in, ROUTING_COUNT);
    }
    if (op.vcs < routing_classes(op.routing, &op.rp)) op.vcs = routing_classes(op.routing, &op.rp);
    op.selection = (routing_selection)take(&in, SELECT_COUNT);
    op.route_seed = take(&in, 1000);
    if (take(&in, 3) == 0) {
        op.router_delay = (int)take(&in, 4);
        op.switch_delay = (int)take(&in, 3);
        op.link_delay = (int)take(&in, 4);
        op.credit_delay = (int)take(&in, 4);
    }
    char err[256];
    olnet *a = olnet_new(&op, NULL, NULL, err, sizeof err);
    op.reference = 1;
    op.scalar = 0;
    olnet *b = olnet_new(&op, NULL, NULL, err, sizeof err);
    if (!a || !b) {
        fprintf(stderr, "fuzz_olnet: %s\n", err);
        abort();
    }
    const int nodes = op.rp.w * op.rp.h, maxlen = 1 + (int)take(&in, 12);
    const unsigned per_mille = 1 + take(&in, 400); /* packets per node per 1,000 cycles */
    for (int64_t t = 0; t < 400; t++) {
        for (int i = 0; i < nodes && t < 250; i++) {
            if (take(&in, 1000) >= per_mille) continue;
            int d = (int)take(&in, (unsigned)nodes), len = 1 + (int)take(&in, (unsigned)maxlen);
            int32_t ia = olnet_add(a, i, d, len, t, 0), ib = olnet_add(b, i, d, len, t, 0);
            if (ia != ib) differ(t, "packet id", ia, ib);
        }
        const int32_t *da, *db;
        int na, nb;
        int64_t ma = olnet_step(a, t, &da, &na), mb = olnet_step(b, t, &db, &nb);
        if (ma != mb) differ(t, "flits moved", ma, mb);
        if (na != nb) differ(t, "packets finished", na, nb);
        for (int k = 0; k < na; k++) {
            if (da[k] != db[k]) differ(t, "finished packet", da[k], db[k]);
            olnet_release(a, da[k]);
            olnet_release(b, db[k]);
        }
    }
    if (olnet_flits_in_network(a) != olnet_flits_in_network(b))
        differ(400, "flits in the network", olnet_flits_in_network(a), olnet_flits_in_network(b));
    if (olnet_packets_alive(a) != olnet_packets_alive(b))
        differ(400, "packets alive", olnet_packets_alive(a), olnet_packets_alive(b));
    olnet_free(a);
    olnet_free(b);
    return 0;
}
