/* libFuzzer target: random networks, traffic and configurations through
 * both engines.  The input's bytes choose the size (4, 6 or 8 wide, as
 * high or 2 to 8 high), the topology (torus or mesh) and the mesh's VC rule,
 * VCs, FIFO
 * depth (word and ring FIFOs), packet length, slices, the model choices that
 * the fast engine supports, the routing function (any of the table the grid
 * accepts, half the time dor) and its selection rule, the traffic (any destination per source, itself
 * included), the interval, the timings, the schemes and the queue orders;
 * bytes past the end of the input come from a generator seeded by its
 * length.  Properties:
 *  - sim_run (the fast engine where it applies) and sim_run_reference give
 *    every metric, every link's statistics and, after a finished run, every
 *    packet's tail cycle equal;
 *  - so does a second configuration on the same simulator (the fast engine
 *    then resets only part of its state), after a cut run (which leaves it
 *    mid-run);
 *  - a cut run (sim_run_cutoff) either ends exactly as the full run or says
 *    SIM_CUTOFF only when the full run is longer than the cutoff;
 *  - a lean run (sim_run_lean) gives the full run's metrics but the six it
 *    leaves 0, and its tail cycles and link flits.
 * A difference prints what differs and aborts.
 *
 * Built with -DFUZZ_RANDOM_MAIN it is a random test without libFuzzer
 * (make check runs it for FUZZ_ENGINES_SECONDS): fuzz_engines_random
 * [SECONDS [SEED]] feeds random inputs for that long. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/decisions.h"
#include "sim/sim.h"
#include "tests/fuzz/fuzz_input.h"
#include "util/rng.h"

/* For the random driver: the input being run (-1 under libFuzzer, which
 * writes the input itself) and how often the fast engine gave the result
 * compared (a deadlock or time-out falls back to the reference). */
static long long current_seed = -1;
static long compared, compared_fast;


static void permutation(input *in, uint8_t *q, int len)
{
    for (int j = 0; j < len; j++) q[j] = (uint8_t)j;
    for (int j = len - 1; j > 0; j--) {
        int k = (int)take(in, (unsigned)j + 1);
        uint8_t t = q[j]; q[j] = q[k]; q[k] = t;
    }
}

static void fill_config(input *in, sim_config *c, const sim_params *p)
{
    c->interval = (uint32_t)p->flits + take(in, 3u * (unsigned)p->flits + 1);
    for (int i = 0; i < c->nodes; i++) c->inject[i] = (uint16_t)take(in, 2u * (unsigned)p->flits + 1);
    for (int k = 0; k < c->nodes * NPORTS; k++) c->scheme[k] = (uint8_t)take(in, VCSEL_NSCHEMES);
    for (int k = 0; k < c->nodes * NPORTS * c->vcs; k++) permutation(in, c->qorder + (size_t)k * NPORTS, NPORTS);
}

static const char *what_params(const sim_params *p)
{
    static char buf[240];
    snprintf(buf, sizeof buf,
             "n %d h %d topo %d vc-rule %d vcs %d buffer %d flits %d slices %d tie %d dateline %d q-update %d self %d "
             "routing %s selection %s route-seed %llu",
             p->n, sim_height(p), (int)p->topo, (int)p->vc_rule, p->vcs, p->buffer, p->flits, p->slices, (int)p->tie,
             (int)p->dateline, (int)p->q_update, (int)p->self, routing_info_of(p->routing)->name,
             routing_selection_name(p->selection), (unsigned long long)p->route_seed);
    return buf;
}

/* Report a difference (a, b named an and bn) and abort. */
static void differ_as(const sim_params *p, const char *what, const char *an, long long a, const char *bn, long long b,
                      const char *case_)
{
    fprintf(stderr, "fuzz_engines: %s: %s: %s %lld, %s %lld (%s)\n", case_, what, an, a, bn, b, what_params(p));
    if (current_seed >= 0) fprintf(stderr, "fuzz_engines: input of seed %lld (rerun: fuzz_engines_random 0 %lld)\n", current_seed, current_seed);
    abort();
}

static void differ(const sim_params *p, const char *what, long long a, long long b, const char *case_)
{
    differ_as(p, what, "fast", a, "reference", b, case_);
}

