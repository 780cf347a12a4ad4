/* libFuzzer target: issue 38's delta runs (sim/delta_run.h) against full
 * runs.  The input's bytes choose a network from a small set of shapes
 * (square and rectangular, 4 to 16 wide, torus or mesh), the traffic (a
 * built-in pattern the grid takes, a random permutation, or any destination
 * per source, itself included), slices, packet length, the dateline variant
 * and the other model choices of the default router, the parent's genes (a
 * GA start moved some times) and then every choice of a lineage: each
 * child's moves, its cutoff and the accepts.  tests/delta_harness.h checks
 * every step (a child run on its cone gives every metric and tail cycle of
 * the full run; after an accept the record and decisions are the child's);
 * a difference prints what differs and aborts.  Params delta_supports
 * refuses are not run (the GA would run those in full).
 *
 * Built with -DFUZZ_RANDOM_MAIN it is a random test without libFuzzer
 * (make check runs it for FUZZ_DELTA_SECONDS): fuzz_delta_random
 * [SECONDS [SEED]] feeds random inputs for that long, and fails when fewer
 * than a quarter of the children that keep their parent's interval and
 * have its duration for the cutoff (the GA's usual child) ran on their cone
 * or no accept patched a record: then too little of the delta engine was
 * compared. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/delta_harness.h"
#include "tests/fuzz/fuzz_input.h"
#include "traffic/traffic.h"

/* For the random driver: the input being run (-1 under libFuzzer, which
 * writes the input itself), and the counts of all inputs so far. */
static long long current_seed = -1;
static long refused, children, cone, ga_case, ga_case_cone, accepts, accepted;

static unsigned take_input(void *ctx, unsigned range) { return take(ctx, range); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = { data, size, 0, 0x9e3779b97f4a7c15ull ^ size };
    const dh_draw d = { take_input, &in };
    static const int shapes[][2] = { { 4, 4 }, { 8, 8 }, { 8, 4 }, { 4, 8 }, { 6, 6 }, { 6, 10 }, { 16, 16 } };
    const unsigned pick = take(&in, 16); /* the GA's default 16x16 one time in 16: it costs the most */
    const int sh = pick == 15 ? 6 : (int)(pick % 6), w = shapes[sh][0], hgt = shapes[sh][1];
    sim_params p;
    sim_params_default(&p);
    p.n = w;
    p.h = hgt == w ? 0 : hgt;
    p.topo = (route_topology)take(&in, 2);
    p.slices = 1 + (int)take(&in, 4);
    p.flits = take(&in, 2) ? SIM_DEFAULT_FLITS : 2 + (int)take(&in, 11);
    p.dateline = (route_dateline)take(&in, 2);
    /* Half the inputs keep the other model choices at their defaults, the
     * GA's usual run, whatever delta_supports says of the rest. */
    if (take(&in, 2)) {
        p.tie = (route_tie)take(&in, 3);
        p.q_update = (qsel_update)take(&in, 2);
        p.self = (sim_self)take(&in, 2);
        p.no_load_bound = take(&in, 4) == 0;
    }
    char err[256];
    if (sim_params_check(&p, err, sizeof err)) {
        fprintf(stderr, "fuzz_delta: params rejected: %s\n", err);
        abort();
    }
    if (!delta_supports(&p)) {
        refused++;
        return 0;
    }
    const int nodes = w * hgt;
    int32_t dest[256];
    const unsigned kind = take(&in, (unsigned)traffic_builtin_count + 2);
    if (kind < (unsigned)traffic_builtin_count && traffic_grid_supports((int)kind, w, hgt)) {
        for (int i = 0; i < nodes; i++) dest[i] = traffic_grid_dest((int)kind, w, hgt, i);
    } else if (kind == (unsigned)traffic_builtin_count) {
        for (int i = 0; i < nodes; i++) dest[i] = (int32_t)take(&in, (unsigned)nodes);
    } else { /* a random permutation */
        for (int i = 0; i < nodes; i++) dest[i] = i;
        for (int i = nodes - 1; i > 0; i--) {
            int j = (int)take(&in, (unsigned)i + 1), t = dest[i];
            dest[i] = dest[j];
            dest[j] = t;
        }
    }
    char what[200];
    snprintf(what, sizeof what, "%dx%d %s, traffic kind %u, S=%d L=%d dateline %d tie %d q-update %d self %d%s", w,
             hgt, p.topo == TOPO_MESH ? "mesh" : "torus", kind, p.slices, p.flits, (int)p.dateline, (int)p.tie,
             (int)p.q_update, (int)p.self, p.no_load_bound ? " no-load-bound" : "");
    dh h;
    sim_config *c = NULL;
    if (dh_open(&h, &p, dest, what) || !(c = sim_config_new(nodes, p.vcs, 0, (uint32_t)p.flits))) {
        fprintf(stderr, "fuzz_delta: %s\n", c ? "out of memory" : h.msg);
        abort();
    }
    dh_start(&h, c, &d, (int)take(&in, 64));
    const char *bad = dh_lineage(&h, c, 2 + (int)take(&in, nodes > 64 ? 8 : 20), &d);
    if (bad) {
        fprintf(stderr, "fuzz_delta: %s\n", bad);
        if (current_seed >= 0)
            fprintf(stderr, "fuzz_delta: input of seed %lld (rerun: fuzz_delta_random 0 %lld)\n", current_seed,
                    current_seed);
        abort();
    }
    children += h.children;
    cone += h.cone;
    ga_case += h.ga_case;
    ga_case_cone += h.ga_case_cone;
    accepts += h.accepts;
    accepted += h.accepted;
    sim_config_free(c);
    dh_close(&h);
    return 0;
}

#ifdef FUZZ_RANDOM_MAIN
#include "tests/fuzz/fuzz_random.h"

int main(int argc, char **argv)
{
    uint64_t seed;
    const long runs = fuzz_random_feed(argc, argv, 512, &current_seed, &seed);
    printf("fuzz_delta: %ld random inputs (seeds %llu..%llu, %ld refused by delta_supports): %ld children, %ld on "
           "their cone (%ld of %ld with the parent's interval and duration for the cutoff), %ld of %ld accepts patched the record; all exact\n",
           runs, (unsigned long long)seed, (unsigned long long)(seed + (uint64_t)runs - 1), refused, children, cone,
           ga_case_cone, ga_case, accepted, accepts);
    /* Children not run on their cone, and records never patched, compare
     * nothing of the delta engine. */
    if (4 * ga_case_cone < ga_case || accepted == 0) {
        fprintf(stderr, "fuzz_delta: coverage: fewer than a quarter of the children with their parent's interval "
                        "and duration for the cutoff ran on their cone, or no accept patched a record\n");
        return 1;
    }
    return 0;
}
#endif
