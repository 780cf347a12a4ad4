/* Measuring the ceiling of delta simulation (issue 38) on the one fast
 * engine, before any of it is built: a child's run stepped side by side
 * with its parent's, router state compared every cycle, gives the cone (the
 * routers whose state has differed from the parent's at the same cycle;
 * cones only grow) and the router-cycles a cone stepper would step; the
 * parent's run written as a compact record gives what keeping it costs.
 * Nothing here is on the path of a run: bench/delta_ceiling.c drives it.
 *
 * Router state, compared between the two runs at the end of each cycle:
 *  - dynamic: every input FIFO's flits and count, the output VC each holds,
 *    each output VC's holder, the waiting headers and their requests, the
 *    downstream-full bits (what the neighbours' counts say), the last VC
 *    granted at each port, the source queue's position;
 *  - configuration: the port's VC-selection scheme, the queue-selection
 *    orders (their current ranks) and the source's release cycles.
 * The strict cone counts either (a router whose genes changed is in it from
 * cycle 0: a stepper cannot know it behaves as the parent's without
 * stepping it); the dynamic cone only the first, a lower bound.  The
 * release-aware cone is the strict one with a router whose only changed
 * genes are release times (its injection time, or the interval V) joining
 * at the first cycle such a packet of its is released in either run, which
 * a stepper knows from the two configurations (a V change moves every
 * node's second slice, so the strict cone of such a child is the whole
 * network from cycle 0).  Both
 * include what crosses a router's links: a different flit in or out
 * changes its FIFOs or holders by the end of the cycle. */
#ifndef NOCSIM_SIM_DELTA_H
#define NOCSIM_SIM_DELTA_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

typedef struct delta_probe delta_probe;

/* Sums over the jobs given to delta_probe_job. */
typedef struct {
    int64_t jobs;
    int64_t cycles;          /* cycles the child's run stepped (idle stretches skipped) */
    int64_t router_cycles;   /* nodes x cycles */
    int64_t cone_rc;         /* router-cycles inside the strict cone */
    int64_t cone_dyn_rc;     /* inside the dynamic cone */
    int64_t active_rc;       /* router-cycles of a router with a flit or an injection */
    int64_t cone_active_rc;  /* active ones inside the strict cone */
    int64_t cone0;           /* routers in the strict cone at cycle 0 (changed genes) */
    int64_t joins;           /* routers in the strict cone at the end */
    int64_t diverged;        /* jobs whose dynamic state ever differed */
    int64_t first_diff;      /* sum over those of the first cycle it did */
    int64_t first_diff_of;   /* sum over those of their cycles */
    int64_t edge_lc;         /* link-cycles from a router outside the strict cone into one inside */
    int64_t rel_rc, rel_active_rc, rel_edge_lc, rel0; /* the release-aware cone's (delta.c,
                                release_joins): router-cycles, active ones, edge link-cycles,
                                routers in it at cycle 0 */
    int64_t rel_joins;       /* routers in the release-aware cone at the end */
    int64_t rel_unexplained; /* routers that joined it with no neighbour in it (0: it is sound) */
    int64_t dyn_active_rc, dyn_edge_lc; /* the dynamic cone's active router-cycles, edge link-cycles */
    int64_t inexact;         /* jobs whose side-by-side child disagreed with closedloop_run */
    int64_t edge_joins;      /* links over which delta_edge found the child unlike the record */
    int64_t unexplained;     /* routers that joined the cone with no such link (0: the edge
                                check sees every way in) */
    uint32_t edge_sum;       /* the flits delta_edge read, summed (kept, so they are read) */
    int64_t patch_writes;    /* record entries an accepted child's cone rewrites (delta_probe_job with patch) */
} delta_stats;

/* What the parent's record (delta_probe_record) costs, summed over parents.
 * Dense: per cycle each link's flit (4 bytes, 0: none) and each router's
 * downstream-full bits (2 bytes).  Sparse: per cycle an offset (4), a bitmap
 * of the links that carry a flit (nodes / 2 bytes) with their flits packed
 * (4 each), and the routers whose full bits changed (2 + 2 each).
 * Snapshots: every router's whole state every K cycles, from which a router
 * joining the cone at t is stepped alone (t mod K cycles, its inputs from
 * the record). */
typedef struct {
    int64_t parents;
    int64_t cycles;          /* cycles of the parents' runs (to their ends, idle ones too) */
    int64_t crossings;       /* flits over links */
    int64_t full_changes;    /* routers whose full bits changed, per cycle */
    int64_t dense_bytes, sparse_bytes, snap_bytes;
    int64_t snapshots;
} delta_rec_stats;

/* A probe for checked parameters p (closedloop_supports, dor routing) and
 * traffic dest[]; K, the snapshot interval (> 0).  NULL when memory runs
 * out or the engine refuses p. */
delta_probe *delta_probe_new(const sim_params *p, const int32_t *dest, int K);
void delta_probe_free(delta_probe *d);

/* The parent's whole run written as every record form above (into the
 * probe's buffers, replacing the last parent's).  Returns the parent's
 * duration, or -1 when its run did not finish. */
int64_t delta_probe_record(delta_probe *d, const sim_config *parent, delta_rec_stats *rs);

/* One GA job: child run with cutoff as the GA runs it (lean, closedloop_run;
 * its metrics into *m), then both runs side by side over the child's
 * cycles, the cones added to *st.  patch: the child was accepted, and the
 * dense record (of this parent, delta_probe_record just before) is patched
 * with the child's cone, as an accepted child's run would be kept. */
void delta_probe_job(delta_probe *d, const sim_config *parent, const sim_config *child, int64_t cutoff, int patch,
                     delta_stats *st, sim_metrics *m);

/* The child's run alone, as the GA runs it (for instruction counts). */
sim_status delta_probe_child(delta_probe *d, const sim_config *child, int64_t cutoff, sim_metrics *m);

#endif