static void same_metrics(const sim_params *p, const sim_metrics *a, const sim_metrics *b, const char *case_)
{
#define SAME(field) if (a->field != b->field) differ(p, #field, (long long)a->field, (long long)b->field, case_)
    SAME(status); SAME(duration); SAME(te); SAME(ir); SAME(or_); SAME(ib); SAME(ob); SAME(lb);
    SAME(flits_injected); SAME(flits_ejected); SAME(packets); SAME(idle_nodes); SAME(cycles);
    SAME(max_link_flits); SAME(stop_cycle); SAME(late); SAME(tail_profile); SAME(late_sum);
#undef SAME
}

/* Link statistics and tail cycles of the last run, to compare with another's. */
typedef struct {
    int64_t *links, *tails;
} trace;

static void take_trace(sim *s, const sim_params *p, const sim_metrics *m, trace *t)
{
    int nodes = sim_nodes(p);
    for (int k = 0; k < nodes * 4; k++) sim_link_stats(s, k, &t->links[3 * k], &t->links[3 * k + 1], &t->links[3 * k + 2]);
    if (m->status == SIM_OK) sim_tail_cycles(s, t->tails);
}

static void same_trace(const sim_params *p, const sim_metrics *m, const trace *a, const trace *b, const char *case_)
{
    int nodes = sim_nodes(p);
    for (int k = 0; k < nodes * 4 * 3; k++)
        if (a->links[k] != b->links[k]) differ(p, "a link's statistics", (long long)a->links[k], (long long)b->links[k], case_);
    if (m->status != SIM_OK) return;
    for (int k = 0; k < nodes * p->slices; k++)
        if (a->tails[k] != b->tails[k]) differ(p, "a packet's tail cycle", (long long)a->tails[k], (long long)b->tails[k], case_);
}

/* A lean run of c against the full run's metrics m and trace t (tl is
 * scratch): the same but te, lb, ir, or_, ib and ob (0) and the links'
 * first and last cycles (-1) where the fast engine ran it. */
static void compare_lean(sim *s, const sim_params *p, const sim_config *c, const sim_metrics *m, const trace *t,
                         trace *tl, const char *case_)
{
    sim_metrics ml, want = *m;
    sim_run_lean(s, c, INT64_MAX, NULL, &ml);
    take_trace(s, p, &ml, tl);
    if (!sim_ran_fast(s)) {
        same_metrics(p, &ml, &want, case_);
        same_trace(p, m, tl, t, case_);
        return;
    }
    want.te = want.lb = want.ir = want.or_ = want.ib = want.ob = 0;
    same_metrics(p, &ml, &want, case_);
    for (int k = 0; k < sim_nodes(p) * 4; k++) {
        if (tl->links[3 * k] != -1 || tl->links[3 * k + 1] != -1)
            differ(p, "a lean run's link first or last cycle", (long long)tl->links[3 * k], -1, case_);
        if (tl->links[3 * k + 2] != t->links[3 * k + 2])
            differ(p, "a lean run's link flits", (long long)tl->links[3 * k + 2], (long long)t->links[3 * k + 2], case_);
    }
    if (m->status != SIM_OK) return;
    for (int k = 0; k < sim_nodes(p) * p->slices; k++)
        if (tl->tails[k] != t->tails[k]) differ(p, "a lean run's tail cycle", (long long)tl->tails[k], (long long)t->tails[k], case_);
}

