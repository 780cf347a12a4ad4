/* Closed-loop runs on the one fast engine: sim_run's collectives stepped by
 * the open-loop network's fast path (sim/olnet_fast.c), the engine every
 * run of nocsim uses.
 *
 * A collective is every sending node's S packets of L flits, slice s of
 * node i released at s * interval + inject[i], queued at the node's source
 * in slice order: exactly the open-loop network's source queues, so the
 * fast path steps it unchanged.  This driver adds what a collective needs:
 * a per-run reset that allocates nothing (the packets and their routes are
 * made once, their release cycles set per run), the cutoff with its load
 * bound, the jump over idle stretches, the watchdog and the time-out, the
 * tail window, and, through the fast path's closed-loop instantiation, the
 * link statistics, the metrics ir/or_/ib/ob/lb and the decision record
 * (sim/decisions.h).
 *
 * Checked against the reference loop of sim/sim.c, the transcription of
 * the model: tests/test_closedloop.c and the fuzz target fuzz_engines compare
 * every metric, tail cycle and link statistic, and test_decisions every
 * record.  Conventions as in sim/sim.h. */
#ifndef NOCSIM_SIM_CLOSEDLOOP_H
#define NOCSIM_SIM_CLOSEDLOOP_H

#include <stdatomic.h>

#include "sim/decisions.h"
#include "sim/olnet.h"
#include "sim/sim.h"
#include "sim/tailwin.h"
#include "util/fault.h"

typedef struct closedloop closedloop;

/* Can the fast engine run a network with these (checked) parameters?  Not
 * the model's alternative choices that only the reference implements
 * (SLOT_SAME_CYCLE, INPUT_PER_PORT, slice re-initialisation, interlocking);
 * link times are kept in 32 bits, so max_cycles below 2^31. */
int closedloop_supports(const sim_params *p);

/* An engine for checked parameters p that closedloop_supports and traffic
 * dest[src] (every entry a node).  scalar 1: the fast path keeps its live
 * masks move by move even where SSSE3 could find them (olnet_params.scalar),
 * for the tests that compare both ways; sim_new passes 0.  NULL when memory
 * runs out. */
NOCSIM_MUST_USE
closedloop *closedloop_new(const sim_params *p, const int32_t *dest, int scalar);
/* NULL is fine. */
void closedloop_free(closedloop *c);

/* What a run counts.  CL_FULL: every field of sim_metrics.  CL_LEAN: all but
 * te, lb, ir, or_, ib, ob (left 0) and the links' first and last cycles
 * (-1), which cost time on every cycle: for searches whose score needs only
 * the duration, the tail window and the counts. */
typedef enum { CL_FULL = 0, CL_LEAN } closedloop_metrics;

/* One run of configuration cfg (which fits the network and passes
 * sim_config_check); cutoff as sim_run_cutoff (INT64_MAX for none).  When
 * rec is not NULL the run's decisions go there: known after SIM_OK under the
 * dateline rule, unknown otherwise.  At SIM_DEADLOCK and SIM_TIMEOUT the
 * status, stop_cycle, cycles, duration, packets, idle_nodes and the flits
 * injected and ejected are exact, the rest is not: sim_run re-runs the reference, whose state sim_report_blocked
 * shows.  Cannot fail. */
sim_status closedloop_run(closedloop *c, const sim_config *cfg, int64_t cutoff, sim_decisions *rec,
                          closedloop_metrics what, sim_metrics *m);

/* After a run that ended SIM_OK: link k's statistics as sim_link_stats
 * (CL_LEAN: first and last are -1), and the tail cycles as sim_tail_cycles. */
void closedloop_link_stats(const closedloop *c, int k, int64_t *first, int64_t *last, int64_t *flits);
void closedloop_tail_cycles(const closedloop *c, int64_t *out);

/* A min-heap entry of the load bound (closedloop.c's load_exceeds; the
 * delta runs' cone keeps one too): a link and its key. */
typedef struct {
    int64_t key;
    int32_t link;
} closedloop_lentry;
/* The entry at k of heap h[0 .. n) sifted down to its place. */
void closedloop_heap_down(closedloop_lentry *h, int n, int k);

/* What a delta run (sim/delta_run.c) sees of a parent's run, cycle by
 * cycle: before(ctx, n, t) with the network at the start of a cycle about
 * to be stepped, after(ctx, n, t, nmv) once it is, its nmv moves in
 * n->fmv (injections not among them).  Idle cycles the run jumps over are
 * not shown. */
typedef struct {
    void (*before)(void *ctx, const olnet *n, int64_t t);
    void (*after)(void *ctx, const olnet *n, int64_t t, int nmv);
    void *ctx;
} closedloop_observer;

/* closedloop_run(c, cfg, INT64_MAX, rec, CL_LEAN, m), with ob shown every
 * cycle stepped. */
sim_status closedloop_run_observed(closedloop *c, const sim_config *cfg, sim_decisions *rec,
                                   const closedloop_observer *ob, sim_metrics *m);

/* A run picked up at the start of cycle t (sim/delta_run.c moving a child
 * from its cone to the whole network): c's network already holds the state
 * then (every router's FIFOs, outputs, requests, sources, downstream-full
 * bits and link loads; the packets' releases, in_net, the source mask, the
 * tail cycles of the packets done), and the run so far is summed up here. */
typedef struct {
    int64_t t;            /* the next cycle to step */
    int64_t done;         /* packets whose tail ejected before t */
    int64_t last_eject;   /* the last cycle one did, -1 */
    int64_t cycles;       /* cycles stepped before t */
    int64_t injected;     /* flits injected before t */
    tailwin tw;           /* the tails ejected before t */
    const atomic_int *stop; /* not NULL: the run stops (SIM_CUTOFF at the cycle) once it holds 1 */
} closedloop_resume;

/* The rest of such a run, lean: rec (when not NULL) holds the decisions
 * made before t and gets the rest; results as closedloop_run's. */
sim_status closedloop_run_resumed(closedloop *c, int64_t cutoff, sim_decisions *rec, const closedloop_resume *from,
                                  sim_metrics *m);

/* The lower bound of cfg's duration that closedloop_run checks against the
 * cutoff before it steps (0 when nothing is sent): a run whose bound is
 * over its cutoff ends SIM_CUTOFF at once, metrics as closedloop_run's. */
int64_t closedloop_release_bound(const closedloop *c, const sim_config *cfg);

/* What a delta run reads of the engine it steps on: the network (c's, for
 * the caller to step router by router), node i's slice s as packet
 * first[i] + s (first[i] < 0: i sends nothing), the load bound's per-link
 * reach and after (see closedloop.c's load_exceeds), the queue-selection
 * rank table (qsel_rank_table), packets, idle nodes, slices and flits. */
typedef struct {
    olnet *net;
    const int32_t *first, *reach, *after;
    const uint8_t *rank;
    int64_t to_send;
    int idle_nodes, S, L;
} closedloop_view;
closedloop_view closedloop_view_of(const closedloop *c);

/* For sim/delta.c's measurements (bench/delta_ceiling) and the checking
 * build's oracle of delta runs (sim/delta_oracle.c) only, never for a run:
 * c's network reset and loaded with cfg's packets (lean metrics, no
 * decisions), for the caller to step with olnet_step from cycle 0. */
olnet *closedloop_begin(closedloop *c, const sim_config *cfg);

/* Bytes allocated, for the benchmark's memory figures. */
size_t closedloop_bytes(const closedloop *c);

#endif