/* The configuration through both engines, with traces, and lean. */
static void compare(sim *s, const sim_params *p, const sim_config *c, trace *tf, trace *tr, const char *case_)
{
    sim_metrics mf, mr;
    sim_run(s, c, &mf);
    compared++;
    compared_fast += sim_ran_fast(s);
    take_trace(s, p, &mf, tf);
    compare_lean(s, p, c, &mf, tf, tr, case_);
    sim_run_reference(s, c, &mr);
    take_trace(s, p, &mr, tr);
    same_metrics(p, &mf, &mr, case_);
    same_trace(p, &mr, tf, tr, case_);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = { data, size, 0, 0x9e3779b97f4a7c15ull ^ size };
    sim_params p;
    sim_params_default(&p);
    static const int sizes[3] = { 4, 6, 8 };
    p.n = sizes[take(&in, 3)];
    static const int heights[] = { 0, 2, 4, 6, 8 };
    p.h = heights[take(&in, 5)];
    p.topo = (route_topology)take(&in, 2);
    p.vc_rule = p.topo == TOPO_MESH && take(&in, 2) ? VCRULE_ANY : VCRULE_DATELINE;
    p.vcs = p.topo == TOPO_MESH ? 1 + (int)take(&in, 4) : 3 + (int)take(&in, 2);
    p.buffer = 1 + (int)take(&in, 10);
    p.flits = 2 + (int)take(&in, 11);
    p.slices = 1 + (int)take(&in, 4);
    p.tie = (route_tie)take(&in, 3);
    p.dateline = (route_dateline)take(&in, 2);
    p.q_update = (qsel_update)take(&in, 2);
    p.self = (sim_self)take(&in, 2);
    /* Half the inputs route by dor; the others by a function of the table
     * its grid accepts (dor where it does not), with VCs for its classes. */
    const unsigned rk = take(&in, 2 * ROUTING_COUNT);
    p.routing = rk < ROUTING_COUNT ? ROUTING_DOR : (routing_kind)(rk - ROUTING_COUNT);
    if (!(routing_info_of(p.routing)->topologies & (1u << p.topo))) p.routing = ROUTING_DOR;
    if (p.routing == ROUTING_DOR2 && p.topo == TOPO_TORUS && take(&in, 2)) {
        p.vc_rule = VCRULE_ANY;
        p.vcs = 2 + (int)take(&in, 3);
    }
    const route_params grid = { .topo = p.topo };
    if (p.vcs < routing_classes(p.routing, &grid)) p.vcs = routing_classes(p.routing, &grid);
    p.selection = (routing_selection)take(&in, SELECT_COUNT);
    p.route_seed = take(&in, 1000);
    p.deadlock_cycles = 200;
    p.max_cycles = 20000;
    int nodes = sim_nodes(&p);
    int32_t dest[64];
    for (int i = 0; i < nodes; i++) dest[i] = (int32_t)take(&in, (unsigned)nodes);
    char err[256];
    sim *s = sim_new(&p, dest, NULL, err, sizeof err);
    sim_config *c = sim_config_new(nodes, p.vcs, 0, (uint32_t)p.flits);
    trace tf = { calloc((size_t)nodes * 12, sizeof(int64_t)), calloc((size_t)nodes * (size_t)p.slices, sizeof(int64_t)) };
    trace tr = { calloc((size_t)nodes * 12, sizeof(int64_t)), calloc((size_t)nodes * (size_t)p.slices, sizeof(int64_t)) };
    if (!s || !c || !tf.links || !tf.tails || !tr.links || !tr.tails) {
        fprintf(stderr, "fuzz_engines: %s\n", s ? "out of memory" : err);
        abort();
    }
    fill_config(&in, c, &p);

    /* A cut run first: it leaves the fast engine mid-run. */
    sim_metrics full, cut;
    sim_run_reference(s, c, &full);
    int64_t cutoff = full.duration - 2 + (int64_t)take(&in, 4);
    if (cutoff < 1) cutoff = 1;
    sim_run_cutoff(s, c, cutoff, &cut);
    if (cut.status == SIM_CUTOFF) {
        if (!(full.status != SIM_OK || full.duration > cutoff))
            differ_as(&p, "a cut run stopped although the run ends within the cutoff", "cutoff", cutoff, "duration",
                      full.duration, "cutoff");
        if (cut.duration != cutoff + 1) differ_as(&p, "a cut run's duration", "cut", cut.duration, "cutoff + 1", cutoff + 1, "cutoff");
    } else {
        same_metrics(&p, &cut, &full, "an uncut run with a cutoff");
    }
    compare(s, &p, c, &tf, &tr, "after a cut run");
    /* Another configuration on the same simulator. */
    fill_config(&in, c, &p);
    compare(s, &p, c, &tf, &tr, "a second configuration");

    free(tf.links); free(tf.tails); free(tr.links); free(tr.tails);
    sim_config_free(c);
    sim_free(s);
    return 0;
}

#ifdef FUZZ_RANDOM_MAIN
#include "tests/fuzz/fuzz_random.h"

int main(int argc, char **argv)
{
    uint64_t seed;
    const long runs = fuzz_random_feed(argc, argv, 1024, &current_seed, &seed);
    printf("fuzz_engines: %ld random inputs (seeds %llu..%llu), both engines equal; the fast engine ran %ld of %ld\n",
           runs, (unsigned long long)seed, (unsigned long long)(seed + (uint64_t)runs - 1), compared_fast, compared);
    /* Comparisons that the reference made on both sides compare nothing. */
    if (2 * compared_fast < compared) {
        fprintf(stderr, "fuzz_engines: the fast engine ran in fewer than half of the comparisons\n");
        return 1;
    }
    return 0;
}
#endif
